/**
 * What the screens need from the root checkout machine: the view (read from tags and context,
 * never from state names) and the senders (`reserve()`, `continueStep()`, ...), as zag's
 * `connect` does, so a screen never assembles an event itself. Screens subscribe to the child
 * actors through the refs.
 */
import type { bankTransferMachine } from '../bankTransfer/bankTransfer.machine';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { basketMachine } from '../basket/basket.machine';
import type { donationMachine } from '../donation/donation.machine';
import type { giftAidMachine } from '../donation/giftAid.machine';
import type { accountMachine } from '../account/account.machine';
import type { marketingMachine } from '../marketing/marketing.machine';
import type { deliveryMachine } from '../delivery/delivery.machine';
import type { paymentMachine } from '../payment/payment.machine';
import type { addressMachine } from '../address/address.machine';
import type { questionsMachine } from '../questions/questions.machine';
import type { countdownMachine } from '../countdown/countdown.machine';
import type { reservationMachine } from '../reservation/reservation.machine';
import type { checkoutMachine } from './checkout.machine';
import type { Checkout, CheckoutEvent, Notice, Step } from './checkout.types';
import { MESSAGES } from './checkout.messages';

export const CAPTCHA_EXPIRED_MESSAGE = MESSAGES.captchaExpired;
export const CHECKOUT_EXPIRED_MESSAGE = MESSAGES.checkoutExpired;

export type CaptchaStatus = 'unsolved' | 'passed' | 'expired' | 'errored';

export interface CheckoutView {
  step: Step;
  notices: Notice[];
  /** Back at the basket because the hold ran out. */
  expired: boolean;
  /** The expired notice's text while `expired`, else null. */
  expiredMessage: string | null;
  /** Determining is still loading the checkout, or failed to. */
  isDetermining: boolean;
  /** 'Unable to get Checkout data' while determining: the screen offers a retry. */
  determiningFailed: boolean;
  isAdvancing: boolean;
  /** 'Edit basket' is destroying the sale. */
  isEditingBasket: boolean;
  /** The chart accepts 'Edit basket' now (past the basket, payment not complete). */
  canEditBasket: boolean;
  /** The basket button is waiting, or a reservation is in flight. */
  isReserving: boolean;
  captcha: {
    status: CaptchaStatus;
    message: string | null;
    sitekey: string | null;
    canContinue: boolean;
    /** Changes whenever a fresh widget must be shown (the screen uses it as the widget's key). */
    widgetKey: number;
  };
  basketRef: ActorRefFrom<typeof basketMachine> | undefined;
  reservationRef: ActorRefFrom<typeof reservationMachine> | undefined;
  countdownRef: ActorRefFrom<typeof countdownMachine> | undefined;
  donationRef: ActorRefFrom<typeof donationMachine> | undefined;
  giftAidRef: ActorRefFrom<typeof giftAidMachine> | undefined;
  accountRef: ActorRefFrom<typeof accountMachine> | undefined;
  marketingRef: ActorRefFrom<typeof marketingMachine> | undefined;
  deliveryRef: ActorRefFrom<typeof deliveryMachine> | undefined;
  paymentRef: ActorRefFrom<typeof paymentMachine> | undefined;
  addressRef: ActorRefFrom<typeof addressMachine> | undefined;
  /** The ticket questions chart, on ticket_questions_before and ticket_questions_after. */
  questionsRef: ActorRefFrom<typeof questionsMachine> | undefined;
  /** The bank transfer's waiting chart, on awaiting_truelayer. */
  bankTransferRef: ActorRefFrom<typeof bankTransferMachine> | undefined;
}

type CheckoutSnapshot = SnapshotFrom<typeof checkoutMachine>;

function captchaStatus(snapshot: CheckoutSnapshot): CaptchaStatus {
  if (snapshot.matches({ pastBasket: { captcha: 'expired' } })) return 'expired';
  if (snapshot.matches({ pastBasket: { captcha: 'errored' } })) return 'errored';
  if (snapshot.matches({ pastBasket: { captcha: 'unsolved' } })) return 'unsolved';
  return snapshot.context.captchaToken === null ? 'unsolved' : 'passed';
}

export function viewCheckout(snapshot: CheckoutSnapshot): CheckoutView {
  const { context } = snapshot;
  const status = captchaStatus(snapshot);
  const message = status === 'expired' ? MESSAGES.captchaExpired : status === 'errored' ? context.captchaMessage : null;
  const isReserving = snapshot.hasTag('reserving');
  return {
    step: context.step,
    notices: context.notices,
    expired: context.expired,
    expiredMessage: context.expired ? MESSAGES.checkoutExpired : null,
    isDetermining: snapshot.matches('determining'),
    determiningFailed: snapshot.matches('determining') && !snapshot.hasTag('determining'),
    isAdvancing: snapshot.hasTag('advancing'),
    isEditingBasket: snapshot.hasTag('editingBasket'),
    canEditBasket: snapshot.can({ type: 'EDIT_BASKET_CONFIRMED' }),
    isReserving,
    captcha: {
      status,
      message,
      sitekey: context.captchaSitekey,
      canContinue: snapshot.can({ type: 'CAPTCHA_CONTINUE_CLICKED' }),
      widgetKey: context.captchaWidget,
    },
    basketRef: snapshot.children.basket,
    reservationRef: snapshot.children.reservation,
    countdownRef: snapshot.children.countdown,
    donationRef: snapshot.children.donation,
    giftAidRef: snapshot.children.giftAid,
    accountRef: snapshot.children.account,
    marketingRef: snapshot.children.marketing,
    deliveryRef: snapshot.children.delivery,
    paymentRef: snapshot.children.payment,
    addressRef: snapshot.children.address,
    questionsRef: snapshot.children.questions,
    bankTransferRef: snapshot.children.bankTransfer,
  };
}

/** What a screen can ask of the root checkout; stable for one actor, so effects may depend on them. */
export function checkoutSenders(send: (event: CheckoutEvent) => void) {
  return {
    retry: () => send({ type: 'RETRY_CLICKED' }),
    reserve: () => send({ type: 'RESERVE_CLICKED' }),
    continueStep: () => send({ type: 'STEP_COMPLETED' }),
    editBasket: () => send({ type: 'EDIT_BASKET_CONFIRMED' }),
    dismissNotice: (id: number) => send({ type: 'NOTICE_DISMISSED', id }),
    tabVisible: () => send({ type: 'TAB_VISIBLE' }),
    checkoutReloaded: (checkout: Checkout) => send({ type: 'CHECKOUT_RELOADED', checkout }),
    captchaPassed: (token: string) => send({ type: 'CAPTCHA_PASSED', token }),
    captchaExpired: () => send({ type: 'CAPTCHA_EXPIRED' }),
    captchaErrored: (message: string) => send({ type: 'CAPTCHA_ERRORED', message }),
    captchaContinue: () => send({ type: 'CAPTCHA_CONTINUE_CLICKED' }),
    copyLink: () => send({ type: 'COPY_LINK_CLICKED' }),
    toggleWhy: () => send({ type: 'WHY_TOGGLED' }),
  };
}

/** The view and the senders of the root checkout. */
export function connectCheckout(snapshot: CheckoutSnapshot, send: (event: CheckoutEvent) => void) {
  return { ...viewCheckout(snapshot), ...checkoutSenders(send) };
}
