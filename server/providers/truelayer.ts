/**
 * TrueLayer (Payments API v3) when keyed: an access token by client credentials, payments created
 * with an Idempotency-Key and a `Tl-Signature`, the hosted payment page, the payment's status read
 * back (the fallback to the webhook), refunds, and the webhook's signature checked against
 * TrueLayer's published keys (the `jku` must be TrueLayer's own address for the environment).
 * Signatures, made and checked, are TrueLayer's own library's (`truelayer-signing`: a JWS with
 * detached payload, ES512, tl_version 2). Every request goes through an injected `fetch`.
 */
import { createPrivateKey, type JsonWebKey } from 'node:crypto';
import * as tlSigning from 'truelayer-signing';
import { z } from 'zod/mini';
import type { TruelayerSettings } from '../config.ts';
import type { BankProvider, BankWebhook, BankWebhookDelivery, BankWord } from '../domain/payment/bank.ts';
import { BANK_TRANSFER_MESSAGES } from '../../contract/messages/bankTransfer.ts';

const HOSTS = {
  sandbox: {
    auth: 'https://auth.truelayer-sandbox.com',
    api: 'https://api.truelayer-sandbox.com',
    hpp: 'https://payment.truelayer-sandbox.com',
    jku: 'https://webhooks.truelayer-sandbox.com/.well-known/jwks',
  },
  production: {
    auth: 'https://auth.truelayer.com',
    api: 'https://api.truelayer.com',
    hpp: 'https://payment.truelayer.com',
    jku: 'https://webhooks.truelayer.com/.well-known/jwks',
  },
} as const;

export const truelayerHosts = (environment: TruelayerSettings['environment']) => HOSTS[environment];

/** TrueLayer signs the time it sent a webhook: a signature that does not cover it is refused. */
const WEBHOOK_SIGNED_HEADERS = ['X-Tl-Webhook-Timestamp'];

/**
 * Checks a webhook's `Tl-Signature` with TrueLayer's library: the `jku` must be the environment's
 * own, the key is found by `kid` in the JWKS read from it, and the signature must cover the path,
 * the headers it lists (with the values received, the timestamp among them) and the raw body.
 */
export async function verifyTruelayerWebhook(
  p: {
    signature: string | undefined;
    path: string;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  },
  environment: TruelayerSettings['environment'],
  fetchJwks: (url: string) => Promise<{ keys: JsonWebKey[] }>,
): Promise<boolean> {
  if (!p.signature) return false;
  let jku: string | undefined;
  try {
    jku = tlSigning.extractJku(p.signature);
  } catch {
    return false;
  }
  if (jku !== HOSTS[environment].jku) return false;
  const jwks = await fetchJwks(jku).catch(() => null);
  if (!jwks || !Array.isArray(jwks.keys)) return false;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(p.headers)) {
    const one = Array.isArray(value) ? value[0] : value;
    if (one !== undefined) headers[name.toLowerCase()] = one;
  }
  try {
    tlSigning.verify({
      jwks: JSON.stringify(jwks),
      signature: p.signature,
      method: 'POST' as tlSigning.HttpMethod,
      path: p.path,
      body: p.body,
      headers,
      requiredHeaders: WEBHOOK_SIGNED_HEADERS,
    });
    return true;
  } catch {
    return false;
  }
}

export const TRUELAYER_WEBHOOK_MESSAGES = {
  signature: 'The webhook signature does not match',
  notJson: 'The webhook body is not JSON',
  stale: 'The webhook was not sent within the last five minutes (X-Tl-Webhook-Timestamp)',
} as const;

/** How far a TrueLayer webhook's signed time may be from ours, either way: a replayed old one is refused. */
export const TRUELAYER_WEBHOOK_TOLERANCE_MS = 5 * 60_000;

/** Whether the signed X-Tl-Webhook-Timestamp (RFC 3339) is within the tolerance of `now`. */
export function truelayerWebhookIsFresh(headers: Record<string, string | string[] | undefined>, now: Date): boolean {
  const raw = Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-tl-webhook-timestamp')?.[1];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return false;
  const sent = Date.parse(value);
  return Number.isFinite(sent) && Math.abs(now.getTime() - sent) <= TRUELAYER_WEBHOOK_TOLERANCE_MS;
}

/**
 * TrueLayer's webhook for the environment: signed over its path, headers and raw body (the keys
 * read with `fetchJwks`), sent within the tolerance, and an executed, settled or failed payment
 * read as the bank's word on it.
 */
export function truelayerWebhookReader(
  environment: TruelayerSettings['environment'],
  fetchJwks: (url: string) => Promise<{ keys: JsonWebKey[] }>,
): (delivery: BankWebhookDelivery, now: Date) => Promise<BankWebhook> {
  return async (delivery, now) => {
    const valid = await verifyTruelayerWebhook(
      { signature: delivery.signature, path: delivery.path, headers: delivery.headers, body: delivery.raw },
      environment,
      fetchJwks,
    );
    if (!valid) return { kind: 'refused', message: TRUELAYER_WEBHOOK_MESSAGES.signature };
    // The signature covers the timestamp: an old delivery replayed is refused by its age.
    if (!truelayerWebhookIsFresh(delivery.headers, now))
      return { kind: 'refused', message: TRUELAYER_WEBHOOK_MESSAGES.stale };
    let event: { event_id?: unknown; type?: unknown; payment_id?: unknown; failure_reason?: unknown };
    try {
      event = JSON.parse(delivery.raw) as typeof event;
    } catch {
      return { kind: 'refused', message: TRUELAYER_WEBHOOK_MESSAGES.notJson };
    }
    if (typeof event !== 'object' || event === null) return { kind: 'ignored' };
    const { event_id: eventId, type, payment_id: paymentId, failure_reason: reason } = event;
    if (
      typeof paymentId !== 'string' ||
      !paymentId ||
      typeof type !== 'string' ||
      !['payment_executed', 'payment_settled', 'payment_failed'].includes(type)
    )
      return { kind: 'ignored' };
    const word =
      type === 'payment_failed'
        ? wordOfStatus('failed', typeof reason === 'string' ? reason : undefined)
        : wordOfStatus('executed');
    return { kind: 'settle', eventId: typeof eventId === 'string' && eventId ? eventId : null, paymentId, word };
  };
}

const tokenReply = z.object({ access_token: z.string(), expires_in: z.number() });
const createdReply = z.object({ id: z.string(), resource_token: z.string() });
const statusReply = z.object({ status: z.string(), failure_reason: z.optional(z.string()) });

/** TrueLayer's statuses as this checkout sees them: executed (or settled) is paid; failed is not; the rest are still at the bank. */
export function wordOfStatus(status: string, failureReason?: string): BankWord {
  if (status === 'executed' || status === 'settled') return { status: 'succeeded', failureMessage: null };
  if (status === 'failed')
    return {
      status: 'failed',
      failureMessage: failureReason === 'canceled' ? BANK_TRANSFER_MESSAGES.cancelled : BANK_TRANSFER_MESSAGES.failed,
    };
  return { status: 'processing', failureMessage: null };
}

export function truelayerBank(
  settings: TruelayerSettings,
  fetchImpl: typeof fetch = fetch,
  clock: () => Date = () => new Date(),
): BankProvider {
  const hosts = HOSTS[settings.environment];
  // A key that cannot be read stops the start, not the first payment.
  createPrivateKey(settings.signingPrivateKey);
  let token: { value: string; until: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && token.until > clock().getTime()) return token.value;
    const response = await fetchImpl(`${hosts.auth}/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        scope: 'payments',
      }).toString(),
    });
    if (!response.ok) throw new Error(`TrueLayer token: ${response.status}`);
    const reply = tokenReply.parse(await response.json());
    token = { value: reply.access_token, until: clock().getTime() + (reply.expires_in - 60) * 1000 };
    return token.value;
  }

  async function signedPost(path: string, idempotencyKey: string, body: unknown): Promise<unknown> {
    const json = JSON.stringify(body);
    const response = await fetchImpl(`${hosts.api}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await accessToken()}`,
        'content-type': 'application/json',
        'Idempotency-Key': idempotencyKey,
        'Tl-Signature': tlSigning.sign({
          kid: settings.signingKeyId,
          privateKeyPem: settings.signingPrivateKey,
          method: 'POST' as tlSigning.HttpMethod,
          path,
          headers: { 'Idempotency-Key': idempotencyKey },
          body: json,
        }),
      },
      body: json,
    });
    if (!response.ok) throw new Error(`TrueLayer ${path}: ${response.status}`);
    return response.status === 204 ? null : response.json();
  }

  return {
    name: 'truelayer',
    async createPayment({ amount, currency, idempotencyKey, buyer }) {
      const reply = createdReply.parse(
        await signedPost('/v3/payments', idempotencyKey, {
          amount_in_minor: amount,
          currency: currency.toUpperCase(),
          payment_method: {
            type: 'bank_transfer',
            provider_selection: { type: 'user_selected' },
            beneficiary: { type: 'merchant_account', merchant_account_id: settings.merchantAccountId },
          },
          user: {
            id: buyer.id,
            ...(buyer.name ? { name: buyer.name } : {}),
            ...(buyer.email ? { email: buyer.email } : {}),
            ...(buyer.phone ? { phone: buyer.phone } : {}),
          },
        }),
      );
      return { id: reply.id, resourceToken: reply.resource_token };
    },
    paymentPageUrl: ({ id, resourceToken, returnUri }) =>
      `${hosts.hpp}/#${new URLSearchParams({ payment_id: id, resource_token: resourceToken, return_uri: returnUri }).toString()}`,
    async retrieve(paymentId) {
      const response = await fetchImpl(`${hosts.api}/v3/payments/${encodeURIComponent(paymentId)}`, {
        headers: { authorization: `Bearer ${await accessToken()}` },
      });
      if (!response.ok) throw new Error(`TrueLayer payment: ${response.status}`);
      const reply = statusReply.parse(await response.json());
      return wordOfStatus(reply.status, reply.failure_reason);
    },
    async refund({ paymentId, amount, idempotencyKey }) {
      await signedPost(`/v3/payments/${encodeURIComponent(paymentId)}/refunds`, idempotencyKey, {
        amount_in_minor: amount,
        reference: 'Holdfast refund',
      });
    },
  };
}
