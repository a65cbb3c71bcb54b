/**
 * What the screens need from the root checkout machine. Screens read this, not the chart's state
 * names, and subscribe to the child actors through the refs.
 */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { basketMachine } from '../basket/basket.machine';
import type { countdownMachine } from '../countdown/countdown.machine';
import type { reservationMachine } from '../reservation/reservation.machine';
import type { checkoutMachine } from './checkout.machine';
import type { Notice, Step } from './checkout.types';

export const CAPTCHA_EXPIRED_MESSAGE = 'The captcha challenge has expired. Please complete the challenge again.';
export const CHECKOUT_EXPIRED_MESSAGE =
  'Your checkout time expired. If the tickets are still available, you can try to reserve them again.';

export type CaptchaStatus = 'unsolved' | 'passed' | 'expired' | 'errored';

export interface CheckoutView {
  step: Step;
  /** The innermost state of the step, e.g. 'active', 'advancing', 'waiting', 'editingBasket'. */
  subState: string;
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
  /** The basket button is waiting, or a reservation is in flight. */
  isReserving: boolean;
  captcha: { status: CaptchaStatus; message: string | null; sitekey: string | null; canContinue: boolean };
  secondsRemaining: number | null;
  saleReference: string | null;
  basketRef: ActorRefFrom<typeof basketMachine> | undefined;
  reservationRef: ActorRefFrom<typeof reservationMachine> | undefined;
  countdownRef: ActorRefFrom<typeof countdownMachine> | undefined;
}

type CheckoutSnapshot = SnapshotFrom<typeof checkoutMachine>;

/** The innermost state key of the snapshot's value (the first branch; the chart has no parallel states). */
function innermost(value: unknown): string {
  let current = value;
  let key = '';
  while (current && typeof current === 'object') {
    const [first] = Object.entries(current as Record<string, unknown>);
    if (!first) break;
    key = first[0];
    current = first[1];
  }
  return typeof current === 'string' ? current : key;
}

function captchaStatus(snapshot: CheckoutSnapshot): CaptchaStatus {
  if (snapshot.matches({ pastBasket: { captcha: 'passed' } })) return 'passed';
  if (snapshot.matches({ pastBasket: { captcha: 'reserving' } })) return 'passed';
  if (snapshot.matches({ pastBasket: { captcha: 'expired' } })) return 'expired';
  if (snapshot.matches({ pastBasket: { captcha: 'errored' } })) return 'errored';
  return 'unsolved';
}

export function viewCheckout(snapshot: CheckoutSnapshot): CheckoutView {
  const { context } = snapshot;
  const status = captchaStatus(snapshot);
  const subState = innermost(snapshot.value);
  const message =
    status === 'expired' ? CAPTCHA_EXPIRED_MESSAGE : status === 'errored' ? context.captchaMessage : null;
  return {
    step: context.step,
    subState,
    notices: context.notices,
    expired: context.expired,
    expiredMessage: context.expired ? CHECKOUT_EXPIRED_MESSAGE : null,
    isDetermining: snapshot.matches('determining'),
    determiningFailed: snapshot.matches({ determining: 'failed' }),
    isAdvancing: subState === 'advancing',
    isEditingBasket: snapshot.matches('editingBasket'),
    isReserving:
      snapshot.matches({ basket: 'waiting' }) ||
      snapshot.matches({ pastBasket: 'reserve' }) ||
      snapshot.matches({ pastBasket: { captcha: 'reserving' } }),
    captcha: {
      status,
      message,
      sitekey: context.captchaSitekey,
      canContinue: snapshot.matches({ pastBasket: { captcha: 'passed' } }),
    },
    secondsRemaining: context.secondsRemaining,
    saleReference: context.saleReference,
    basketRef: snapshot.children.basket,
    reservationRef: snapshot.children.reservation,
    countdownRef: snapshot.children.countdown,
  };
}
