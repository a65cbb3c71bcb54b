/**
 * Stripe's saved cards for instalment plans, through its SDK: a new card saved by a SetupIntent for
 * the buyer's Stripe customer, and an instalment charged as a PaymentIntent confirmed at once,
 * off-session, on that card, under the instalment's Idempotency-Key.
 */
import Stripe from 'stripe';
import type { StripeSettings } from '../config.ts';
import {
  AUTHENTICATION_MESSAGE,
  type SavedCardProcessor,
  type StripeCardSetup,
} from '../domain/instalments/offSession.ts';
import { Refusal } from '../domain/refusal.ts';
import { stripeClient } from './stripe.ts';

const isStripeError = (err: unknown): err is Stripe.errors.StripeError => err instanceof Stripe.errors.StripeError;
const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

export function stripeCardSetup(
  settings: Pick<StripeSettings, 'publishableKey' | 'secretKey' | 'apiBase'>,
  fetchImpl?: typeof fetch,
): StripeCardSetup {
  const stripe = stripeClient(settings, fetchImpl);
  return {
    publicKey: settings.publishableKey,
    async createCustomer(p) {
      const customer = await stripe.customers.create(
        { email: p.email, metadata: { user_id: String(p.userId) } },
        { idempotencyKey: p.idempotencyKey },
      );
      return customer.id;
    },
    async createSetupIntent(p) {
      const intent = await stripe.setupIntents.create({
        customer: p.customer,
        usage: 'off_session',
        allowed_payment_method_types: ['card'],
        metadata: { sale_id: p.saleId },
      });
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
export function stripeSavedCards(
  settings: Pick<StripeSettings, 'secretKey' | 'apiBase'>,
  fetchImpl?: typeof fetch,
): SavedCardProcessor {
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
      return {
        brand: pm.card.brand,
        last4: pm.card.last4,
        month: pm.card.exp_month,
        year: pm.card.exp_year,
        funding: pm.card.funding,
      };
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
        if (err.code === 'authentication_required')
          return { status: 'requires_action', message: err.message || AUTHENTICATION_MESSAGE };
        return { status: 'failed', message: err.message || 'Your card was declined.' };
      }
    },
    async refund(_exec, p) {
      await stripe.refunds.create(
        { payment_intent: p.chargeId, amount: p.amount },
        { idempotencyKey: p.idempotencyKey },
      );
    },
  };
}
