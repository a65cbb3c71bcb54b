/**
 * The named implementations of the root checkout machine: its context, the actions and guards
 * the chart refers to by name, and the actors the app replaces with `.provide()`.
 */
import { assign, fromPromise, sendTo, setup, spawnChild, type DoneActorEvent } from 'xstate';
import { basketMachine } from '../basket/basket.machine';
import { countdownMachine } from '../countdown/countdown.machine';
import { reservationMachine } from '../reservation/reservation.machine';
import { stepSaverMachine } from '../stepSaver/stepSaver.machine';
import type { Checkout, CheckoutEvent, Notice, NoticeKind, ReservationOutcome, Step } from './checkout.types';
import { nextStep } from './nextStep';

export interface CheckoutContext {
  /** The step the buyer is on (kept while the basket is being edited, for the screens). */
  step: Step;
  notices: Notice[];
  nextNoticeId: number;
  /** Back at the basket because the hold ran out. */
  expired: boolean;
  captchaSitekey: string | null;
  captchaToken: string | null;
  /** The captcha widget's own error message, shown as given. */
  captchaMessage: string | null;
  /** The server's latest seconds_remaining for the hold. */
  secondsRemaining: number | null;
  saleReference: string | null;
}

export const initialCheckoutContext: CheckoutContext = {
  step: 'determining',
  notices: [],
  nextNoticeId: 1,
  expired: false,
  captchaSitekey: null,
  captchaToken: null,
  captchaMessage: null,
  secondsRemaining: null,
  saleReference: null,
};

/** The output of the actor whose completion is being handled (`onDone`). */
export function outputOf<T>(event: unknown): T {
  return (event as DoneActorEvent<T>).output;
}

export type Reserved = Extract<ReservationOutcome, { type: 'reserved' }>;

function pushNotice(context: CheckoutContext, kind: NoticeKind, text: string) {
  return {
    notices: [...context.notices, { id: context.nextNoticeId, kind, text }],
    nextNoticeId: context.nextNoticeId + 1,
  };
}

export const checkoutSetup = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    children: {} as {
      countdown: 'countdown';
      stepSaver: 'stepSaver';
      basket: 'basket';
      reservation: 'reservation';
      loadCheckout: 'loadCheckout';
      destroySale: 'destroySale';
    },
  },
  actors: {
    /** GET checkout, read afresh. */
    loadCheckout: fromPromise<Checkout, void>(() => Promise.reject(new Error('loadCheckout is provided by the app'))),
    destroySale: fromPromise<unknown, void>(() => Promise.reject(new Error('destroySale is provided by the app'))),
    basket: basketMachine,
    reservation: reservationMachine,
    countdown: countdownMachine,
    stepSaver: stepSaverMachine,
  },
  actions: {
    spawnCountdown: spawnChild('countdown', { id: 'countdown', systemId: 'countdown' }),
    spawnStepSaver: spawnChild('stepSaver', { id: 'stepSaver', systemId: 'stepSaver' }),
    rememberStep: assign((_, params: { step: Step }) => ({ step: params.step })),
    /** Every change of step is saved to the server straight away. */
    saveStep: sendTo('stepSaver', (_, params: { step: Step }) => ({ type: 'SAVE' as const, state: params.step })),
    notify: assign(({ context }, params: { kind: NoticeKind; text: string }) =>
      pushNotice(context, params.kind, params.text),
    ),
    keepChildNotice: assign(({ context, event }) =>
      event.type === 'NOTICE_RAISED' ? pushNotice(context, event.kind, event.text) : {},
    ),
    warnRefusal: assign(({ context, event }) => {
      const outcome = outputOf<ReservationOutcome>(event);
      return outcome.type === 'error' ? pushNotice(context, 'warning', outcome.message) : {};
    }),
    dismissNotice: assign({
      notices: ({ context, event }) =>
        event.type === 'NOTICE_DISMISSED' ? context.notices.filter((n) => n.id !== event.id) : context.notices,
    }),
    /** Invalidates the cached checkout so every screen re-reads it. Provided by the app. */
    reloadCheckout: () => {},
    /** Browser navigation for a reservation redirect. Provided by the app. */
    navigate: (_, _params: { url: string }) => {},
    markExpired: assign({ expired: true }),
    /** Reserved: the hold starts now, with the server's checkout_time. */
    acceptReservation: assign(({ event }) => {
      const outcome = outputOf<Reserved>(event);
      return {
        expired: false,
        saleReference: outcome.saleReference,
        secondsRemaining: outcome.checkoutTime,
        captchaToken: null,
      };
    }),
    startCountdownForReservation: sendTo('countdown', ({ event }) => ({
      type: 'START' as const,
      secondsRemaining: outputOf<Reserved>(event).checkoutTime,
    })),
    /** Resuming a step past the reservation: the hold continues from the server's figure. */
    keepHoldFromCheckout: assign(({ event }) => {
      const checkout = outputOf<Checkout>(event);
      return { secondsRemaining: checkout.seconds_remaining, saleReference: checkout.sale_reference };
    }),
    /** The hold continues from the server's figure, unless payment is already complete. */
    resumeCountdown: sendTo('countdown', ({ event }) => {
      const checkout = outputOf<Checkout>(event);
      return checkout.payment_complete
        ? ({ type: 'STOP' } as const)
        : ({ type: 'START', secondsRemaining: checkout.seconds_remaining } as const);
    }),
    stopCountdown: sendTo('countdown', { type: 'STOP' }),
    keepSecondsRemaining: assign({
      secondsRemaining: ({ context, event }) => (event.type === 'STEP_SAVED' ? event.secondsRemaining : context.secondsRemaining),
    }),
    syncCountdown: sendTo('countdown', ({ context, event }) => ({
      type: 'SYNC' as const,
      secondsRemaining: event.type === 'STEP_SAVED' ? event.secondsRemaining : (context.secondsRemaining ?? 0),
    })),
    keepSitekeyFromCheckout: assign({ captchaSitekey: ({ event }) => outputOf<Checkout>(event).captcha_sitekey }),
    keepSitekeyFromReservation: assign(({ event }) => {
      const outcome = outputOf<ReservationOutcome>(event);
      return { captchaSitekey: outcome.type === 'captcha' ? outcome.sitekey : null, captchaToken: null };
    }),
    keepCaptchaToken: assign(({ event }) => ({
      captchaToken: event.type === 'CAPTCHA_PASSED' ? event.token : null,
      captchaMessage: null,
    })),
    forgetCaptchaToken: assign({ captchaToken: null, captchaMessage: null }),
    keepCaptchaError: assign(({ event }) => ({
      captchaToken: null,
      captchaMessage: event.type === 'CAPTCHA_ERRORED' ? event.message : null,
    })),
    /** The in-app browser screen's buttons belong to the reservation child. */
    forwardToReservation: sendTo('reservation', ({ event }) => event),
  },
  guards: {
    /** Where the server says the buyer was (determining). */
    checkoutStateIs: ({ event }, params: { step: Step }) => outputOf<Checkout>(event).state === params.step,
    /** The next-step rules, evaluated on the checkout just fetched. */
    isNextStep: ({ event }, params: { from: Step; to: Step }) =>
      nextStep(params.from, outputOf<Checkout>(event)) === params.to,
    reservedThenNext: ({ event }, params: { from: Step; to: Step }) => {
      const outcome = outputOf<ReservationOutcome>(event);
      return outcome.type === 'reserved' && nextStep(params.from, outcome.checkout) === params.to;
    },
    /** Leaving payment with the payment complete: the hold no longer runs out. */
    paidAndNextStepIs: ({ event }, params: { from: Step; to: Step }) => {
      const checkout = outputOf<Checkout>(event);
      return checkout.payment_complete && nextStep(params.from, checkout) === params.to;
    },
    outcomeIs: ({ event }, params: { outcome: ReservationOutcome['type'] }) =>
      outputOf<ReservationOutcome>(event).type === params.outcome,
  },
  delays: {
    reserveDelay: 300,
  },
});
