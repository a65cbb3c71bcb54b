/**
 * Which card form confirms a payment, from the publishable key get_stripe_token names: the
 * sandbox processor's own card page, or Stripe's Payment Element (a Stripe key, test or live).
 * Anything else is no processor this app can take a card with.
 */
import { SANDBOX_PUBLIC_KEY_PREFIX } from '../../../contract';

export type CardUi = 'sandbox' | 'stripe' | null;

export function cardUi(publicKey: string): CardUi {
  if (publicKey.startsWith(SANDBOX_PUBLIC_KEY_PREFIX)) return 'sandbox';
  if (/^pk_(test|live)_[A-Za-z0-9_]+$/.test(publicKey)) return 'stripe';
  return null;
}
