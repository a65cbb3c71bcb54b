/**
 * The card confirmation the payment chart invokes, by the processor get_stripe_token names (see
 * cardUi): the sandbox's card page (the browser leaves and comes back through
 * /do/checkout/stripe_auth/), or Stripe's Payment Element on this screen. It lives with the
 * payment screen's chunk, so neither path weighs on the checkout's first load.
 */
import type { ResponseOf } from '../../../contract';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment';
import type { CardResult } from '../../../machines/payment/payment.types';
import { cardUi } from './cardUi';
import { takeCardWithStripe } from './stripeSession';

export function confirmCard(
  token: ResponseOf<'getStripeToken'>,
  navigate: (url: string) => void,
  signal?: AbortSignal,
): Promise<CardResult> {
  switch (cardUi(token.public_key)) {
    case 'sandbox':
      navigate(`/sandbox/card/?secret=${encodeURIComponent(token.client_secret)}`);
      // The browser leaves for the card page; the step is read afresh on the way back.
      return new Promise<CardResult>(() => {});
    case 'stripe':
      return takeCardWithStripe(token, signal);
    default:
      return Promise.reject(new Error(PAYMENT_MESSAGES.stripeRedirect));
  }
}
