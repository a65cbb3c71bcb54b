/**
 * What the screens need from the root checkout machine: the view (read from tags and context,
 * never from state names) and the senders (`reserve()`, `continueStep()`, ...), as zag's
 * `connect` does, so a screen never assembles an event itself. A step's screen subscribes to its
 * own chart through `stepChild`, the current step's child.
 */
import type { AnyActorRef, ActorRefFrom, SnapshotFrom } from 'xstate';
import type { countdownMachine } from '../countdown/countdown.machine';
import { checkoutMachine } from './checkout.machine';
import type { Checkout } from '../../contract/checkout';
import { MESSAGES } from '../../contract/messages/checkout';
import type { Notice } from '../../contract/notice';
import type { Step } from '../../contract/steps';
import type { CheckoutEvent } from './checkout.types';

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
  countdownRef: ActorRefFrom<typeof countdownMachine> | undefined;
  /**
   * The chart of the step the buyer is on (the basket, the reservation, the account, ..., order
   * completed), or undefined on a step without one. Its id is the name the root chart invokes it by.
   */
  stepChild: AnyActorRef | undefined;
}

type CheckoutSnapshot = SnapshotFrom<typeof checkoutMachine>;

function captchaStatus(snapshot: CheckoutSnapshot): CaptchaStatus {
  if (snapshot.matches({ pastBasket: { captcha: 'expired' } })) return 'expired';
  if (snapshot.matches({ pastBasket: { captcha: 'errored' } })) return 'errored';
  if (snapshot.matches({ pastBasket: { captcha: 'unsolved' } })) return 'unsolved';
  return snapshot.context.captchaToken === null ? 'unsolved' : 'passed';
}

/** The current step's chart: the child named by the mark on the active state that invoked it (`stepChildMark`). */
function stepChildOf(snapshot: CheckoutSnapshot): AnyActorRef | undefined {
  for (const meta of Object.values(snapshot.getMeta()) as ({ stepChild?: string } | undefined)[]) {
    if (meta?.stepChild) return (snapshot.children as Record<string, AnyActorRef | undefined>)[meta.stepChild];
  }
  return undefined;
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
    countdownRef: snapshot.children.countdown,
    stepChild: stepChildOf(snapshot),
  };
}

/** Whether a step offers 'Edit basket': its state in the root chart carries the `basketEditable` tag. */
export function basketEditableOn(step: Step): boolean {
  const node = checkoutMachine.root.states.pastBasket?.states[step];
  return node !== undefined && node.tags.includes('basketEditable');
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
