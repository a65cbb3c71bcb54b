/**
 * The card taken by Stripe's Payment Element: the payment chart's confirmation opens a session
 * for one PaymentIntent, the payment step shows the Element while it is open, and the Element's
 * confirmation ends it. A confirmation Stripe completes leaves the page for the card return
 * (/do/checkout/stripe_auth/), so only a failure ends here; leaving the step closes the session.
 */
import type { CardResult } from '../../../machines/payment/payment.types';

export interface StripeSession {
  publicKey: string;
  clientSecret: string;
  /** The confirmation ended in the page (Stripe's error message, for one). */
  finish(result: CardResult): void;
  /** Stripe could not be loaded or could not show the card form. */
  fail(error: Error): void;
}

let current: StripeSession | null = null;
const listeners = new Set<() => void>();

function publish(session: StripeSession | null): void {
  current = session;
  for (const listener of listeners) listener();
}

export const stripeSessions = {
  get: (): StripeSession | null => current,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Opens the card form for this PaymentIntent; settles when its confirmation ends in the page. */
export function takeCardWithStripe(
  token: { public_key: string; client_secret: string },
  signal?: AbortSignal,
): Promise<CardResult> {
  return new Promise<CardResult>((resolve, reject) => {
    let open = true;
    const close = () => {
      open = false;
      if (current === session) publish(null);
    };
    const session: StripeSession = {
      publicKey: token.public_key,
      clientSecret: token.client_secret,
      finish(result) {
        if (!open) return;
        close();
        resolve(result);
      },
      fail(error) {
        if (!open) return;
        close();
        reject(error);
      },
    };
    signal?.addEventListener('abort', () => session.fail(new Error('The payment step was left')), { once: true });
    publish(session);
  });
}
