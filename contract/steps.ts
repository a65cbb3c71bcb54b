/**
 * The checkout's steps, in one table: a row per step, in the order a buyer meets them, with when it
 * applies, the chart the root chart invokes on it and what holds on it (tickets held, before or
 * after the payment). A new step is one row here; the next-step rules (`machines/checkout/nextStep.ts`),
 * the root chart's stand-ins for the step charts, the hold's clock and the server's list of steps,
 * its late payments and its purge of old sales all read this table, never the order of a list.
 * `steps.test.ts` holds the table to the specification's order and the flags to the rows' places.
 * Plain values with no schema library, so the entry script can name steps without loading the
 * wire contract's schemas.
 */
/**
 * What decides whether a step applies: the fields of the checkout read (`Checkout`, contract/checkout.ts)
 * the table's rules look at. Named here rather than imported, as the checkout's schema names its
 * steps from this table.
 */
export interface StepFacts {
  readonly charity: object | null;
  readonly donation_amount: number;
  readonly marketing_preferences: object | null;
  readonly require_delivery_address: boolean;
  readonly before_payment_questions: readonly unknown[];
  readonly after_payment_questions: readonly unknown[];
  readonly has_waivers: boolean;
  readonly after_sale_messages: readonly unknown[];
}

/** The flags every row carries, written out so logic reads them rather than the row's place. */
interface StepFlags {
  /**
   * The server holds the buyer's tickets on this step (every step past the reservation): the hold's
   * clock runs and a save of the step answers how long the hold has left (spec 000 §4 "Countdown").
   */
  readonly holdsTickets: boolean;
  /** The step comes before the payment: a sale paid late while on it stands on the payment step. */
  readonly beforePayment: boolean;
  /** The step comes after the payment: a sale reaches it only once paid, and is the buyer's record. */
  readonly afterPayment: boolean;
}

/**
 * The table (spec 000 §2 names the steps; spec 000 §4 "Step order" and spec 001 §4 "Next-step rules"
 * give their order). Leaving a step, the buyer goes to the first later row of the flow that applies
 * to the checkout just read (a row without `appliesWhen` always applies); `nextStep` adds the rules'
 * few exceptions. A row with `inPlaceOf` is no place of its own in the flow: it takes another step's
 * place and goes on from where that one would (the captcha is the reservation asked again with a
 * token, back from the bank is the payment finishing), and sits right after it. `determining` is
 * where the checkout finds where the buyer is, before the flow. `chart` is the name the root chart
 * invokes the step's chart by (its `src`, id and systemId): the app provides each under that name
 * from the step's own chunk (the step module's `chart.name`, `src/steps/<step>/step.ts`), and the
 * root chart stands in for each until then. The basket's chart is part of the entry script and
 * needs no stand-in.
 */
const ROWS = [
  { step: 'determining', outsideFlow: true, holdsTickets: false, beforePayment: true, afterPayment: false },
  { step: 'basket', holdsTickets: false, beforePayment: true, afterPayment: false },
  { step: 'reserve', chart: 'reservation', holdsTickets: false, beforePayment: true, afterPayment: false },
  {
    step: 'captcha',
    inPlaceOf: 'reserve',
    chart: 'reservation',
    holdsTickets: false,
    beforePayment: true,
    afterPayment: false,
  },
  {
    step: 'donation',
    appliesWhen: (checkout: StepFacts) => checkout.charity !== null,
    chart: 'donation',
    holdsTickets: true,
    beforePayment: true,
    afterPayment: false,
  },
  {
    step: 'gift_aid',
    appliesWhen: (checkout: StepFacts) => checkout.charity !== null && checkout.donation_amount > 0,
    chart: 'giftAid',
    holdsTickets: true,
    beforePayment: true,
    afterPayment: false,
  },
  { step: 'login', chart: 'account', holdsTickets: true, beforePayment: true, afterPayment: false },
  {
    step: 'marketing_preferences',
    appliesWhen: (checkout: StepFacts) => checkout.marketing_preferences !== null,
    chart: 'marketing',
    holdsTickets: true,
    beforePayment: true,
    afterPayment: false,
  },
  {
    step: 'delivery_address',
    appliesWhen: (checkout: StepFacts) => checkout.require_delivery_address,
    chart: 'address',
    holdsTickets: true,
    beforePayment: true,
    afterPayment: false,
  },
  {
    step: 'ticket_questions_before',
    appliesWhen: (checkout: StepFacts) => checkout.before_payment_questions.length > 0,
    chart: 'questions',
    holdsTickets: true,
    beforePayment: true,
    afterPayment: false,
  },
  { step: 'payment', chart: 'payment', holdsTickets: true, beforePayment: false, afterPayment: false },
  {
    step: 'awaiting_truelayer',
    inPlaceOf: 'payment',
    chart: 'bankTransfer',
    holdsTickets: true,
    beforePayment: false,
    afterPayment: false,
  },
  { step: 'deliver_tickets', chart: 'delivery', holdsTickets: true, beforePayment: false, afterPayment: true },
  {
    step: 'ticket_questions_after',
    appliesWhen: (checkout: StepFacts) => checkout.after_payment_questions.length > 0,
    chart: 'questions',
    holdsTickets: true,
    beforePayment: false,
    afterPayment: true,
  },
  {
    step: 'waiver',
    appliesWhen: (checkout: StepFacts) => checkout.has_waivers,
    chart: 'waiver',
    holdsTickets: true,
    beforePayment: false,
    afterPayment: true,
  },
  {
    step: 'after_sale_messages',
    appliesWhen: (checkout: StepFacts) => checkout.after_sale_messages.length > 0,
    holdsTickets: true,
    beforePayment: false,
    afterPayment: true,
  },
  { step: 'order_completed', chart: 'orderCompleted', holdsTickets: true, beforePayment: false, afterPayment: true },
] as const;

type Row = (typeof ROWS)[number];
export type Step = Row['step'];

/** A row of the step table. */
export interface StepRow extends StepFlags {
  readonly step: Step;
  /** When the buyer meets the step; a step without it always applies. */
  readonly appliesWhen?: (checkout: StepFacts) => boolean;
  /** The name the root chart invokes the step's chart by; none for a step without a chart of its own. */
  readonly chart?: string;
  /** The step whose place in the flow this step takes. */
  readonly inPlaceOf?: Step;
  /** Before the flow: the checkout finding where the buyer is. */
  readonly outsideFlow?: true;
}

/** The table, one row per step in the order a buyer meets them. */
export const STEP_TABLE: readonly StepRow[] = ROWS;

/** Every step, in the table's order. */
export const STEPS: readonly Step[] = STEP_TABLE.map((row) => row.step);

const BY_STEP = new Map<string, StepRow>(STEP_TABLE.map((row) => [row.step, row]));

/** The row of a step; `undefined` for a name that is no step (a value read from storage, say). */
export function stepRow(step: string): StepRow | undefined {
  return BY_STEP.get(step);
}

/** The steps whose row sets `flag`, in the table's order. */
export function stepsWhere(flag: keyof StepFlags): Step[] {
  return STEP_TABLE.filter((row) => row[flag]).map((row) => row.step);
}

/** The flow: the rows with a place of their own, in order (not `determining`, nor a step in another's place). */
export const FLOW: readonly StepRow[] = STEP_TABLE.filter((row) => !row.outsideFlow && !row.inPlaceOf);

/** Steps that take another's place in the flow and go on from where it would. */
export const IN_PLACE_OF: Partial<Record<Step, Step>> = Object.fromEntries(
  STEP_TABLE.flatMap((row) => (row.inPlaceOf ? [[row.step, row.inPlaceOf]] : [])),
);

/** The steps after `step` in the flow (for a step in another's place, after that one). */
export function stepsAfter(step: Step): Step[] {
  const at = FLOW.findIndex((row) => row.step === (IN_PLACE_OF[step] ?? step));
  return at < 0 ? [] : FLOW.slice(at + 1).map((row) => row.step);
}

/** The chart each step with one has, by step: the table's `chart` column, typed by its names. */
export type StepCharts = {
  [R in Row as R extends { chart: string } ? R['step'] : never]: R extends { chart: infer C } ? C : never;
};

/** The chart the root chart invokes on each step that has one, by step (the table's `chart` column). */
export const STEP_CHARTS = Object.fromEntries(
  STEP_TABLE.flatMap((row) => (row.chart ? [[row.step, row.chart]] : [])),
) as StepCharts;
export type StepChartName = StepCharts[keyof StepCharts];
