/**
 * Charging a saved card without the buyer (instalments after the first): the sandbox processor's
 * vault here, or Stripe when keyed (server/providers/stripeCards.ts). Either charges once per key.
 * Keyed, a new card is saved by a SetupIntent for the buyer's Stripe customer.
 */
import type { Executor } from '../../db/index.ts';
import { chargeSandboxCard, findSandboxCard, refundSandboxCharge } from './sandboxCards.ts';

export type OffSessionCharge =
  | { status: 'succeeded'; id: string }
  | { status: 'failed'; message: string }
  | { status: 'requires_action'; message: string };

export const AUTHENTICATION_MESSAGE = 'Your bank asks you to confirm this payment.';

export interface CardDetails {
  brand: string;
  last4: string;
  month: number;
  year: number;
  funding: string;
}

export interface SavedCardProcessor {
  name: 'sandbox' | 'stripe';
  /** The card the processor saved under this id (the truth, whatever the browser said), or null. */
  card(exec: Pick<Executor, 'select'>, paymentMethodId: string): Promise<CardDetails | null>;
  /** `offSession` false for the first instalment, taken while the buyer is paying. */
  charge(
    exec: Pick<Executor, 'select' | 'insert' | 'update'>,
    p: {
      paymentMethodId: string;
      amount: number;
      currency: string;
      idempotencyKey: string;
      offSession: boolean;
      now: Date;
      description: string;
      authenticated?: boolean;
    },
  ): Promise<OffSessionCharge>;
  /** Gives a succeeded charge back in full, once per key (a charge whose booking failed). */
  refund(
    exec: Pick<Executor, 'select' | 'update'>,
    p: { chargeId: string; amount: number; idempotencyKey: string },
  ): Promise<void>;
}

export function sandboxSavedCards(): SavedCardProcessor {
  return {
    name: 'sandbox',
    async card(exec, id) {
      const card = await findSandboxCard(exec, id);
      if (!card || card.kind !== 'payment_method') return null;
      return { brand: card.brand, last4: card.last4, month: card.expMonth, year: card.expYear, funding: card.funding };
    },
    async charge(exec, p) {
      const charged = await chargeSandboxCard(exec, {
        cardId: p.paymentMethodId,
        amount: p.amount,
        currency: p.currency,
        idempotencyKey: p.idempotencyKey,
        offSession: p.offSession,
        now: p.now,
        ...(p.authenticated ? { authenticated: true } : {}),
      });
      if (charged.status === 'requires_action') return { status: 'requires_action', message: AUTHENTICATION_MESSAGE };
      return charged.status === 'succeeded' ? charged : { status: 'failed', message: charged.message };
    },
    async refund(exec, p) {
      await refundSandboxCharge(exec, p.chargeId);
    },
  };
}

/** A SetupIntent as the plan reads it before trusting the card it saved. */
export interface RetrievedSetup {
  status: string;
  customer: string | null;
  paymentMethod: string | null;
}

/** Stripe's side of saving a new card for a plan (keyed only): the buyer's customer and the SetupIntent. */
export interface StripeCardSetup {
  publicKey: string;
  /** A customer for this buyer, made once per key (the server keeps its id). */
  createCustomer(p: { userId: number; email: string; idempotencyKey: string }): Promise<string>;
  /** A SetupIntent saving a card for the customer's later off-session payments (spec 001 §9: card only). */
  createSetupIntent(p: { customer: string; saleId: string }): Promise<{ id: string; clientSecret: string }>;
  /** The SetupIntent as Stripe has it, or null when Stripe knows no such SetupIntent. */
  retrieveSetupIntent(id: string): Promise<RetrievedSetup | null>;
}
