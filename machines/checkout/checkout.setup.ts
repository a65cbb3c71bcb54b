/**
 * The named implementations of the root checkout machine: its context, the actions and guards
 * the chart refers to by name, and the actors the app replaces with `.provide()`. The step charts'
 * stand-ins come from the contract's `STEP_CHARTS`, each typed as the real chart by a type-only
 * import or from the chart's own file (`StepChartsByName`), so the root's chunk carries none of
 * them while each invoke's `onDone` and the done events the guards and actions read
 * (`CheckoutDoneEvent`) carry the chart's own output.
 */
import {
  assertEvent,
  assign,
  enqueueActions,
  sendTo,
  setup,
  spawnChild,
  type DoneActorEvent,
  type OutputFrom,
} from 'xstate';
import type { Checkout } from '../../contract/checkout';
import type { Notice, NoticeKind } from '../../contract/notice';
import { STEP_CHARTS, stepsWhere, type Step, type StepChartName } from '../../contract/steps';
import { basketMachine } from '../basket/basket.machine';
import type { countdownMachine } from '../countdown/countdown.machine';
import { stepSaverMachine } from '../stepSaver/stepSaver.machine';
import type { accountMachine } from '../account/account.machine';
import type { addressMachine } from '../address/address.machine';
import type { bankTransferMachine } from '../bankTransfer/bankTransfer.machine';
import type { deliveryMachine } from '../delivery/delivery.machine';
import type { donationMachine } from '../donation/donation.machine';
import type { giftAidMachine } from '../donation/giftAid.machine';
import type { marketingMachine } from '../marketing/marketing.machine';
import type { orderCompletedMachine } from '../orderCompleted/orderCompleted.machine';
import type { paymentMachine } from '../payment/payment.machine';
import type { questionsMachine } from '../questions/questions.machine';
import type { reservationMachine } from '../reservation/reservation.machine';
import type { waiverMachine } from '../waiver/waiver.machine';
import type { ReservationOutcome } from '../reservation/reservation.types';
import type { CheckoutEvent } from './checkout.types';
import { nextStep } from './nextStep';
import { providedByApp } from '../providedByApp';

/**
 * Each step chart's type, by the name the root invokes it by. A new step's chart adds its own from
 * its chart's file, by declaration merging, so this file needs no edit:
 *
 * ```ts
 * declare module '../checkout/checkout.setup.ts' {
 *   interface StepChartsByName {
 *     myChart: typeof myChartMachine;
 *   }
 * }
 * ```
 */
export interface StepChartsByName {
  reservation: typeof reservationMachine;
  donation: typeof donationMachine;
  giftAid: typeof giftAidMachine;
  account: typeof accountMachine;
  marketing: typeof marketingMachine;
  address: typeof addressMachine;
  questions: typeof questionsMachine;
  payment: typeof paymentMachine;
  bankTransfer: typeof bankTransferMachine;
  delivery: typeof deliveryMachine;
  waiver: typeof waiverMachine;
  orderCompleted: typeof orderCompletedMachine;
}

/**
 * The step charts the root invokes, one per name in the step table's `chart` column: a name the
 * table adds without its type in `StepChartsByName` (here or from its chart's file) fails the type
 * check here.
 */
export type StepChartLogic = { [Name in StepChartName]: StepChartsByName[Name] };

/** The call that reads the checkout afresh (GET checkout). */
const loadCheckout = providedByApp.call<Checkout, void>('loadCheckout');

/** The done event of a call or a step chart the root invokes under the same id as its name. */
type DoneOf<Id extends string, Logic> = DoneActorEvent<OutputFrom<Logic>, Id>;

/**
 * The done events the named guards and actions read, typed by what each child really outputs (the
 * chart's `onDone` is typed the same way by XState itself).
 */
export type CheckoutDoneEvent =
  | DoneOf<'loadCheckout', typeof loadCheckout>
  | { [Name in StepChartName]: DoneOf<Name, StepChartLogic[Name]> }[StepChartName];

export interface CheckoutContext {
  /** The step the buyer is on (kept while the basket is being edited, for the screens). */
  step: Step;
  notices: Notice[];
  nextNoticeId: number;
  /** Back at the basket because the hold ran out. */
  expired: boolean;
  /** Paid: the hold no longer runs out and the basket can no longer be edited. */
  paymentComplete: boolean;
  captchaSitekey: string | null;
  captchaToken: string | null;
  /** The captcha widget's own error message, shown as given. */
  captchaMessage: string | null;
  /** Counts fresh captcha widgets: a new one is shown whenever the server asks for a captcha. */
  captchaWidget: number;
  /** The checkout last read (or the reservation's), from which `routing` picks the next step. */
  checkout: Checkout | null;
  /** The hold's clock (the `countdown` child) has started: it starts with the first hold, and stays. */
  clockStarted: boolean;
}

export const initialCheckoutContext: CheckoutContext = {
  step: 'determining',
  notices: [],
  nextNoticeId: 1,
  expired: false,
  paymentComplete: false,
  captchaSitekey: null,
  captchaToken: null,
  captchaMessage: null,
  captchaWidget: 0,
  checkout: null,
  clockStarted: false,
};

/** Steps that hold tickets (the step table's `holdsTickets`): only a step save from one of them carries the hold's time. */
export const HOLDING_STEPS: readonly Step[] = stepsWhere('holdsTickets');

/** A notice joins the list once: the same failure again (a second step save refused) is already on screen. */
function pushNotice(context: CheckoutContext, kind: NoticeKind, text: string) {
  if (context.notices.some((n) => n.kind === kind && n.text === text)) return {};
  return {
    notices: [...context.notices, { id: context.nextNoticeId, kind, text }],
    nextNoticeId: context.nextNoticeId + 1,
  };
}

const CHECKOUT_READ = 'xstate.done.actor.loadCheckout';

/** The checkout a read (`loadCheckout`) answered, from its done event. */
function checkoutRead(event: CheckoutEvent | CheckoutDoneEvent): Checkout {
  assertEvent(event, CHECKOUT_READ);
  return event.output;
}

/** What the reservation's chart decided, from its done event. */
function reservationOutcome(event: CheckoutEvent | CheckoutDoneEvent): ReservationOutcome {
  assertEvent(event, 'xstate.done.actor.reservation');
  return event.output;
}

/** The step charts that end with `holdLost` when the server no longer holds the tickets. */
const HOLD_LOSERS = [
  'xstate.done.actor.account',
  'xstate.done.actor.payment',
  'xstate.done.actor.bankTransfer',
] as const;

/** The event is the checkout read (`loadCheckout`) answering that the buyer is on `step`. */
function justRead(event: CheckoutEvent | CheckoutDoneEvent, step: Step): boolean {
  return event.type === CHECKOUT_READ && event.output.state === step;
}

/** The root's children, each by the id it is invoked or spawned under: always its actor's own name. */
type CheckoutChildren = {
  [Id in 'loadCheckout' | 'destroySale' | 'loadStepCharts' | 'basket' | 'countdown' | 'stepSaver' | StepChartName]: Id;
};

export const checkoutSetup = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent | CheckoutDoneEvent,
    children: {} as CheckoutChildren,
    tags: {} as 'determining' | 'reserving' | 'advancing' | 'editingBasket' | 'basketEditable',
  },
  actors: {
    /** GET checkout, read afresh. */
    loadCheckout,
    destroySale: providedByApp.call<unknown, void>('destroySale'),
    /**
     * Makes the charts of the steps past the basket, and the hold's clock, ready before the flow
     * routes to one of them: the app loads their chunks (at once if it has already).
     */
    loadStepCharts: providedByApp.call<void, void>('loadStepCharts'),
    basket: basketMachine,
    /** The hold's clock: the app provides it from the later steps' chunk, loaded before any hold starts. */
    countdown: providedByApp.chart<typeof countdownMachine>('countdown'),
    stepSaver: stepSaverMachine,
    /** Every step's chart, by the name the root invokes it by: the app provides each from its step's chunk. */
    ...providedByApp.charts<StepChartLogic>(STEP_CHARTS),
  },
  actions: {
    spawnStepSaver: spawnChild('stepSaver', { id: 'stepSaver', systemId: 'stepSaver' }),
    /**
     * The hold's clock (the `countdown` child) starts with the first hold, a reservation made or a
     * sale resumed past it, as its chart comes with the later steps; it then lives as long as the checkout.
     */
    startClock: enqueueActions(({ context, enqueue }) => {
      if (context.clockStarted) return;
      enqueue.spawnChild('countdown', { id: 'countdown' });
      enqueue.assign({ clockStarted: true });
    }),
    rememberStep: assign((_, params: { step: Step }) => ({ step: params.step })),
    /**
     * Every change of step is saved to the server straight away. A step the checkout read that led
     * here names (the server has just said the buyer is on it) goes as known to the server: a read
     * just done, or the first read when resuming, once the step charts have loaded. Sent before the
     * step is remembered (`enterStep`), so `context.step` is the step being left.
     */
    saveStep: sendTo('stepSaver', ({ context, event }, params: { step: Step }) => ({
      type: 'SAVE' as const,
      state: params.step,
      known:
        justRead(event, params.step) || (context.step === 'determining' && context.checkout?.state === params.step),
    })),
    notify: assign(({ context }, params: { kind: NoticeKind; text: string }) =>
      pushNotice(context, params.kind, params.text),
    ),
    keepChildNotice: assign(({ context, event }) => {
      assertEvent(event, 'NOTICE_RAISED');
      return pushNotice(context, event.kind, event.text);
    }),
    dismissNotice: assign(({ context, event }) => {
      assertEvent(event, 'NOTICE_DISMISSED');
      return { notices: context.notices.filter((n) => n.id !== event.id) };
    }),
    /** Invalidates the cached checkout so every screen re-reads it. Provided by the app. */
    reloadCheckout: providedByApp.action(),
    /** Browser navigation for a reservation redirect. Provided by the app. */
    navigate: (_, _params: { url: string }) => {},
    markExpired: assign({ expired: true }),
    /** The checkout just read, kept for `routing`. */
    keepCheckout: assign(({ event }) => {
      assertEvent(event, CHECKOUT_READ);
      return { checkout: event.output };
    }),
    /** The checkout the reservation returned, kept for `routing`. */
    keepReservedCheckout: assign(({ event }) => {
      const outcome = reservationOutcome(event);
      return { checkout: outcome.kind === 'reserved' ? outcome.checkout : null };
    }),
    /** The hold starts with the reservation's checkout time. */
    startReservedCountdown: sendTo('countdown', ({ event }) => {
      const outcome = reservationOutcome(event);
      return { type: 'START' as const, secondsRemaining: outcome.kind === 'reserved' ? outcome.checkoutTime : 0 };
    }),
    /** The server asked for a captcha: its sitekey. */
    keepReservationSitekey: assign(({ event }) => {
      const outcome = reservationOutcome(event);
      return { captchaSitekey: outcome.kind === 'captcha' ? outcome.sitekey : null, captchaToken: null };
    }),
    /** Resumed at the captcha step: the checkout's sitekey. */
    keepCheckoutSitekey: assign(({ event }) => ({
      captchaSitekey: checkoutRead(event).captcha_sitekey,
      captchaToken: null,
    })),
    /** The server's reason (a reservation refused, or a child that found the hold gone), as a warning. */
    notifyServerReason: assign(({ context, event }) => {
      assertEvent(event, [...HOLD_LOSERS, 'xstate.done.actor.reservation']);
      return pushNotice(context, 'warning', 'message' in event.output ? event.output.message : '');
    }),
    /** Reserved: a new sale, whose hold starts now with the server's checkout_time. */
    acceptReservation: assign({ expired: false, paymentComplete: false, captchaToken: null }),
    /** Resuming a step past the reservation: the hold goes on from the server's figure, unless paid. */
    resumeHold: assign(({ event }) => ({ paymentComplete: checkoutRead(event).payment_complete })),
    /** The resumed hold's clock, from the checkout read when determining (kept by `keepCheckout`). */
    resumeCountdown: sendTo('countdown', ({ context }) => {
      const checkout = context.checkout!;
      return checkout.payment_complete
        ? ({ type: 'STOP' } as const)
        : ({
            type: 'START',
            secondsRemaining: checkout.seconds_remaining,
            paymentSecondsRemaining: checkout.payment_in_progress ? checkout.payment_seconds_remaining : 0,
          } as const);
    }),
    /** A fresh read shows a payment under way (another tab): the clock holds the tickets for it, as on a reload. */
    holdForPayment: sendTo('countdown', ({ event }) => {
      assertEvent(event, 'CHECKOUT_RELOADED');
      return {
        type: 'START' as const,
        secondsRemaining: event.checkout.seconds_remaining,
        paymentSecondsRemaining: event.checkout.payment_seconds_remaining,
      };
    }),
    markPaid: assign({ paymentComplete: true }),
    /** The hold's clock stops (paid, or the hold gone); before the first hold there is no clock to stop. */
    stopCountdown: enqueueActions(({ context, enqueue }) => {
      if (context.clockStarted) enqueue.sendTo('countdown', { type: 'STOP' });
    }),
    /** A save of a step that holds tickets (the `replyHoldsTickets` guard) comes after the first hold: the clock is there. */
    syncCountdown: sendTo('countdown', ({ event }) => {
      assertEvent(event, 'STEP_SAVED');
      return { type: 'SYNC' as const, secondsRemaining: event.secondsRemaining };
    }),
    /** The server asked for a captcha (again): a fresh widget, to be solved anew. */
    freshCaptchaWidget: assign(({ context }) => ({ captchaWidget: context.captchaWidget + 1, captchaToken: null })),
    keepCaptchaToken: assign(({ event }) => {
      assertEvent(event, 'CAPTCHA_PASSED');
      return { captchaToken: event.token, captchaMessage: null };
    }),
    forgetCaptchaToken: assign({ captchaToken: null, captchaMessage: null }),
    keepCaptchaError: assign(({ event }) => {
      assertEvent(event, 'CAPTCHA_ERRORED');
      return { captchaToken: null, captchaMessage: event.message };
    }),
    /** The in-app browser screen's buttons belong to the reservation child. */
    forwardToReservation: sendTo('reservation', ({ event }) => {
      assertEvent(event, ['COPY_LINK_CLICKED', 'WHY_TOGGLED']);
      return event;
    }),
  },
  guards: {
    /** The next-step rules (`nextStep`), from the step being left, on the checkout just read. */
    nextStepIs: ({ context }, params: { step: Step }) =>
      context.checkout !== null && nextStep(context.step, context.checkout) === params.step,
    /** Where the server says the buyer was, when determining. */
    resumesAt: ({ event }, params: { steps: readonly Step[] }) =>
      params.steps.includes(nextStep('determining', checkoutRead(event))),
    /** Resumed past the reservation (the checkout read when determining): a hold to go on with. */
    resumesHold: ({ context }) =>
      context.checkout !== null && HOLDING_STEPS.includes(nextStep('determining', context.checkout)),
    /** Leaving a payment step with the payment complete: the hold no longer runs out. */
    paymentComplete: ({ event }) => checkoutRead(event).payment_complete,
    /** What the reservation child decided. */
    reservationIs: ({ event }, params: { outcome: ReservationOutcome['kind'] }) =>
      reservationOutcome(event).kind === params.outcome,
    /** Only a save of the step the buyer is on, and one that holds tickets, says how long the hold has left. */
    replyHoldsTickets: ({ context, event }) => {
      assertEvent(event, 'STEP_SAVED');
      return event.state === context.step && HOLDING_STEPS.includes(event.state);
    },
    notPaid: ({ context }) => !context.paymentComplete,
    /**
     * A fresh read shows the server back at the basket with no sale, while the buyer holds tickets:
     * the sale was ended elsewhere (another tab). Before the hold exists (reserve, captcha) the
     * server is at the basket anyway.
     */
    /** A child chart ended because the server no longer holds the tickets (a `holdLost` output). */
    holdLost: ({ event }) => {
      assertEvent(event, HOLD_LOSERS);
      return event.output.kind === 'holdLost';
    },
    /** The bank transfer ended with 'Try a different payment method'. */
    changesMethod: ({ event }) => {
      assertEvent(event, 'xstate.done.actor.bankTransfer');
      return event.output.kind === 'changeMethod';
    },
    /** A fresh read shows the sale paid (in another tab, or by a late payment). */
    paidElsewhere: ({ event }) => {
      assertEvent(event, 'CHECKOUT_RELOADED');
      return event.checkout.payment_complete;
    },
    /** A fresh read shows a payment started (in another tab) and not yet finished. */
    payingElsewhere: ({ event }) => {
      assertEvent(event, 'CHECKOUT_RELOADED');
      return (
        event.checkout.payment_in_progress &&
        !event.checkout.payment_complete &&
        event.checkout.payment_seconds_remaining > 0
      );
    },
    saleEndedElsewhere: ({ context, event }) => {
      assertEvent(event, 'CHECKOUT_RELOADED');
      return (
        HOLDING_STEPS.includes(context.step) &&
        event.checkout.state === 'basket' &&
        event.checkout.sale_reference === null
      );
    },
  },
  delays: {
    reserveDelay: 300,
  },
});
