/**
 * Charging a saved card without the buyer (instalments after the first): the sandbox processor's
 * vault, or Stripe when keyed through its SDK (a PaymentIntent confirmed at once, off-session, on
 * the card a SetupIntent saved, under an Idempotency-Key). Either charges once per key. Keyed,
 * a new card is saved by a SetupIntent for the buyer's Stripe customer.
 */
import Stripe from 'stripe';
import type { Executor } from '../../db/index.ts';
import type { StripeSettings } from '../payment/processor.ts';
import { stripeClient } from '../payment/stripe.ts';
import { Refusal } from '../refusal.ts';
import { chargeSandboxCard, findSandboxCard, refundSandboxCharge } from './sandboxCards.ts';

export type OffSessionCharge = { status: 'succeeded'; id: string } | { status: 'failed'; message: string } | { status: 'requires_action'; message: string };

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
    p: { paymentMethodId: string; amount: number; currency: string; idempotencyKey: string; offSession: boolean; now: Date; description: string; authenticated?: boolean },
  ): Promise<OffSessionCharge>;
  /** Gives a succeeded charge back in full, once per key (a charge whose booking failed). */
  refund(exec: Pick<Executor, 'select' | 'update'>, p: { chargeId: string; amount: number; idempotencyKey: string }): Promise<void>;
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

const isStripeError = (err: unknown): err is Stripe.errors.StripeError => err instanceof Stripe.errors.StripeError;
const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));

export function stripeCardSetup(settings: Pick<StripeSettings, 'publishableKey' | 'secretKey' | 'apiBase'>, fetchImpl?: typeof fetch): StripeCardSetup {
  const stripe = stripeClient(settings, fetchImpl);
  return {
    publicKey: settings.publishableKey,
    async createCustomer(p) {
      const customer = await stripe.customers.create({ email: p.email, metadata: { user_id: String(p.userId) } }, { idempotencyKey: p.idempotencyKey });
      return customer.id;
    },
    async createSetupIntent(p) {
      const intent = await stripe.setupIntents.create({ customer: p.customer, usage: 'off_session', allowed_payment_method_types: ['card'], metadata: { sale_id: p.saleId } });
      if (!intent.client_secret) throw new Error(`Stripe gave no client secret for ${intent.id}`);
      return { id: intent.id, clientSecret: intent.client_secret };
    },
    async retrieveSetupIntent(id) {
      try {
        const intent = await stripe.setupIntents.retrieve(id);
        return { status: intent.status, customer: idOf(intent.customer), paymentMethod: idOf(intent.payment_method) };
      } catch (err) {
        if (isStripeError(err) && err.statusCode === 404) return null;
        throw err;
      }
    },
  };
}

/**
 * Stripe's saved cards through its SDK: a card is read from Stripe (with the customer it is
 * attached to), and an instalment is a PaymentIntent confirmed at once on it for that customer,
 * off-session unless the buyer is there, under the instalment's Idempotency-Key.
 */
export function stripeSavedCards(settings: Pick<StripeSettings, 'secretKey' | 'apiBase'>, fetchImpl?: typeof fetch): SavedCardProcessor {
  const stripe = stripeClient(settings, fetchImpl);
  async function lookUp(id: string): Promise<Stripe.PaymentMethod | null> {
    try {
      return await stripe.paymentMethods.retrieve(id);
    } catch (err) {
      if (isStripeError(err) && err.statusCode === 404) return null;
      throw err;
    }
  }
  return {
    name: 'stripe',
    async card(_exec, id) {
      const pm = await lookUp(id);
      if (!pm?.card) return null;
      return { brand: pm.card.brand, last4: pm.card.last4, month: pm.card.exp_month, year: pm.card.exp_year, funding: pm.card.funding };
    },
    async charge(_exec, p) {
      const pm = await lookUp(p.paymentMethodId);
      const customer = idOf(pm?.customer);
      if (!customer) throw new Refusal('conflict', 'This card is not saved for later payments.');
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: p.amount,
            currency: p.currency.toLowerCase(),
            customer,
            payment_method: p.paymentMethodId,
            allowed_payment_method_types: ['card'],
            confirm: true,
            description: p.description,
            ...(p.offSession ? { off_session: true } : {}),
          },
          { idempotencyKey: p.idempotencyKey },
        );
        if (intent.status === 'succeeded') return { status: 'succeeded', id: intent.id };
        if (intent.status === 'requires_action') return { status: 'requires_action', message: AUTHENTICATION_MESSAGE };
        return { status: 'failed', message: intent.last_payment_error?.message ?? 'Your card was declined.' };
      } catch (err) {
        if (!(err instanceof Stripe.errors.StripeCardError)) throw err;
        if (err.code === 'authentication_required') return { status: 'requires_action', message: err.message || AUTHENTICATION_MESSAGE };
        return { status: 'failed', message: err.message || 'Your card was declined.' };
      }
    },
    async refund(_exec, p) {
      await stripe.refunds.create({ payment_intent: p.chargeId, amount: p.amount }, { idempotencyKey: p.idempotencyKey });
    },
  };
}
