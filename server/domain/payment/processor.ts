/**
 * A card processor as the payment domain sees it: it creates a payment for an amount under an
 * idempotency key, and refunds one. Two implementations: the sandbox processor served by this
 * server (payments are rows here) and Stripe, through its SDK, when keyed.
 */
import { z } from 'zod/mini';
import { SANDBOX_PUBLIC_KEY_PREFIX } from '../../../contract/index.ts';

export interface CreatedPayment {
  id: string;
  clientSecret: string;
}

export interface CardProcessor {
  name: 'sandbox' | 'stripe' | 'square';
  publicKey: string;
  createPayment(request: { amount: number; currency: string; idempotencyKey: string; saleId: string }): Promise<CreatedPayment>;
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
  status: 'succeeded' | 'failed' | 'requires_action';
  amount: number;
  currency: string;
  failureMessage: string | null;
}

/**
 * PAYMENT_GRACE (minutes), the Stripe keys and STRIPE_API_BASE (where Stripe's API is reached, by
 * default https://api.stripe.com; a local stand-in for tests), from the environment; invalid
 * values stop the start.
 */
const envSchema = z.object({
  PAYMENT_GRACE: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(60)), 10),
  STRIPE_PUBLISHABLE_KEY: z.optional(z.string().check(z.regex(/^pk_/, 'must start with pk_'))),
  STRIPE_SECRET_KEY: z.optional(z.string().check(z.regex(/^sk_|^rk_/, 'must start with sk_ or rk_'))),
  STRIPE_WEBHOOK_SECRET: z.optional(z.string().check(z.regex(/^whsec_/, 'must start with whsec_'))),
  STRIPE_API_BASE: z.optional(z.string().check(z.regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be http(s)://host[:port] with no path'))),
});

/** Where the Stripe SDK sends its requests. */
export interface StripeApiBase {
  protocol: 'http' | 'https';
  host: string;
  port: number;
}

function apiBaseOf(value: string | undefined): StripeApiBase | null {
  if (!value) return null;
  const url = new URL(value);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { protocol, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443 };
}

export interface PaymentSettings {
  /** How long past its deadline a hold is kept while a payment started in time is finishing. */
  graceMs: number;
  stripe: StripeSettings | null;
}

export interface StripeSettings {
  publishableKey: string;
  secretKey: string;
  webhookSecret: string | null;
  /** Null: Stripe's own API. */
  apiBase: StripeApiBase | null;
}

export function paymentSettings(env: Record<string, string | undefined>): PaymentSettings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid configuration. ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  return {
    graceMs: e.PAYMENT_GRACE * 60_000,
    stripe:
      e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_SECRET_KEY
        ? { publishableKey: e.STRIPE_PUBLISHABLE_KEY, secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null, apiBase: apiBaseOf(e.STRIPE_API_BASE) }
        : null,
  };
}

export const SANDBOX_PUBLIC_KEY = `${SANDBOX_PUBLIC_KEY_PREFIX}holdfast`;
