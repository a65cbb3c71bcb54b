/** The payment screen's titles, messages, method names and SaaS block (spec 001 §2 Payment, §5, §8). */
import { CARD_LIMIT_GBP, type ChosenMethod } from '../payment.ts';
import { formatMoney } from '../money.ts';

export const PAYMENT_TITLES = {
  payment: 'Payment',
  express: 'Complete purchase',
  paying: 'Confirming Payment',
  free: 'Claiming free tickets',
};

export const PAYMENT_MESSAGES = {
  phone: 'Type a valid phone number',
  email: 'Type a valid email address',
  fullName: 'Type both your first and last name(s)',
  stripeRedirect: 'There was an error with taking you to Stripe. Please try again.',
  stripeToken: 'Unable to get Stripe token. Please try again later',
  truelayerRedirect: 'There was an error with taking you to Truelayer. Please try again.',
  unableToPay: 'Unable to pay. Please try again later',
  claimFree: 'Unable to claim free tickets. Please try again later',
  /* Not in the spec: the method choice when more than one is offered, and a payment that arrived late. */
  chooseMethod: 'Choose how you would like to pay',
  lateBooked: 'Your payment arrived after your hold ended. The tickets were still available, so they are yours.',
  lateRefunded:
    'Your payment arrived after your hold ended and the tickets had been taken, so we have refunded it in full. If tickets are still available, you can reserve them again.',
  /* Not in the spec: money that arrived for a basket that is no longer the one paid for, or a second time. */
  closedRefunded: 'Your basket changed after that payment began, so we have refunded it in full. Please pay again for your basket as it is now.',
  paidTwiceRefunded: 'This order was already paid for, so we have refunded your second payment in full.',
  /* Not in the spec: a payment asked for with no buyer named, or by a method the basket is not offered. */
  noBuyer: 'Please sign in or give your details before paying, so we know whose tickets these are.',
  cardNotOffered: 'Card payment is not offered for this basket. Please choose another way to pay.',
  /* Not in the spec: express details naming an account the buyer has not signed in to. */
  existingAccount: 'There is already an account with this email address. To buy with it, sign in with the one-time code we email to it.',
};

/**
 * Not in the spec: a GBP basket at the card limit or above whose organiser takes payments through
 * Stripe and offers no plan is offered no method by spec 001 §9's rules (card only below the limit,
 * bank transfer only when the provider is not Stripe). The buyer is told so, and what they can do.
 */
export function noMethodMessage(): string {
  const limit = formatMoney(CARD_LIMIT_GBP, 'GBP');
  return `A basket of ${limit} or more from this organiser cannot be paid online. Edit your basket to bring the total under ${limit}, or buy the tickets as two or more smaller orders.`;
}

/** 'We currently are unable to take payments … configured by {organiser name}' (spec 001 §2). */
export function saasBlockedMessage(organiserName: string): string {
  return `We currently are unable to take payments for this basket as the payment integration has not yet been configured by ${organiserName}`;
}

/** How each method is named to the buyer (spec 001 §2). */
export const METHOD_LABELS: Record<ChosenMethod, string> = {
  truelayer: 'Instant Bank Transfer',
  stripe: 'Credit or Debit Card',
  square: 'Credit or Debit Card',
  instalment: 'Set up a payment plan',
};
