/**
 * The named implementations of the root checkout machine: its context, the actions and guards
 * the chart refers to by name, and the actors the app replaces with `.provide()`. Actions and
 * guards that use an actor's output take it as typed `params`, given by the chart's `onDone`
 * where the output's type is known.
 */
import { assertEvent, assign, fromPromise, sendTo, setup, spawnChild, type AnyActorLogic } from 'xstate';
import { basketMachine } from '../basket/basket.machine';
import { countdownMachine } from '../countdown/countdown.machine';
import type { reservationMachine } from '../reservation/reservation.machine';
import { stepSaverMachine } from '../stepSaver/stepSaver.machine';
import type { donationMachine } from '../donation/donation.machine';
import type { giftAidMachine } from '../donation/giftAid.machine';
import type { accountMachine } from '../account/account.machine';
import type { AccountOutcome } from '../account/account.types';
import type { PaymentOutcome } from '../payment/payment.types';
import type { marketingMachine } from '../marketing/marketing.machine';
import type { deliveryMachine } from '../delivery/delivery.machine';
import type { paymentMachine } from '../payment/payment.machine';
import type { addressMachine } from '../address/address.machine';
import type { questionsMachine } from '../questions/questions.machine';
import type { bankTransferMachine, BankTransferOutcome } from '../bankTransfer/bankTransfer.machine';
import type { Checkout, CheckoutEvent, Notice, NoticeKind, ReservationOutcome, Step } from './checkout.types';
import { nextStep } from './nextStep';
import { STEPS } from '../../contract/steps';

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
};

export type Reserved = Extract<ReservationOutcome, { type: 'reserved' }>;

/** Steps that hold tickets (every step after reserve): only a step save from one of them carries the hold's time. */
export const HOLDING_STEPS: readonly Step[] = STEPS.slice(STEPS.indexOf('reserve') + 1);

/** A notice joins the list once: the same failure again (a second step save refused) is already on screen. */
function pushNotice(context: CheckoutContext, kind: NoticeKind, text: string) {
  if (context.notices.some((n) => n.kind === kind && n.text === text)) return {};
  return {
    notices: [...context.notices, { id: context.nextNoticeId, kind, text }],
    nextNoticeId: context.nextNoticeId + 1,
  };
}

/**
 * A step's child chart, named here by its type only: the app provides the chart itself (with its
 * calls) from the step's own chunk, so the entry script carries none of the step charts. Tests
 * provide fakes; an unprovided child fails loudly when its step is entered.
 */
function stepChild<Logic extends AnyActorLogic>(name: string): Logic {
  return fromPromise(() => Promise.reject(new Error(`The ${name} chart is provided by the app`))) as unknown as Logic;
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
      prepareReservation: 'prepareReservation';
      donation: 'donation';
      giftAid: 'giftAid';
      account: 'account';
      marketing: 'marketing';
      delivery: 'delivery';
      payment: 'payment';
      address: 'address';
      questions: 'questions';
    },
    tags: {} as 'determining' | 'reserving' | 'advancing' | 'editingBasket',
  },
  actors: {
    /** GET checkout, read afresh. */
    loadCheckout: fromPromise<Checkout, void>(() => Promise.reject(new Error('loadCheckout is provided by the app'))),
    destroySale: fromPromise<unknown, void>(() => Promise.reject(new Error('destroySale is provided by the app'))),
    /** Makes the reservation's chart ready before the reserve step invokes it (the app loads its chunk). */
    prepareReservation: fromPromise<void, void>(() => Promise.reject(new Error('prepareReservation is provided by the app'))),
    basket: basketMachine,
    reservation: stepChild<typeof reservationMachine>('reservation'),
    countdown: countdownMachine,
    stepSaver: stepSaverMachine,
    donation: stepChild<typeof donationMachine>('donation'),
    giftAid: stepChild<typeof giftAidMachine>('giftAid'),
    account: stepChild<typeof accountMachine>('account'),
    marketing: stepChild<typeof marketingMachine>('marketing'),
    delivery: stepChild<typeof deliveryMachine>('delivery'),
    payment: stepChild<typeof paymentMachine>('payment'),
    address: stepChild<typeof addressMachine>('address'),
    questions: stepChild<typeof questionsMachine>('questions'),
    bankTransfer: stepChild<typeof bankTransferMachine>('bankTransfer'),
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
    keepChildNotice: assign(({ context, event }) => {
      assertEvent(event, 'NOTICE_RAISED');
      return pushNotice(context, event.kind, event.text);
    }),
    dismissNotice: assign(({ context, event }) => {
      assertEvent(event, 'NOTICE_DISMISSED');
      return { notices: context.notices.filter((n) => n.id !== event.id) };
    }),
    /** Invalidates the cached checkout so every screen re-reads it. Provided by the app. */
    reloadCheckout: () => {},
    /** Browser navigation for a reservation redirect. Provided by the app. */
    navigate: (_, _params: { url: string }) => {},
    markExpired: assign({ expired: true }),
    /** Reserved: a new sale, whose hold starts now with the server's checkout_time. */
    acceptReservation: assign({ expired: false, paymentComplete: false, captchaToken: null }),
    startCountdown: sendTo('countdown', (_, params: { secondsRemaining: number }) => ({
      type: 'START' as const,
      secondsRemaining: params.secondsRemaining,
    })),
    /** Resuming a step past the reservation: the hold goes on from the server's figure, unless paid. */
    resumeHold: assign((_, params: { checkout: Checkout }) => ({ paymentComplete: params.checkout.payment_complete })),
    resumeCountdown: sendTo('countdown', (_, params: { checkout: Checkout }) =>
      params.checkout.payment_complete
        ? ({ type: 'STOP' } as const)
        : ({
            type: 'START',
            secondsRemaining: params.checkout.seconds_remaining,
            paymentSecondsRemaining: params.checkout.payment_in_progress ? params.checkout.payment_seconds_remaining : 0,
          } as const),
    ),
    markPaid: assign({ paymentComplete: true }),
    stopCountdown: sendTo('countdown', { type: 'STOP' }),
    syncCountdown: sendTo('countdown', ({ event }) => {
      assertEvent(event, 'STEP_SAVED');
      return { type: 'SYNC' as const, secondsRemaining: event.secondsRemaining };
    }),
    keepSitekey: assign((_, params: { sitekey: string | null }) => ({ captchaSitekey: params.sitekey, captchaToken: null })),
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
    /** Where the server says the buyer was (determining). */
    resumesAt: (_, params: { checkout: Checkout; step: Step }) => nextStep('determining', params.checkout) === params.step,
    /** The next-step rules, evaluated on the checkout just fetched. */
    isNextStep: (_, params: { from: Step; checkout: Checkout; to: Step }) => nextStep(params.from, params.checkout) === params.to,
    reservedThenNext: (_, params: { from: Step; outcome: ReservationOutcome; to: Step }) =>
      params.outcome.type === 'reserved' && nextStep(params.from, params.outcome.checkout) === params.to,
    /** Leaving payment with the payment complete: the hold no longer runs out. */
    paidAndNextStepIs: (_, params: { from: Step; checkout: Checkout; to: Step }) =>
      params.checkout.payment_complete && nextStep(params.from, params.checkout) === params.to,
    outcomeIs: (_, params: { outcome: ReservationOutcome; is: ReservationOutcome['type'] }) =>
      params.outcome.type === params.is,
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
    /** The account step ended because the server no longer holds the tickets (a `reserving` error). */
    reservationLost: (_, params: { outcome: AccountOutcome | PaymentOutcome | BankTransferOutcome }) => params.outcome.type === 'reserving',
    /** The bank transfer ended with 'Try a different payment method'. */
    changesMethod: (_, params: { outcome: BankTransferOutcome }) => params.outcome.type === 'changeMethod',
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
