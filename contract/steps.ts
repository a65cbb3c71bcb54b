/**
 * The checkout's steps: their names, the order a buyer meets them in and when each applies, and
 * the chart the root chart invokes on each. A new step is added here once; the next-step rules
 * (`machines/checkout/nextStep.ts`), the root chart's stand-ins for the step charts and the
 * server's list of steps all read this file. Plain values with no schema library, so the entry
 * script can name steps without loading the wire contract's schemas.
 */
import type { Checkout } from './checkout.ts';

/** Every step, in the order the specification lists them (spec 000 §2). */
export const STEPS = [
  'determining',
  'basket',
  'captcha',
  'reserve',
  'login',
  'marketing_preferences',
  'donation',
  'gift_aid',
  'delivery_address',
  'ticket_questions_before',
  'payment',
  'deliver_tickets',
  'awaiting_truelayer',
  'ticket_questions_after',
  'after_sale_messages',
  'waiver',
  'order_completed',
] as const;
export type Step = (typeof STEPS)[number];

/** A step of the flow and when a buyer meets it: a step without `appliesWhen` always applies. */
export interface FlowStep {
  step: Step;
  appliesWhen?: (checkout: Checkout) => boolean;
}

/**
 * The flow (spec 000 §4 "Step order", spec 001 §4 "Next-step rules"): the steps in the order a buyer
 * meets them. Leaving a step, the buyer goes to the first later step that applies to the checkout
 * just read; `nextStep` adds the rules' few exceptions (see there).
 */
export const FLOW: readonly FlowStep[] = [
  { step: 'basket' },
  { step: 'reserve' },
  { step: 'donation', appliesWhen: (checkout) => checkout.charity !== null },
  { step: 'gift_aid', appliesWhen: (checkout) => checkout.charity !== null && checkout.donation_amount > 0 },
  { step: 'login' },
  { step: 'marketing_preferences', appliesWhen: (checkout) => checkout.marketing_preferences !== null },
  { step: 'delivery_address', appliesWhen: (checkout) => checkout.require_delivery_address },
  { step: 'ticket_questions_before', appliesWhen: (checkout) => checkout.before_payment_questions.length > 0 },
  { step: 'payment' },
  { step: 'deliver_tickets' },
  { step: 'ticket_questions_after', appliesWhen: (checkout) => checkout.after_payment_questions.length > 0 },
  { step: 'waiver', appliesWhen: (checkout) => checkout.has_waivers },
  { step: 'after_sale_messages', appliesWhen: (checkout) => checkout.after_sale_messages.length > 0 },
  { step: 'order_completed' },
];

/**
 * Steps that take another's place in the flow and go on from where it would: the captcha is the
 * reservation asked again with a token, and back from the bank is the payment finishing.
 */
export const IN_PLACE_OF: Partial<Record<Step, Step>> = {
  captcha: 'reserve',
  awaiting_truelayer: 'payment',
};

/** The steps after `step` in the flow (for a step in another's place, after that one). */
export function stepsAfter(step: Step): Step[] {
  const at = FLOW.findIndex((row) => row.step === (IN_PLACE_OF[step] ?? step));
  return at < 0 ? [] : FLOW.slice(at + 1).map((row) => row.step);
}

/**
 * The chart the root chart invokes on a step, by the name it invokes it by (its `src`, id and
 * systemId). The app provides each under that name from the step's own chunk (the step module's
 * `chart.name`, `src/steps/<step>/step.ts`); the root chart stands in for each until then. The
 * basket's chart is part of the entry script and needs no stand-in.
 */
export const STEP_CHARTS = {
  captcha: 'reservation',
  reserve: 'reservation',
  login: 'account',
  marketing_preferences: 'marketing',
  donation: 'donation',
  gift_aid: 'giftAid',
  delivery_address: 'address',
  ticket_questions_before: 'questions',
  payment: 'payment',
  deliver_tickets: 'delivery',
  awaiting_truelayer: 'bankTransfer',
  ticket_questions_after: 'questions',
  waiver: 'waiver',
  order_completed: 'orderCompleted',
} as const satisfies Partial<Record<Step, string>>;
export type StepChartName = (typeof STEP_CHARTS)[keyof typeof STEP_CHARTS];
