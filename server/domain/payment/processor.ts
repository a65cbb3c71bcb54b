/**
 * A card processor as the payment domain sees it: it creates a payment for an amount under an
 * idempotency key, and refunds one. Two implementations: the sandbox processor served by this
 * server (payments are rows here) and Stripe, through its SDK, when keyed (server/providers/stripe.ts).
 */
import { SANDBOX_PUBLIC_KEY_PREFIX } from '../../../contract/index.ts';

export interface CreatedPayment {
  id: string;
  clientSecret: string;
}

export interface CardProcessor {
  name: 'sandbox' | 'stripe' | 'square';
  publicKey: string;
  createPayment(request: {
    amount: number;
    currency: string;
    idempotencyKey: string;
    saleId: string;
  }): Promise<CreatedPayment>;
  refund(request: { paymentId: string; amount: number; idempotencyKey: string }): Promise<void>;
  /** The processor's own record of a payment, read server to server (null when it keeps none apart from ours). */
  retrieve(paymentId: string): Promise<RetrievedPayment | null>;
  /**
   * Closes a payment at the processor so it can no longer be paid (one already cancelled is done).
   * It throws when the processor refuses, as it does for a payment already taken: that money
   * arrives as a success for a closed payment and is refunded then.
   */
  cancel?(paymentId: string): Promise<void>;
}

export interface RetrievedPayment {
  /** The processor's id of the payment, when it was found another way than by the id asked for (Square's by its key). */
  id?: string;
  status: 'succeeded' | 'failed' | 'requires_action';
  amount: number;
  currency: string;
  failureMessage: string | null;
}

/**
 * A card processor's webhook as its provider read it: signed and naming a payment that succeeded or
 * failed (settle), signed and naming nothing to settle (ignored), or refused with why.
 */
export type CardWebhook =
  | {
      kind: 'settle';
      id: string;
      status: 'succeeded' | 'failed';
      amount: number;
      currency: string;
      failureMessage: string | null;
    }
  | { kind: 'ignored' }
  | { kind: 'refused'; message: string };

export const SANDBOX_PUBLIC_KEY = `${SANDBOX_PUBLIC_KEY_PREFIX}holdfast`;
