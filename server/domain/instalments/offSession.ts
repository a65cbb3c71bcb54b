/**
 * Charging a saved card without the buyer (instalments after the first): the sandbox processor's
 * vault, or Stripe when keyed (a PaymentIntent with `off_session=true&confirm=true` on the card a
 * SetupIntent saved, under an Idempotency-Key). Either charges once per key.
 */
import type { Executor } from '../../db/index.ts';
import { Refusal } from '../refusal.ts';
import { chargeSandboxCard, findSandboxCard } from './sandboxCards.ts';

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
  };
}

const STRIPE_API = 'https://api.stripe.com/v1';

export interface StripeCall {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/** Reads a saved card, with the customer it is attached to (off-session charges name both). */
export function paymentMethodRequest(secretKey: string, paymentMethodId: string): StripeCall {
  return { url: `${STRIPE_API}/payment_methods/${encodeURIComponent(paymentMethodId)}`, method: 'GET', headers: { authorization: `Bearer ${secretKey}` } };
}

/** A SetupIntent that saves a card for later off-session use (spec 001 §9: card only). */
export function setupIntentRequest(secretKey: string, p: { customer: string; idempotencyKey: string }): StripeCall {
  return {
    url: `${STRIPE_API}/setup_intents`,
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': p.idempotencyKey },
    body: new URLSearchParams({ customer: p.customer, usage: 'off_session', 'payment_method_types[]': 'card' }).toString(),
  };
}

/** An instalment charged on a saved card: confirmed at once, off-session unless the buyer is present. */
export function offSessionPaymentRequest(
  secretKey: string,
  p: { customer: string; paymentMethodId: string; amount: number; currency: string; idempotencyKey: string; offSession: boolean; description: string },
): StripeCall {
  const body = new URLSearchParams({
    amount: String(p.amount),
    currency: p.currency.toLowerCase(),
    customer: p.customer,
    payment_method: p.paymentMethodId,
    'payment_method_types[]': 'card',
    confirm: 'true',
    description: p.description,
  });
  if (p.offSession) body.set('off_session', 'true');
  return {
    url: `${STRIPE_API}/payment_intents`,
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/x-www-form-urlencoded', 'idempotency-key': p.idempotencyKey },
    body: body.toString(),
  };
}

export function stripeSavedCards(secretKey: string, fetchImpl: typeof fetch = fetch): SavedCardProcessor {
  async function send(call: StripeCall): Promise<{ ok: boolean; json: Record<string, unknown> }> {
    const response = await fetchImpl(call.url, { method: call.method, headers: call.headers, ...(call.body ? { body: call.body } : {}) });
    return { ok: response.ok, json: (await response.json()) as Record<string, unknown> };
  }
  async function lookUp(id: string) {
    const { ok, json } = await send(paymentMethodRequest(secretKey, id));
    return ok ? (json as { customer?: string | null; card?: { brand: string; last4: string; exp_month: number; exp_year: number; funding: string } }) : null;
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
      if (!pm?.customer) throw new Refusal('conflict', 'This card is not saved for later payments.');
      const { ok, json } = await send(offSessionPaymentRequest(secretKey, { ...p, customer: pm.customer }));
      if (ok && json.status === 'succeeded') return { status: 'succeeded', id: String(json.id) };
      const error = json.error as { code?: string; message?: string } | undefined;
      if (error?.code === 'authentication_required' || json.status === 'requires_action') return { status: 'requires_action', message: error?.message ?? AUTHENTICATION_MESSAGE };
      return { status: 'failed', message: error?.message ?? 'Your card was declined.' };
    },
  };
}
