/** The payment screen's titles, messages, method names and SaaS block (spec 001 §2 Payment, §5, §8). */
import { CARD_LIMIT_GBP, type ChosenMethod } from '../payment.ts';
import { formatMoney } from '../money.ts';
import { messages } from '../../i18n/lazy.ts';
import { t } from '../../i18n/runtime.ts';

export const PAYMENT_TITLES = messages({
  payment: 'payment.title.payment',
  express: 'payment.title.express',
  paying: 'payment.title.paying',
  free: 'payment.title.free',
});

export const PAYMENT_MESSAGES = messages({
  phone: 'payment.phone',
  email: 'payment.email',
  fullName: 'payment.fullName',
  stripeRedirect: 'payment.stripeRedirect',
  stripeToken: 'payment.stripeToken',
  truelayerRedirect: 'payment.truelayerRedirect',
  unableToPay: 'payment.unableToPay',
  claimFree: 'payment.claimFree',
  /* Not in the spec: the method choice when more than one is offered, and a payment that arrived late. */
  chooseMethod: 'payment.chooseMethod',
  lateBooked: 'payment.lateBooked',
  lateRefunded: 'payment.lateRefunded',
  /* Not in the spec: money that arrived for a basket that is no longer the one paid for, or a second time. */
  closedRefunded: 'payment.closedRefunded',
  paidTwiceRefunded: 'payment.paidTwiceRefunded',
  /* Not in the spec: a payment asked for with no buyer named, or by a method the basket is not offered. */
  noBuyer: 'payment.noBuyer',
  cardNotOffered: 'payment.cardNotOffered',
  /* Not in the spec: express details naming an account the buyer has not signed in to. */
  existingAccount: 'payment.existingAccount',
});

/**
 * Not in the spec: a GBP basket at the card limit or above whose organiser takes payments through
 * Stripe and offers no plan is offered no method by spec 001 §9's rules (card only below the limit,
 * bank transfer only when the provider is not Stripe). The buyer is told so, and what they can do.
 */
export function noMethodMessage(): string {
  return t('payment.noMethod', { limit: formatMoney(CARD_LIMIT_GBP, 'GBP') });
}

/** 'We currently are unable to take payments … configured by {organiser name}' (spec 001 §2). */
export function saasBlockedMessage(organiserName: string): string {
  return t('payment.saasBlocked', { organiserName });
}

/** How each method is named to the buyer (spec 001 §2). */
export const METHOD_LABELS: Record<ChosenMethod, string> = messages({
  truelayer: 'payment.method.truelayer',
  stripe: 'payment.method.card',
  square: 'payment.method.card',
  instalment: 'payment.method.instalment',
});
