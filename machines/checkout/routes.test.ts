/**
 * The root chart walked by route: every way through the steps a buyer can take, one per
 * combination of what decides the steps (the step table's conditions, `contract/steps.ts`: a
 * charity and a donation, express, marketing preferences pending, a delivery address, questions
 * before and after payment, waivers, after-sale messages; and how the reservation and the payment
 * go: a captcha first, a card, a zero total, a payment plan, a bank transfer). Each route is driven
 * through the real root chart, its step charts standing in with their ordinary endings, and its
 * order of steps is checked against `expectedRoute`, written from the spec's next-step rules (spec
 * 000 §4 "Step order", spec 001 §4 "Next-step rules"), not from `FLOW` or `nextStep`; a step of the
 * product's own (a row of the table the spec does not name) is expected where the table places it
 * (`withOwnSteps`).
 *
 * The walk in checkout.test.ts checks every transition of the root with its oracle; this one checks
 * the order of the steps. With every guard free, the routing state could go from any step to any
 * other (over 100,000 routes); the routes are the ones the step table allows, and reports/paths.json
 * keeps how many there are and that every one is taken.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { Checkout } from '../../contract/checkout';
import { inSpec } from '../../contract/specSteps';
import { FLOW, STEP_CHARTS, stepRow, type Step } from '../../contract/steps';
import { afterSaleMessage, charity, makeCheckout, pendingMarketing, question } from '../testing/checkoutFixture';
import { keepPaths } from '../testing/paths';
import { checkoutMachine } from './checkout.machine';

type Payment = 'card' | 'free' | 'plan' | 'bank';

interface Conditions {
  charity: boolean;
  donation: boolean;
  express: boolean;
  marketing: boolean;
  delivery: boolean;
  questionsBefore: boolean;
  questionsAfter: boolean;
  waiver: boolean;
  afterSale: boolean;
  captcha: boolean;
  payment: Payment;
}

/** The steps a buyer passes through, from the spec's rules alone. */
function expectedRoute(c: Conditions): Step[] {
  const route: Step[] = ['determining', 'basket', 'reserve'];
  // "On load of the reserve step the product asks the server to reserve ... If a captcha is needed: go to the captcha state."
  if (c.captcha) route.push('captcha');
  // "captcha, or reserve, goes to donation if the events have a charity, else to payment if the buyer is express, else to login."
  const toLogin = () => {
    route.push('login');
    // "login goes to marketing_preferences if pending, else delivery_address if required, else ticket_questions_before if any, else payment."
    if (c.marketing) route.push('marketing_preferences');
    if (c.delivery) route.push('delivery_address');
    if (c.questionsBefore) route.push('ticket_questions_before');
  };
  if (c.charity) {
    route.push('donation');
    // "donation goes to gift_aid if a donation amount is set, else to login. gift_aid goes to login."
    if (c.donation) route.push('gift_aid');
    toLogin();
  } else if (!c.express) toLogin();
  route.push('payment');
  // The bank's page comes back to the checkout at awaiting_truelayer (the page is loaded afresh, so determining again).
  if (c.payment === 'bank') route.push('determining', 'awaiting_truelayer');
  // "payment or awaiting_truelayer -> deliver_tickets. deliver_tickets -> ticket_questions_after if any, else waiver if
  // waivers apply, else after_sale_messages if any, else order_completed." (and each of those on to the later ones)
  route.push('deliver_tickets');
  if (c.questionsAfter) route.push('ticket_questions_after');
  if (c.waiver) route.push('waiver');
  if (c.afterSale) route.push('after_sale_messages');
  route.push('order_completed');
  return route;
}

/**
 * The route with the product's own steps (rows of the step table the spec does not name) where the
 * table places them, each when it applies: between two steps of the route that it stands between in
 * the flow, unless the spec's rule jumps there (an express buyer without a charity goes from the
 * reservation straight to payment).
 */
function withOwnSteps(c: Conditions, route: Step[]): Step[] {
  const place = (step: Step) => FLOW.findIndex((row) => row.step === (stepRow(step)?.inPlaceOf ?? step));
  const own = FLOW.filter((row) => !inSpec(row.step) && (row.appliesWhen?.(checkoutFor(c)) ?? true)).map(
    (row) => row.step,
  );
  const jumps = (from: Step, to: Step) =>
    c.express && !c.charity && ['reserve', 'captcha'].includes(from) && to === 'payment';
  return route.flatMap((step, i) => {
    const next = route[i + 1];
    if (next === undefined || place(step) < 0 || place(next) < 0 || jumps(step, next)) return [step];
    return [step, ...own.filter((o) => place(step) < place(o) && place(o) < place(next))];
  });
}

function checkoutFor(c: Conditions, over: Partial<Checkout> = {}): Checkout {
  return makeCheckout({
    state: 'basket',
    charity: c.charity ? charity : null,
    donation_amount: c.charity && c.donation ? 500 : 0,
    express: c.express,
    marketing_preferences: c.marketing ? pendingMarketing : null,
    require_delivery_address: c.delivery,
    before_payment_questions: c.questionsBefore ? [question] : [],
    after_payment_questions: c.questionsAfter ? [question] : [],
    has_waivers: c.waiver,
    after_sale_messages: c.afterSale ? [afterSaleMessage] : [],
    basket_total: c.payment === 'free' ? 0 : 2500,
    payment_plan_remaining: c.payment === 'plan' ? 2 : 0,
    ...over,
  } as Partial<Checkout>);
}

/** The replies of the stand-ins. */
const flush = async () => {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** The reserve delay (0 here, a timer all the same). */
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** What the stand-ins answer from: the route's conditions and what the server knows so far. */
const server = { c: undefined as unknown as Conditions, state: 'basket' as Step, paid: false, reserved: false };
const read = () =>
  checkoutFor(server.c, {
    state: server.state,
    payment_complete: server.paid,
    sale_reference: server.reserved ? 'HF-1' : null,
  });
const ended = fromPromise(async () => ({ kind: 'done' }));

/** The root with its step charts standing in, each ending as it ordinarily does (made once: making a machine is slow). */
const root = checkoutMachine.provide({
  actors: {
    // Every step chart ends as it ordinarily does (its step completed), but those below.
    ...Object.fromEntries(Object.values(STEP_CHARTS).map((name) => [name, ended as never])),
    loadCheckout: fromPromise(async () => read()) as never,
    loadStepCharts: fromPromise(async () => undefined) as never,
    destroySale: fromPromise(async () => undefined) as never,
    reservation: fromPromise(async ({ input }: { input: { captchaToken?: string } }) => {
      if (server.c.captcha && !input.captchaToken) return { kind: 'captcha', sitekey: 'site-key' };
      server.reserved = true;
      return { kind: 'reserved', saleReference: 'HF-1', checkoutTime: 600, checkout: read() };
    }) as never,
    basket: fromCallback(() => {}) as never,
    countdown: fromCallback(() => {}) as never,
    stepSaver: fromCallback(() => {}) as never,
    // A bank transfer leaves for the bank's page: that page load ends there.
    payment: fromPromise(async () => {
      if (server.c.payment === 'bank') return new Promise(() => {});
      server.paid = true;
      return { kind: 'paid' };
    }) as never,
    bankTransfer: fromPromise(async () => {
      server.paid = true;
      return { kind: 'paid' };
    }) as never,
    waiver: fromCallback(() => {}) as never,
    orderCompleted: fromCallback(() => {}) as never,
  },
  actions: { reloadCheckout: () => {}, navigate: () => {} },
  delays: { reserveDelay: 0 },
});

/** One page load of the checkout: the steps it passes through until it waits for the buyer (or the bank). */
async function drive(c: Conditions, state: Step, steps: Step[]): Promise<void> {
  Object.assign(server, { c, state, paid: false, reserved: state !== 'basket' });
  const actor = createActor(root);
  actor.subscribe((snapshot) => {
    if (snapshot.context.step !== steps.at(-1)) steps.push(snapshot.context.step);
  });
  actor.start();
  try {
    for (let i = 0; i < 40; i++) {
      await flush();
      const snapshot = actor.getSnapshot();
      if (snapshot.status !== 'active') throw new Error(`the root ended: ${snapshot.status}`);
      const step = snapshot.context.step;
      if (step === 'order_completed') return;
      if (step === 'payment' && c.payment === 'bank') return;
      if (snapshot.hasTag('reserving') && snapshot.matches({ basket: 'waiting' })) await tick();
      else if (step === 'basket') actor.send({ type: 'RESERVE_CLICKED' });
      else if (step === 'captcha') {
        actor.send({ type: 'CAPTCHA_PASSED', token: 'token' } as never);
        actor.send({ type: 'CAPTCHA_CONTINUE_CLICKED' });
      } else if (step === 'waiver' || step === 'after_sale_messages') actor.send({ type: 'STEP_COMPLETED' });
    }
    throw new Error(
      `stuck at ${actor.getSnapshot().context.step} (${JSON.stringify(actor.getSnapshot().value)}), after ${steps.join(' > ')}`,
    );
  } finally {
    actor.stop();
  }
}

async function route(c: Conditions): Promise<Step[]> {
  const steps: Step[] = [];
  await drive(c, 'basket', steps);
  if (c.payment === 'bank') await drive(c, 'awaiting_truelayer', steps);
  return steps;
}

/**
 * Every combination of the conditions (a donation only with a charity), each with a bank transfer and
 * with a payment on the page: by card, with a zero total or by plan, in turn (the spec's payment
 * methods all end in the same next step, so one of them per combination).
 */
function combinations(): Conditions[] {
  const all: Conditions[] = [];
  const flags = [
    'express',
    'marketing',
    'delivery',
    'questionsBefore',
    'questionsAfter',
    'waiver',
    'afterSale',
    'captcha',
  ] as const;
  const onPage = ['card', 'free', 'plan'] as const;
  for (const [hasCharity, donation] of [
    [false, false],
    [true, false],
    [true, true],
  ] as const) {
    for (let bits = 0; bits < 1 << flags.length; bits++) {
      for (const payment of [onPage[all.length % onPage.length]!, 'bank'] as const) {
        const c = { charity: hasCharity, donation, payment } as Conditions;
        flags.forEach((flag, i) => (c[flag] = (bits & (1 << i)) !== 0));
        all.push(c);
      }
    }
  }
  return all;
}

describe('checkout machine (root), by route', () => {
  it('takes every route the step table allows, each in the order of the spec', { timeout: 300_000 }, async () => {
    const expected = new Set<string>();
    const walked = new Set<string>();
    const all = combinations();
    for (const c of all) {
      const want = withOwnSteps(c, expectedRoute(c));
      expected.add(want.join(' > '));
      const got = await route(c);
      expect(got, JSON.stringify(c)).toEqual(want);
      walked.add(got.join(' > '));
    }
    console.log(
      `checkout routes: ${walked.size}/${expected.size} routes through the steps walked (${all.length} combinations)`,
    );
    expect(walked).toEqual(expected);
    keepPaths('checkout', {
      chartPaths: null,
      bound: expected.size,
      projection:
        'the step (context.step), over the routes the step table allows: every combination of its conditions; with every guard free the routing state goes from any step to any other',
      walked: walked.size,
    });
  });

  it('goes by the rules, not by a fixed order: a charity without a donation skips Gift Aid, express without a charity goes straight to payment', async () => {
    const base: Conditions = {
      charity: true,
      donation: false,
      express: true,
      marketing: true,
      delivery: false,
      questionsBefore: false,
      questionsAfter: false,
      waiver: false,
      afterSale: false,
      captcha: false,
      payment: 'card',
    };
    expect(await route(base)).toEqual(
      withOwnSteps(base, [
        'determining',
        'basket',
        'reserve',
        'donation',
        'login',
        'marketing_preferences',
        'payment',
        'deliver_tickets',
        'order_completed',
      ]),
    );
    const noCharity = { ...base, charity: false };
    expect(await route(noCharity)).toEqual(
      withOwnSteps(noCharity, ['determining', 'basket', 'reserve', 'payment', 'deliver_tickets', 'order_completed']),
    );
  });
});
