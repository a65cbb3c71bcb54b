import { describe, expect, it } from 'vitest';
import { STEPS } from '../../contract';
import { afterSaleMessage, charity, makeCheckout, pendingMarketing, question } from '../testing/checkoutFixture';
import { runningChildren, walk, type Expectation, type OracleQuestion, type WalkEvent } from '../testing/walk';
import { viewCheckout } from './checkout.connect';
import { checkoutMachine } from './checkout.machine';
import type { Checkout } from '../../contract/checkout';
import type { Notice, NoticeKind } from '../../contract/notice';
import { STEP_CHARTS, type Step } from '../../contract/steps';
import type { ReservationOutcome } from '../reservation/reservation.types';
import { nextStep } from './nextStep';

/* ---------- what the walk offers ---------- */

/** One checkout per step the server may remember, and one per deciding field of the rules. */
const checkouts: Checkout[] = [
  ...STEPS.map((state) =>
    makeCheckout({
      state,
      sale_reference: 'HF-1',
      seconds_remaining: 420,
      captcha_sitekey: state === 'captcha' ? 'local-altcha' : null,
    }),
  ),
  ...[
    // A donation is made only to the events' charity: Gift Aid follows it.
    { charity, donation_amount: 500 },
    { marketing_preferences: pendingMarketing },
    { require_delivery_address: true },
    { before_payment_questions: [question] },
    { after_payment_questions: [question] },
    { has_waivers: true },
    { after_sale_messages: [afterSaleMessage] },
    { state: 'deliver_tickets' as const, payment_complete: true },
  ].map((fields) => makeCheckout({ state: 'login', sale_reference: 'HF-1', ...fields })),
];

const outcomes: ReservationOutcome[] = [
  { kind: 'reserved', saleReference: 'HF-2', checkoutTime: 600, checkout: makeCheckout({ charity }) },
  { kind: 'reserved', saleReference: 'HF-2', checkoutTime: 600, checkout: makeCheckout({ express: true }) },
  { kind: 'reserved', saleReference: 'HF-2', checkoutTime: 600, checkout: makeCheckout() },
  // The server may name another sitekey when it asks again: the fresh widget takes it.
  { kind: 'captcha', sitekey: 'altcha-again' },
  { kind: 'redirect', url: '/queue/' },
  { kind: 'error', message: 'Sold out' },
  { kind: 'unknown' },
  { kind: 'failed' },
];

/** Spec 001 §8: an error from the bank with no time left. */
const BANK_EXPIRED =
  'Your payment was unsuccessful and the checkout time expired. If the tickets are still available, you can try to reserve them again';

const events: Record<string, WalkEvent[]> = {
  'xstate.done.actor.loadCheckout': checkouts.map((output) => ({ type: 'xstate.done.actor.loadCheckout', output })),
  'xstate.error.actor.loadCheckout': [{ type: 'xstate.error.actor.loadCheckout', error: new Error('500') }],
  'xstate.done.actor.reservation': outcomes.map((output) => ({ type: 'xstate.done.actor.reservation', output })),
  'xstate.error.actor.reservation': [{ type: 'xstate.error.actor.reservation', error: new Error('crashed') }],
  'xstate.done.actor.loadStepCharts': [{ type: 'xstate.done.actor.loadStepCharts', output: undefined }],
  'xstate.error.actor.loadStepCharts': [
    { type: 'xstate.error.actor.loadStepCharts', error: new Error('the chunk did not load') },
  ],
  'xstate.done.actor.destroySale': [{ type: 'xstate.done.actor.destroySale', output: { success: true } }],
  'xstate.error.actor.destroySale': [{ type: 'xstate.error.actor.destroySale', error: new Error('500') }],
  // Offered in every state, so a chart that loses Retry after a failed read fails the walk.
  RETRY_CLICKED: [{ type: 'RETRY_CLICKED' }],
  CAPTCHA_PASSED: [{ type: 'CAPTCHA_PASSED', token: 'token-1' }],
  CAPTCHA_ERRORED: [{ type: 'CAPTCHA_ERRORED', message: 'Network error in the captcha widget' }],
  STEP_SAVED: [
    { type: 'STEP_SAVED', state: 'login', secondsRemaining: 480 },
    { type: 'STEP_SAVED', state: 'reserve', secondsRemaining: 0 },
  ],
  CHECKOUT_RELOADED: [
    {
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({ state: 'basket', sale_reference: null, seconds_remaining: 0 }),
    },
    {
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({ state: 'login', sale_reference: 'HF-1', seconds_remaining: 300 }),
    },
    {
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({
        state: 'payment',
        sale_reference: 'HF-1',
        seconds_remaining: 300,
        payment_complete: true,
      }),
    },
    {
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({
        state: 'payment',
        sale_reference: 'HF-1',
        seconds_remaining: 300,
        payment_in_progress: true,
        payment_seconds_remaining: 1200,
      }),
    },
    {
      // A payment begun elsewhere whose time has run out: it holds the tickets no longer.
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({
        state: 'payment',
        sale_reference: 'HF-1',
        seconds_remaining: 300,
        payment_in_progress: true,
        payment_seconds_remaining: 0,
      }),
    },
    {
      // No payment in progress, whatever time the read carries for one.
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({
        state: 'payment',
        sale_reference: 'HF-1',
        seconds_remaining: 300,
        payment_in_progress: false,
        payment_seconds_remaining: 1200,
      }),
    },
    {
      // Paid while the payment was still in progress: paid wins.
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({
        state: 'payment',
        sale_reference: 'HF-1',
        seconds_remaining: 300,
        payment_complete: true,
        payment_in_progress: true,
        payment_seconds_remaining: 1200,
      }),
    },
  ],
  NOTICE_DISMISSED: [{ type: 'NOTICE_DISMISSED', id: 1 }],
  NOTICE_RAISED: [{ type: 'NOTICE_RAISED', kind: 'error', text: 'Unable to set the Code. Please try again later' }],
  'xstate.done.actor.donation': [
    { type: 'xstate.done.actor.donation', output: { kind: 'donated', amount: 500 } },
    { type: 'xstate.done.actor.donation', output: { kind: 'skipped' } },
  ],
  'xstate.done.actor.account': [
    { type: 'xstate.done.actor.account', output: { kind: 'signed_in' } },
    {
      type: 'xstate.done.actor.account',
      output: { kind: 'holdLost', message: 'Your tickets are no longer held for you.' },
    },
  ],
  'xstate.done.actor.marketing': [{ type: 'xstate.done.actor.marketing', output: undefined }],
  'xstate.done.actor.payment': [
    { type: 'xstate.done.actor.payment', output: { kind: 'paid' } },
    {
      type: 'xstate.done.actor.payment',
      output: { kind: 'holdLost', message: 'Your tickets are no longer held for you. Please reserve them again.' },
    },
  ],
  'xstate.done.actor.giftAid': [{ type: 'xstate.done.actor.giftAid', output: { isGiftAid: true } }],
  'xstate.done.actor.delivery': [{ type: 'xstate.done.actor.delivery', output: undefined }],
  'xstate.done.actor.address': [
    { type: 'xstate.done.actor.address', output: { address: { selected_user_address_id: '7' } } },
  ],
  'xstate.done.actor.questions': [
    { type: 'xstate.done.actor.questions', output: { kind: 'saved', beforeOrAfter: 'before' } },
  ],
  'xstate.done.actor.bankTransfer': [
    { type: 'xstate.done.actor.bankTransfer', output: { kind: 'paid' } },
    { type: 'xstate.done.actor.bankTransfer', output: { kind: 'changeMethod' } },
    { type: 'xstate.done.actor.bankTransfer', output: { kind: 'holdLost', message: BANK_EXPIRED } },
  ],
};

/** The charts the root invokes on the steps, each once (the step table's `chart` column). */
const STEP_CHART_NAMES: string[] = [...new Set(Object.values(STEP_CHARTS))];

/** The charts that never finish their step: the buyer's Continue does (the waiver), or nothing does (order completed). */
const NEVER_FINISH = ['waiver', 'orderCompleted'];

// A step chart with no outputs of its own listed above finishes with none, which completes its step.
for (const name of STEP_CHART_NAMES) {
  const done = `xstate.done.actor.${name}`;
  if (!NEVER_FINISH.includes(name)) events[done] ??= [{ type: done, output: undefined }];
}

const paidCheckout = makeCheckout({ state: 'deliver_tickets', payment_complete: true, sale_reference: 'HF-1' });
const resume = (output: Checkout): WalkEvent => ({ type: 'xstate.done.actor.loadCheckout', output });

/* ---------- the oracle: spec 000 §4 and 001 §4, written without the chart ---------- */

const TEXT = {
  unableToGetCheckout: 'Unable to get Checkout data. Please try again later',
  unknown: 'An unknown error occured. Please try again, or contact support.',
  reserveFailed: 'Unable to reserve tickets. Please try again later',
  /** The wording of the captcha step's button (spec 000 §4, "from the basket button"). */
  reserveFailedFromButton: 'Unable to reserve ticket(s). Please try again later',
  saveFailed: 'Unable to update the Basket state. Please try again later',
  editFailed: 'Unable to edit Basket. Please try again later',
  checkoutExpired: 'Your checkout time expired. If the tickets are still available, you can try to reserve them again.',
  captchaExpired: 'The captcha challenge has expired. Please complete the challenge again.',
};

/** Steps that hold tickets: past the reservation (spec 000 §4 Countdown: past basket, captcha and reserve). */
const HOLDING: Step[] = STEPS.filter((s) => !['determining', 'basket', 'captcha', 'reserve'].includes(s));

/** Steps on which the hold running out does nothing (spec 000 §4 Countdown). */
const NO_EXPIRY: Step[] = ['order_completed', 'after_sale_messages', 'awaiting_truelayer'];
/** Steps the buyer leaves with 'Continue', the next one chosen by `nextStep` on a fresh checkout. */
const ADVANCING: Step[] = STEPS.filter(
  (s) => !['determining', 'basket', 'reserve', 'captcha', 'order_completed'].includes(s),
);
/**
 * Steps whose screen is a child chart, which completes the step when it finishes (spec 000 §4: donation
 * save or skip, Gift Aid save): every step with a chart in the step table but the reservation's, whose
 * outcomes are checked on their own below; the waiver's and order completed's charts never finish
 * (Continue, or nothing).
 */
const CHILD_OF: Partial<Record<Step, string>> = Object.fromEntries(
  Object.entries(STEP_CHARTS).filter(([, chart]) => chart !== STEP_CHARTS.reserve),
);
/** What a child chart starts with: the address form is the delivery address's; the questions chart is told whether it asks before or after payment (spec 001 §7 before_or_after). */
const CHILD_INPUT: Partial<Record<Step, unknown>> = {
  delivery_address: { purpose: 'delivery' },
  ticket_questions_before: { beforeOrAfter: 'before' },
  ticket_questions_after: { beforeOrAfter: 'after' },
};

/** Where the hold may end with the payment complete. */
const PAYING: Step[] = ['payment', 'awaiting_truelayer'];

/**
 * What the walk compares: the screen's view, notices included, with the step's child by its id while
 * it runs (a reservation that has sent the buyer to the queue stays on screen, finished, until the
 * page goes).
 */
function screen(snapshot: Parameters<typeof viewCheckout>[0]) {
  const { countdownRef: _c, stepChild, ...view } = viewCheckout(snapshot);
  return { ...view, stepChild: stepChild?.getSnapshot().status === 'active' ? stepChild.id : null };
}
type View = ReturnType<typeof screen>;
type Q = OracleQuestion<View>;

const idleFlags = {
  isDetermining: false,
  determiningFailed: false,
  isAdvancing: false,
  isEditingBasket: false,
  isReserving: false,
} as const;

function withNotice(q: Q, kind: NoticeKind, text: string): Notice[] {
  // The same notice is shown once, however often its failure repeats.
  if (q.view.notices.some((n) => n.kind === kind && n.text === text)) return q.view.notices;
  return [...q.view.notices, { id: q.before.context.nextNoticeId as number, kind, text }];
}

/** The step saver is told of the step; `known` when the checkout read that led there names it. */
const savesOf = (step: Step, known = false) => ({ stepSaver: [{ type: 'SAVE', state: step, known }] });

/** Whether the payment is complete after a step, from what the server said along the path. */
function paidAfter(paid: boolean, event: WalkEvent, view: View): boolean {
  if (event.type === 'xstate.done.actor.loadCheckout') {
    const checkout = event.output as Checkout;
    if (view.isDetermining) return HOLDING.includes(nextStep('determining', checkout)) && checkout.payment_complete;
    if (view.isAdvancing && PAYING.includes(view.step)) return paid || checkout.payment_complete;
  }
  if (event.type === 'xstate.done.actor.reservation' && (event.output as ReservationOutcome).kind === 'reserved')
    return false;
  return paid;
}

/** The checkout read when determining, the last before the `upTo`th step of the path: where a visit resumes. */
function readWhenDetermining(earlier: Q['earlier'], upTo = earlier.length): Checkout | undefined {
  return earlier
    .slice(0, upTo)
    .findLast((step) => step.event.type === 'xstate.done.actor.loadCheckout' && step.view.isDetermining)?.event
    .output as Checkout | undefined;
}

/**
 * The event starts the hold's clock (the countdown child): a reservation made, or a sale resumed
 * past it once the step charts (the clock's among them) have loaded.
 */
function startsClock(earlier: Q['earlier'], index: number): boolean {
  const { event, view } = earlier[index]!;
  if (event.type === 'xstate.done.actor.reservation')
    return view.isReserving && (event.output as ReservationOutcome).kind === 'reserved';
  if (event.type === 'xstate.done.actor.loadStepCharts' && view.isDetermining)
    return HOLDING.includes(nextStep('determining', readWhenDetermining(earlier, index)!));
  return false;
}

/** What the hold's clock is told: nothing before the first hold, when there is no clock yet. */
function toClock(q: Q, ...events: Array<Record<string, unknown>>): { countdown?: Array<Record<string, unknown>> } {
  return q.earlier.some((_, index) => startsClock(q.earlier, index)) ? { countdown: events } : {};
}

function paidNow(q: Q): boolean {
  const before = q.earlier.reduce((paid, step) => paidAfter(paid, step.event, step.view), false);
  return paidAfter(before, q.event, q.view);
}

/** The buyer lands on a step: what the screen shows, which calls start, and the step is saved. */
function landOn(
  q: Q,
  step: Step,
  extra: Partial<Expectation<View>> & { captchaToken?: string } = {},
): Expectation<View> {
  const running: string[] = [];
  const started: Record<string, unknown[]> = {};
  // 'Edit basket' is accepted on every step past the basket until the payment is complete.
  let view: Expectation<View>['view'] = { step, ...idleFlags, canEditBasket: step !== 'basket' && !paidNow(q) };
  if (step === 'basket') running.push('basket');
  // The donation and Gift Aid screens are child charts; each starts afresh on its step.
  const child = CHILD_OF[step];
  if (child) {
    running.push(child);
    started[child] = [CHILD_INPUT[step]];
  }
  if (step === 'reserve') {
    running.push('reservation');
    started.reservation = [{}];
    view = { ...view, isReserving: true };
  }
  // Each time the server asks for a captcha, a fresh widget is shown, to be solved anew.
  if (step === 'captcha') {
    view = {
      ...view,
      captcha: { status: 'unsolved', message: null, canContinue: false, widgetKey: q.view.captcha.widgetKey + 1 },
    };
  }
  return {
    running,
    started,
    ...extra,
    view: { ...view, ...extra.view },
    sent: {
      ...(step !== q.view.step
        ? savesOf(
            step,
            (q.event.type === 'xstate.done.actor.loadCheckout' && (q.event.output as Checkout).state === step) ||
              (q.event.type === 'xstate.done.actor.loadStepCharts' &&
                q.view.isDetermining &&
                readWhenDetermining(q.earlier)?.state === step),
          )
        : {}),
      ...extra.sent,
    },
  };
}

/** Nothing changes on the screen; the calls in flight go on. */
function unchanged(q: Q, extra: Partial<Expectation<View>> = {}): Expectation<View> {
  const { notices: _n, ...view } = q.view;
  return { running: runningIn(q), ...extra, view: { ...view, ...extra.view } };
}

/** The charts a screen renders: a step's (the step table's), and the basket's. */
const SCREEN_CHARTS = new Set([...STEP_CHART_NAMES, 'basket']);

/** Whatever else is expected, the screen renders the one screen chart running, or none. */
function withStepChild(oracle: (q: Q) => Expectation<View> | undefined) {
  return (q: Q): Expectation<View> | undefined => {
    const expected = oracle(q);
    if (!expected) return expected;
    const stepChild = (expected.running ?? []).find((id) => SCREEN_CHARTS.has(id)) ?? null;
    return { ...expected, view: { ...expected.view, stepChild } };
  };
}

/** The first read failed (or the charts it needs did not load): the error, and Retry to read again. */
function determiningFailed(q: Q): Expectation<View> {
  return {
    view: {
      ...idleFlags,
      isDetermining: true,
      determiningFailed: true,
      notices: withNotice(q, 'error', TEXT.unableToGetCheckout),
    },
    running: [],
  };
}

function runningIn(q: Q): string[] {
  return runningChildren(q.before, ['countdown', 'stepSaver']);
}

function checkoutOracle(q: Q): Expectation<View> | undefined {
  const { event, view } = q;
  const output = event.output;
  const pastBasket = !['determining', 'basket'].includes(view.step) && !view.isEditingBasket;

  switch (event.type) {
    // events on every step
    case 'TAB_VISIBLE':
      return unchanged(q, { sent: { reloadCheckout: [null] } });
    case 'NOTICE_RAISED':
      return unchanged(q, { view: { notices: withNotice(q, event.kind as NoticeKind, event.text as string) } });
    case 'NOTICE_DISMISSED':
      return unchanged(q, { view: { notices: view.notices.filter((n) => n.id !== event.id) } });
    case 'STEP_SAVED':
      // Only the save of the step the buyer is on, one that holds tickets, says how long is left.
      if (event.state === view.step && HOLDING.includes(view.step)) {
        return unchanged(q, { sent: toClock(q, { type: 'SYNC', secondsRemaining: event.secondsRemaining }) });
      }
      return unchanged(q);
    case 'CHECKOUT_RELOADED': {
      // The sale ended elsewhere (another tab): the flow follows the server, with no expiry message.
      const checkout = event.checkout as Checkout;
      if (
        pastBasket &&
        HOLDING.includes(view.step) &&
        checkout.state === 'basket' &&
        checkout.sale_reference === null
      ) {
        return landOn(q, 'basket', {
          view: { expired: view.expired },
          sent: { ...savesOf('basket'), ...toClock(q, { type: 'STOP' }) },
        });
      }
      // Paid in another tab while this one shows the payment step: the step is left as if paid here.
      if (view.step === 'payment' && !view.isAdvancing && !view.isEditingBasket && checkout.payment_complete) {
        return {
          view: { step: view.step, ...idleFlags, isAdvancing: true },
          running: ['loadCheckout'],
          started: { loadCheckout: [undefined] },
        };
      }
      // A payment started in another tab, with time left: the clock says the tickets are held until it finishes, as a reload would.
      if (
        view.step === 'payment' &&
        !view.isAdvancing &&
        !view.isEditingBasket &&
        checkout.payment_in_progress &&
        !checkout.payment_complete &&
        checkout.payment_seconds_remaining > 0
      ) {
        return unchanged(q, {
          sent: toClock(q, {
            type: 'START',
            secondsRemaining: checkout.seconds_remaining,
            paymentSecondsRemaining: checkout.payment_seconds_remaining,
          }),
        });
      }
      return unchanged(q);
    }
    case 'STEP_SAVE_FAILED':
      return unchanged(q, { view: { notices: withNotice(q, 'error', TEXT.saveFailed) } });

    /* determining: the server says where the buyer was */
    case 'RETRY_CLICKED':
      // Retry is offered only where the first read failed; anywhere else it changes nothing.
      if (!view.determiningFailed) return unchanged(q);
      return {
        view: { step: 'determining', ...idleFlags, isDetermining: true },
        running: ['loadCheckout'],
        started: { loadCheckout: [undefined] },
      };
    case 'xstate.error.actor.loadCheckout':
      if (view.isDetermining) {
        return determiningFailed(q);
      }
      // A failed read after 'Continue' keeps the buyer on the step, with the error toast.
      if (view.isAdvancing) {
        const child = CHILD_OF[view.step];
        // A child chart's step starts its chart afresh.
        const again = child ? { running: [child], started: { [child]: [CHILD_INPUT[view.step]] } } : { running: [] };
        return {
          view: { step: view.step, ...idleFlags, notices: withNotice(q, 'error', TEXT.unableToGetCheckout) },
          ...again,
        };
      }
      return undefined;
    case 'xstate.done.actor.loadCheckout': {
      const checkout = output as Checkout;
      if (view.isDetermining) {
        const step = nextStep('determining', checkout);
        if (step === 'basket') return landOn(q, step);
        // Past the basket, the step charts load first; resumed at the captcha, a fresh widget waits.
        return {
          view: {
            step: 'determining',
            ...idleFlags,
            isDetermining: true,
            ...(step === 'captcha'
              ? {
                  captcha: {
                    ...view.captcha,
                    status: 'unsolved',
                    sitekey: checkout.captcha_sitekey,
                    widgetKey: view.captcha.widgetKey + 1,
                  },
                }
              : {}),
          },
          running: ['loadStepCharts'],
          started: { loadStepCharts: [undefined] },
        };
      }
      if (view.isAdvancing) {
        const step = nextStep(view.step, checkout);
        const paid = PAYING.includes(view.step) && checkout.payment_complete;
        return landOn(q, step, paid ? { sent: toClock(q, { type: 'STOP' }) } : {});
      }
      return undefined;
    }

    /* basket to reserve */
    case 'RESERVE_CLICKED':
      if (view.step !== 'basket' || view.isReserving) return undefined;
      return { view: { step: 'basket', ...idleFlags, isReserving: true }, running: ['basket'] };
    /* Reserve Basket pressed: after reserveDelay the reservation's chart is made ready, then the reserve step */
    case 'xstate.done.actor.loadStepCharts': {
      if (!runningIn(q).includes('loadStepCharts')) return undefined;
      if (!view.isDetermining) return landOn(q, 'reserve');
      // Resumed where the server says, with the step charts loaded.
      const checkout = readWhenDetermining(q.earlier)!;
      const step = nextStep('determining', checkout);
      if (step === 'reserve') return landOn(q, step);
      // The fresh widget was made when the checkout was read.
      if (step === 'captcha') return landOn(q, step, { view: { captcha: view.captcha } });
      // Resumed past the reservation: the hold goes on from the server's figure, unless paid.
      return landOn(q, step, {
        sent: {
          countdown: [
            checkout.payment_complete
              ? { type: 'STOP' }
              : {
                  type: 'START',
                  secondsRemaining: checkout.seconds_remaining,
                  // A payment in progress keeps the hold up to the grace: the countdown shows that instead.
                  paymentSecondsRemaining: checkout.payment_in_progress ? checkout.payment_seconds_remaining : 0,
                },
          ],
        },
      });
    }
    case 'xstate.error.actor.loadStepCharts':
      if (!runningIn(q).includes('loadStepCharts')) return undefined;
      // A chunk that did not load: when resuming, the read failed as a whole, and Retry reads again.
      if (view.isDetermining) {
        return determiningFailed(q);
      }
      return {
        view: { step: 'basket', ...idleFlags, notices: withNotice(q, 'error', TEXT.reserveFailed) },
        running: ['basket'],
      };
    default:
      if (event.type.startsWith('xstate.after.reserveDelay')) {
        if (view.step !== 'basket' || !view.isReserving || runningIn(q).includes('loadStepCharts')) return undefined;
        return {
          view: { step: 'basket', ...idleFlags, isReserving: true },
          running: ['basket', 'loadStepCharts'],
          started: { loadStepCharts: [undefined] },
        };
      }
      break;
  }

  if (event.type === 'xstate.done.actor.reservation' || event.type === 'xstate.error.actor.reservation') {
    if (!view.isReserving || !['reserve', 'captcha'].includes(view.step)) return undefined;
    const outcome = (output as ReservationOutcome | undefined) ?? { kind: 'failed' };
    const failedText = view.step === 'captcha' ? TEXT.reserveFailedFromButton : TEXT.reserveFailed;
    const backToBasket = (kind: NoticeKind, text: string, extra: Partial<Expectation<View>> = {}) =>
      landOn(q, 'basket', { ...extra, view: { notices: withNotice(q, kind, text) } });
    switch (outcome.kind) {
      case 'reserved':
        return landOn(q, nextStep(view.step, outcome.checkout), {
          view: { expired: false, expiredMessage: null },
          sent: { countdown: [{ type: 'START', secondsRemaining: 600 }] },
        });
      case 'captcha':
        return landOn(q, 'captcha', {
          view: {
            captcha: {
              status: 'unsolved',
              sitekey: outcome.sitekey,
              message: null,
              canContinue: false,
              widgetKey: view.captcha.widgetKey + 1,
            },
          },
        });
      case 'redirect':
        // The browser leaves; the screen stays as it is meanwhile.
        return {
          view: { step: view.step, isReserving: true },
          running: [],
          sent: { navigate: [{ url: outcome.url }] },
        };
      case 'error':
        return backToBasket('warning', outcome.message, { sent: { reloadCheckout: [null] } });
      case 'unknown':
        return backToBasket('error', TEXT.unknown);
      case 'failed':
        return backToBasket('error', failedText);
    }
  }

  /* the captcha step (once 'Edit basket' is confirmed the buyer is leaving it: the widget no longer counts) */
  if (view.step === 'captcha' && !view.isEditingBasket) {
    const sitekey = view.captcha.sitekey;
    const widget = (status: View['captcha']['status'], message: string | null) =>
      unchanged(q, {
        view: {
          captcha: { status, message, sitekey, canContinue: status === 'passed', widgetKey: view.captcha.widgetKey },
        },
      });
    if (view.isReserving) {
      // The widget is ignored until the server answers.
      if (
        ['CAPTCHA_PASSED', 'CAPTCHA_EXPIRED', 'CAPTCHA_ERRORED', 'COPY_LINK_CLICKED', 'WHY_TOGGLED'].includes(
          event.type,
        )
      )
        return unchanged(q);
    } else {
      if (event.type === 'CAPTCHA_PASSED') return widget('passed', null);
      if (event.type === 'CAPTCHA_EXPIRED') return widget('expired', TEXT.captchaExpired);
      if (event.type === 'CAPTCHA_ERRORED') return widget('errored', event.message as string);
      if (event.type === 'CAPTCHA_CONTINUE_CLICKED' && view.captcha.canContinue) {
        return {
          view: { step: 'captcha', ...idleFlags, isReserving: true, captcha: { status: 'passed', canContinue: false } },
          running: ['reservation'],
          started: { reservation: [{ captchaToken: 'token-1' }] },
        };
      }
    }
  }

  /* the reserve step: the in-app browser's buttons belong to the reservation */
  if (view.step === 'reserve' && ['COPY_LINK_CLICKED', 'WHY_TOGGLED'].includes(event.type)) return unchanged(q);

  /* the account or payment chart ends with the reservation gone (a 'holdLost' output): its text is shown on the basket */
  const lostFrom = {
    login: 'xstate.done.actor.account',
    payment: 'xstate.done.actor.payment',
    awaiting_truelayer: 'xstate.done.actor.bankTransfer',
  } as Partial<Record<Step, string>>;
  if (event.type === lostFrom[view.step] && (output as { kind: string }).kind === 'holdLost') {
    return landOn(q, 'basket', {
      view: { notices: withNotice(q, 'warning', (output as { message: string }).message) },
      sent: { ...toClock(q, { type: 'STOP' }), reloadCheckout: [null] },
    });
  }

  /* waiting for the bank, the buyer chose 'Try a different payment method': back to the payment step (spec 001 §2) */
  if (
    event.type === 'xstate.done.actor.bankTransfer' &&
    view.step === 'awaiting_truelayer' &&
    (output as { kind: string }).kind === 'changeMethod'
  ) {
    return landOn(q, 'payment');
  }

  /* a child chart finishes its step: the checkout is read afresh */
  if (event.type === `xstate.done.actor.${CHILD_OF[view.step]}` && !view.isAdvancing && !view.isEditingBasket) {
    return {
      view: { step: view.step, ...idleFlags, isAdvancing: true },
      running: ['loadCheckout'],
      started: { loadCheckout: [undefined] },
    };
  }

  /* a later step: 'Continue' reads the checkout afresh */
  if (event.type === 'STEP_COMPLETED' && ADVANCING.includes(view.step) && !view.isAdvancing && !view.isEditingBasket) {
    return {
      view: { step: view.step, ...idleFlags, isAdvancing: true },
      running: ['loadCheckout'],
      started: { loadCheckout: [undefined] },
    };
  }

  /* the hold runs out */
  if (event.type === 'COUNTDOWN_EXPIRED' && pastBasket) {
    if (NO_EXPIRY.includes(view.step)) return unchanged(q);
    return landOn(q, 'basket', {
      view: { expired: true, expiredMessage: TEXT.checkoutExpired },
      sent: { reloadCheckout: [null] },
    });
  }

  /* edit basket: the sale is destroyed, then the basket */
  if (event.type === 'EDIT_BASKET_CONFIRMED' && pastBasket) {
    // Refused once the payment is complete.
    if (paidNow(q)) return unchanged(q);
    return {
      view: { step: view.step, ...idleFlags, isEditingBasket: true, canEditBasket: false },
      running: ['destroySale'],
      started: { destroySale: [undefined] },
    };
  }
  if (event.type === 'xstate.done.actor.destroySale' && view.isEditingBasket) {
    return landOn(q, 'basket', {
      sent: { ...savesOf('basket'), reloadCheckout: [null], ...toClock(q, { type: 'STOP' }) },
    });
  }
  if (event.type === 'xstate.error.actor.destroySale' && view.isEditingBasket) {
    // Back where the buyer was, as they saw it; the step is saved again.
    const atEdit = q.earlier.findLast((e) => e.event.type === 'EDIT_BASKET_CONFIRMED')!;
    const was = atEdit.view;
    const expectation = landOn(q, was.step, {
      view: { ...was, notices: withNotice(q, 'error', TEXT.editFailed) },
      sent: savesOf(was.step),
    });
    if (was.isAdvancing) return { ...expectation, running: ['loadCheckout'], started: { loadCheckout: [undefined] } };
    if (was.step === 'reserve' || CHILD_OF[was.step]) return expectation;
    return { ...expectation, running: [], started: {} };
  }
  /* the captcha widget is on the captcha step only: elsewhere what it reports changes nothing */
  if (['CAPTCHA_PASSED', 'CAPTCHA_ERRORED', 'CAPTCHA_EXPIRED', 'CAPTCHA_CONTINUE_CLICKED'].includes(event.type))
    return unchanged(q);
  return undefined;
}

describe('checkout machine (root)', () => {
  // Over 900 paths: allowed minutes on a busy machine.
  it(
    'is walked at 100 % of its states and transitions, each step checked against the spec',
    { timeout: 300_000 },
    async () => {
      const result = await walk<View>({
        name: 'checkout',
        machine: checkoutMachine,
        fakes: (kit) => ({
          actors: {
            loadCheckout: kit.controlled(),
            destroySale: kit.controlled(),
            loadStepCharts: kit.controlled(),
            basket: kit.recorder('basket'),
            countdown: kit.recorder('countdown'),
            stepSaver: kit.recorder('stepSaver'),
            ...Object.fromEntries(STEP_CHART_NAMES.map((name) => [name, kit.controlled()])),
          },
          actions: { reloadCheckout: kit.spy('reloadCheckout'), navigate: kit.spy('navigate') },
        }),
        // While the step charts load after a read, the state is the read's: each resumes its own step.
        serializeState: (s) =>
          JSON.stringify([
            s.value,
            s.context.step,
            s.context.expired,
            s.matches({ determining: 'loadingStepCharts' }) ? s.context.checkout : null,
          ]),
        // Paths for coverage over the top-level state only (determining, basket, pastBasket, routing,
        // editingBasket): every step after the basket is one `pastBasket`, so these are not the routes
        // through the steps. Those are walked by routes.test.ts, which keeps the root's entry in
        // reports/paths.json; this walk checks every transition of the root against its oracle.
        simplePathsOver: [(s) => (typeof s.value === 'string' ? s.value : Object.keys(s.value)[0]!)],
        paths: false,
        // Once paid, 'Edit basket' is refused: resumed after payment, and paid on the payment step.
        extraPaths: [
          {
            events: [
              resume(paidCheckout),
              { type: 'xstate.done.actor.loadStepCharts', output: undefined },
              { type: 'EDIT_BASKET_CONFIRMED' },
              { type: 'xstate.done.actor.delivery', output: undefined },
            ],
          },
          {
            events: [
              resume(makeCheckout({ state: 'payment', sale_reference: 'HF-1' })),
              { type: 'xstate.done.actor.loadStepCharts', output: undefined },
              { type: 'xstate.done.actor.payment', output: { kind: 'paid' } },
              { type: 'xstate.done.actor.loadCheckout', output: paidCheckout },
              { type: 'EDIT_BASKET_CONFIRMED' },
              { type: 'COUNTDOWN_EXPIRED' },
              { type: 'RESERVE_CLICKED' },
              { type: 'xstate.after.reserveDelay.checkout.basket.waiting' },
              { type: 'xstate.done.actor.loadStepCharts', output: undefined },
              { type: 'xstate.done.actor.reservation', output: outcomes[2] },
              { type: 'EDIT_BASKET_CONFIRMED' },
            ],
          },
        ],
        events,
        askIgnored: true,
        view: screen,
        background: ['countdown', 'stepSaver'],
        initial: () => ({
          view: {
            step: 'determining',
            ...idleFlags,
            isDetermining: true,
            expired: false,
            expiredMessage: null,
            canEditBasket: false,
            stepChild: null,
            notices: [],
            captcha: { status: 'unsolved', message: null, sitekey: null, canContinue: false, widgetKey: 0 },
          },
          running: ['loadCheckout'],
          started: { loadCheckout: [undefined] },
        }),
        oracle: withStepChild(checkoutOracle),
      });
      expect(result.states.missing).toEqual([]);
      expect(result.transitions.missing).toEqual([]);
    },
  );
});
