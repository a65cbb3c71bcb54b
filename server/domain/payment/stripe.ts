/**
 * Stripe, when STRIPE_PUBLISHABLE_KEY and STRIPE_SECRET_KEY are set: PaymentIntents and refunds
 * through Stripe's REST API (form-encoded bodies, Bearer secret key, Idempotency-Key header), and
 * the webhook signature check of Stripe's documented scheme: the `Stripe-Signature` header carries
 * `t=<unix seconds>` and `v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the endpoint secret>`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CardProcessor } from './processor.ts';

const API = 'https://api.stripe.com/v1';

export interface StripeRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

/** The request that creates a PaymentIntent for a sale's attempt (card only, automatic confirmation). */
export function paymentIntentRequest(secretKey: string, p: { amount: number; currency: string; idempotencyKey: string; saleId: string }): StripeRequest {
  const body = new URLSearchParams({
    amount: String(p.amount),
    currency: p.currency.toLowerCase(),
    'payment_method_types[]': 'card',
    'metadata[sale_id]': p.saleId,
  });
  return {
    url: `${API}/payment_intents`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': p.idempotencyKey,
    },
    body: body.toString(),
  };
}

export function refundRequest(secretKey: string, p: { paymentId: string; amount: number; idempotencyKey: string }): StripeRequest {
  return {
    url: `${API}/refunds`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': p.idempotencyKey,
    },
    body: new URLSearchParams({ payment_intent: p.paymentId, amount: String(p.amount) }).toString(),
  };
}

/** The request that reads a PaymentIntent, for the card return. */
export function retrieveRequest(secretKey: string, paymentId: string): { url: string; headers: Record<string, string> } {
  return { url: `${API}/payment_intents/${encodeURIComponent(paymentId)}`, headers: { authorization: `Bearer ${secretKey}` } };
}

export function stripeProcessor(keys: { publishableKey: string; secretKey: string }, fetchImpl: typeof fetch = fetch): CardProcessor {
  async function send(request: StripeRequest): Promise<Record<string, unknown>> {
    const response = await fetchImpl(request.url, { method: request.method, headers: request.headers, body: request.body });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) {
      const error = json.error as { message?: string } | undefined;
      throw new Error(error?.message ?? `Stripe answered ${response.status}`);
    }
    return json;
  }
  return {
    name: 'stripe',
    publicKey: keys.publishableKey,
    async createPayment(p) {
      const intent = await send(paymentIntentRequest(keys.secretKey, p));
      return { id: String(intent.id), clientSecret: String(intent.client_secret) };
    },
    async refund(p) {
      await send(refundRequest(keys.secretKey, p));
    },
    async retrieve(paymentId) {
      const request = retrieveRequest(keys.secretKey, paymentId);
      const response = await fetchImpl(request.url, { method: 'GET', headers: request.headers });
      if (!response.ok) return null;
      const intent = (await response.json()) as { status?: string; amount?: number; currency?: string; last_payment_error?: { message?: string } | null };
      const failed = intent.status === 'requires_payment_method' && intent.last_payment_error;
      return {
        status: intent.status === 'succeeded' ? 'succeeded' : failed ? 'failed' : 'requires_action',
        amount: Number(intent.amount),
        currency: String(intent.currency),
        failureMessage: intent.last_payment_error?.message ?? null,
      };
    },
  };
}

/** How old a signed webhook may be (Stripe's libraries default to five minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export function signWebhook(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/** Whether a webhook's `Stripe-Signature` header signs this raw payload with the secret, recently enough. */
export function verifyWebhook(payload: string, header: string | undefined, secret: string, now: Date): boolean {
  if (!header) return false;
  const parts = header.split(',').map((part) => part.split('=') as [string, string]);
  const timestamp = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isSafeInteger(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex'), 'hex');
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, v]) => {
      const given = Buffer.from(v ?? '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
