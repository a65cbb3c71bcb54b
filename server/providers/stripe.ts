/**
 * Stripe, when STRIPE_PUBLISHABLE_KEY and STRIPE_SECRET_KEY are set, through Stripe's own SDK at
 * the API version it pins: PaymentIntents (card only, created under the attempt's idempotency key,
 * read back, cancelled) and refunds, and the webhook's `Stripe-Signature` checked by
 * `webhooks.constructEvent`. The API is Stripe's unless STRIPE_API_BASE names another address (a
 * local stand-in, in tests).
 */
import Stripe from 'stripe';
import type { StripeSettings } from '../config.ts';
import type { CardProcessor, CardWebhook, RetrievedPayment } from '../domain/payment/processor.ts';

/** How old a signed webhook may be (Stripe's libraries default to five minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The SDK's client for these keys, sending to STRIPE_API_BASE when set; `fetchImpl` replaces its HTTP client. */
export function stripeClient(
  settings: Pick<StripeSettings, 'secretKey' | 'apiBase'>,
  fetchImpl?: typeof fetch,
): Stripe {
  return new Stripe(settings.secretKey, {
    ...(settings.apiBase
      ? { host: settings.apiBase.host, port: settings.apiBase.port, protocol: settings.apiBase.protocol }
      : {}),
    ...(fetchImpl ? { httpClient: Stripe.createFetchHttpClient(fetchImpl) } : {}),
    // The idempotency keys make a retried create or refund safe.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
}

const isStripeError = (err: unknown): err is Stripe.errors.StripeError => err instanceof Stripe.errors.StripeError;

/** A PaymentIntent as the payment domain reads it. */
export function retrievedPayment(
  intent: Pick<Stripe.PaymentIntent, 'status' | 'amount' | 'currency' | 'last_payment_error'>,
): RetrievedPayment {
  const failed = intent.status === 'requires_payment_method' && intent.last_payment_error;
  return {
    status: intent.status === 'succeeded' ? 'succeeded' : failed ? 'failed' : 'requires_action',
    amount: intent.amount,
    currency: intent.currency,
    failureMessage: intent.last_payment_error?.message ?? null,
  };
}

export function stripeProcessor(
  settings: Pick<StripeSettings, 'publishableKey' | 'secretKey' | 'apiBase'>,
  fetchImpl?: typeof fetch,
): CardProcessor {
  const stripe = stripeClient(settings, fetchImpl);
  return {
    name: 'stripe',
    publicKey: settings.publishableKey,
    async createPayment(p) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: p.amount,
          currency: p.currency.toLowerCase(),
          allowed_payment_method_types: ['card'],
          metadata: { sale_id: p.saleId },
        },
        { idempotencyKey: p.idempotencyKey },
      );
      if (!intent.client_secret) throw new Error(`Stripe gave no client secret for ${intent.id}`);
      return { id: intent.id, clientSecret: intent.client_secret };
    },
    async refund(p) {
      await stripe.refunds.create(
        { payment_intent: p.paymentId, amount: p.amount },
        { idempotencyKey: p.idempotencyKey },
      );
    },
    async retrieve(paymentId) {
      try {
        return retrievedPayment(await stripe.paymentIntents.retrieve(paymentId));
      } catch (err) {
        if (isStripeError(err) && err.statusCode === 404) return null;
        throw err;
      }
    },
    async cancel(paymentId) {
      try {
        await stripe.paymentIntents.cancel(paymentId);
      } catch (err) {
        // Cancelling twice is done; any other state (taken, processing) is Stripe's refusal.
        if (
          isStripeError(err) &&
          err.code === 'payment_intent_unexpected_state' &&
          err.payment_intent?.status === 'canceled'
        )
          return;
        throw err;
      }
    },
  };
}

/** The SDK's webhook helpers (signing and verifying need no key). */
const webhooks = Stripe.webhooks;

/** A `Stripe-Signature` header for this payload, signed with the endpoint secret at `timestamp` (unix seconds). */
export function signWebhook(payload: string, secret: string, timestamp: number): string {
  return webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

export type WebhookReading =
  | { kind: 'event'; event: Stripe.Event }
  /** The signature is missing, does not match, or is too old. */
  | { kind: 'unsigned' }
  /** Signed, but not a JSON event. */
  | { kind: 'malformed' };

/** Checks a webhook's signature over the raw payload with the SDK, then reads its event. */
export function readWebhook(payload: string, header: string | undefined, secret: string, now: Date): WebhookReading {
  let event: unknown;
  try {
    event = webhooks.constructEvent(payload, header ?? '', secret, WEBHOOK_TOLERANCE_SECONDS, undefined, now.getTime());
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) return { kind: 'unsigned' };
    return { kind: 'malformed' };
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return { kind: 'malformed' };
  return { kind: 'event', event: event as Stripe.Event };
}

/** Whether a webhook's `Stripe-Signature` header signs this raw payload with the secret, recently enough. */
export function verifyWebhook(payload: string, header: string | undefined, secret: string, now: Date): boolean {
  return readWebhook(payload, header, secret, now).kind !== 'unsigned';
}

/** The PaymentIntent a signed event settles, or why it settles none (a payment_intent event that settles nothing, such as created or processing, is ignored). */
export type IntentEvent = Exclude<CardWebhook, { kind: 'refused' }> | { kind: 'invalid'; message: string };

export const WEBHOOK_MESSAGES = {
  signature: 'The webhook signature does not match',
  notJson: 'The webhook body is not a JSON event',
  notPaymentIntent: 'The webhook is not a payment_intent event with a PaymentIntent',
} as const;

/** Reads a signed event: only payment_intent events whose object is a PaymentIntent are taken. */
export function intentEvent(event: Stripe.Event): IntentEvent {
  const type = (event as { type?: unknown }).type;
  const object = (event as { data?: { object?: unknown } }).data?.object as Record<string, unknown> | undefined;
  if (
    typeof type !== 'string' ||
    !type.startsWith('payment_intent.') ||
    typeof object !== 'object' ||
    object === null
  ) {
    return { kind: 'invalid', message: WEBHOOK_MESSAGES.notPaymentIntent };
  }
  const { id, amount, currency } = object;
  if (
    typeof id !== 'string' ||
    !/^pi_[A-Za-z0-9_]{1,200}$/.test(id) ||
    !Number.isSafeInteger(amount) ||
    (amount as number) < 0 ||
    typeof currency !== 'string' ||
    !/^[A-Za-z]{3}$/.test(currency)
  ) {
    return { kind: 'invalid', message: WEBHOOK_MESSAGES.notPaymentIntent };
  }
  if (type !== 'payment_intent.succeeded' && type !== 'payment_intent.payment_failed') return { kind: 'ignored' };
  const error = object.last_payment_error as { message?: unknown } | null | undefined;
  return {
    kind: 'settle',
    id,
    status: type === 'payment_intent.succeeded' ? 'succeeded' : 'failed',
    amount: amount as number,
    currency,
    failureMessage: typeof error?.message === 'string' ? error.message : null,
  };
}

/** Stripe's webhook for an endpoint secret: the signature checked over the raw body, then the PaymentIntent it settles read. */
export function stripeWebhookReader(
  secret: string,
): (raw: string, signature: string | undefined, now: Date) => CardWebhook {
  return (raw, signature, now) => {
    const reading = readWebhook(raw, signature, secret, now);
    if (reading.kind === 'unsigned') return { kind: 'refused', message: WEBHOOK_MESSAGES.signature };
    if (reading.kind === 'malformed') return { kind: 'refused', message: WEBHOOK_MESSAGES.notJson };
    const intent = intentEvent(reading.event);
    return intent.kind === 'invalid' ? { kind: 'refused', message: intent.message } : intent;
  };
}
