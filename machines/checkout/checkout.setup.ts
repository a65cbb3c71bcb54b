/**
 * The named implementations of the root checkout machine: its context, the actions and guards
 * the chart refers to by name, and the actors the app replaces with `.provide()`. The step charts'
 * stand-ins come from the contract's `STEP_CHARTS`, so a new step adds nothing here; the children
 * map is inferred from the chart's invokes. Guards and actions read a child's output through
 * `outputOf`, typed with that child's outcome.
 */
import { assertEvent, assign, enqueueActions, sendTo, setup, spawnChild } from 'xstate';
import type { Checkout } from '../../contract/checkout';
import type { Notice, NoticeKind } from '../../contract/notice';
import { STEP_CHARTS, stepsWhere, type Step } from '../../contract/steps';
import { basketMachine } from '../basket/basket.machine';
import type { countdownMachine } from '../countdown/countdown.machine';
import { stepSaverMachine } from '../stepSaver/stepSaver.machine';
import type { AccountOutcome } from '../account/account.types';
import type { PaymentOutcome } from '../payment/payment.types';
import type { BankTransferOutcome } from '../bankTransfer/bankTransfer.machine';
import type { ReservationOutcome } from '../reservation/reservation.types';
import type { CheckoutEvent } from './checkout.types';
import { nextStep } from './nextStep';
import { providedByApp } from '../providedByApp';

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

export type Reserved = Extract<ReservationOutcome, { type: 'reserved' }>;

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

/** The output of the call whose done event this is (the chart reads it only in that call's `onDone`). */
function outputOf<T>(event: unknown): T {
  return (event as { output: T }).output;
}

/** The event is the checkout read (`loadCheckout`) answering that the buyer is on `step`. */
function justRead(event: { type: string }, step: Step): boolean {
  return event.type === 'xstate.done.actor.loadCheckout' && outputOf<Checkout>(event).state === step;
}

export const checkoutSetup = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    tags: {} as 'determining' | 'reserving' | 'advancing' | 'editingBasket' | 'basketEditable',
  },
  actors: {
    /** GET checkout, read afresh. */
    loadCheckout: providedByApp.call<Checkout, void>('loadCheckout'),
    destroySale: providedByApp.call<unknown, void>('destroySale'),
    /** Makes the reservation's chart ready before the reserve step invokes it (the app loads its chunk). */
    prepareReservation: providedByApp.call<void, void>('prepareReservation'),
    basket: basketMachine,
    /** The hold's clock: the app provides it from the later steps' chunk, loaded before any hold starts. */
    countdown: providedByApp.chart<typeof countdownMachine>('countdown'),
    stepSaver: stepSaverMachine,
    /** Every step's chart, by the name the root invokes it by: the app provides each from its step's chunk. */
    ...providedByApp.charts(STEP_CHARTS),
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
     * here names (the server has just said the buyer is on it) goes as known to the server.
     */
    saveStep: sendTo('stepSaver', ({ event }, params: { step: Step }) => ({ type: 'SAVE' as const, state: params.step, known: justRead(event, params.step) })),
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
    keepCheckout: assign(({ event }) => ({ checkout: outputOf<Checkout>(event) })),
    /** The checkout the reservation returned, kept for `routing`. */
    keepReservedCheckout: assign(({ event }) => {
      const outcome = outputOf<ReservationOutcome>(event);
      return { checkout: outcome.type === 'reserved' ? outcome.checkout : null };
    }),
    /** The hold starts with the reservation's checkout time. */
    startReservedCountdown: sendTo('countdown', ({ event }) => {
      const outcome = outputOf<ReservationOutcome>(event);
      return { type: 'START' as const, secondsRemaining: outcome.type === 'reserved' ? outcome.checkoutTime : 0 };
    }),
    /** The server asked for a captcha: its sitekey. */
    keepReservationSitekey: assign(({ event }) => {
      const outcome = outputOf<ReservationOutcome>(event);
      return { captchaSitekey: outcome.type === 'captcha' ? outcome.sitekey : null, captchaToken: null };
    }),
    /** Resumed at the captcha step: the checkout's sitekey. */
    keepCheckoutSitekey: assign(({ event }) => ({ captchaSitekey: outputOf<Checkout>(event).captcha_sitekey, captchaToken: null })),
    /** The server's reason (a reservation refused, or a child that found the hold gone), as a warning. */
    notifyServerReason: assign(({ context, event }) => {
      const outcome = outputOf<{ type: string; message?: string }>(event);
      return pushNotice(context, 'warning', outcome.message ?? '');
    }),
    /** Reserved: a new sale, whose hold starts now with the server's checkout_time. */
    acceptReservation: assign({ expired: false, paymentComplete: false, captchaToken: null }),
    /** Resuming a step past the reservation: the hold goes on from the server's figure, unless paid. */
    resumeHold: assign(({ event }) => ({ paymentComplete: outputOf<Checkout>(event).payment_complete })),
    resumeCountdown: sendTo('countdown', ({ event }) => {
      const checkout = outputOf<Checkout>(event);
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
    nextStepIs: ({ context }, params: { step: Step }) => context.checkout !== null && nextStep(context.step, context.checkout) === params.step,
    /** Where the server says the buyer was, when determining. */
    resumesAt: ({ event }, params: { steps: readonly Step[] }) => params.steps.includes(nextStep('determining', outputOf<Checkout>(event))),
    /** Leaving a payment step with the payment complete: the hold no longer runs out. */
    paymentComplete: ({ event }) => outputOf<Checkout>(event).payment_complete,
    /** What the reservation child decided. */
    reservationIs: ({ event }, params: { outcome: ReservationOutcome['type'] }) => outputOf<ReservationOutcome>(event).type === params.outcome,
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
    holdLost: ({ event }) => outputOf<AccountOutcome | PaymentOutcome | BankTransferOutcome>(event).type === 'holdLost',
    /** The bank transfer ended with 'Try a different payment method'. */
    changesMethod: ({ event }) => outputOf<BankTransferOutcome>(event).type === 'changeMethod',
    /** A fresh read shows the sale paid (in another tab, or by a late payment). */
    paidElsewhere: ({ event }) => {
      assertEvent(event, 'CHECKOUT_RELOADED');
      return event.checkout.payment_complete;
    },
    /** A fresh read shows a payment started (in another tab) and not yet finished. */
    payingElsewhere: ({ event }) => {
      assertEvent(event, 'CHECKOUT_RELOADED');
      return event.checkout.payment_in_progress && !event.checkout.payment_complete && event.checkout.payment_seconds_remaining > 0;
    },
    saleEndedElsewhere: ({ context, event }) => {
      assertEvent(event, 'CHECKOUT_RELOADED');
      return (
        HOLDING_STEPS.includes(context.step) && event.checkout.state === 'basket' && event.checkout.sale_reference === null
      );
    },
  },
  delays: {
    reserveDelay: 300,
  },
});
