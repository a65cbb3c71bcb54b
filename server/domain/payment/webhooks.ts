/**
 * What the processors tell the server on their own: Stripe's and TrueLayer's signed webhooks, and
 * the card return that reads a payment Stripe has settled before its webhook arrived. Each settles
 * the payment it names exactly as the others would, so a replay or a late webhook has no second effect.
 */
import type { JsonWebKey } from 'node:crypto';
import type { Database } from '../../db/index.ts';
import { Refusal } from '../refusal.ts';
import type { BankProvider } from './bank.ts';
import { findBankPayment, settleBankPayment } from './bankTransfer.ts';
import { settlePayment } from './payments.ts';
import type { CardProcessor } from './processor.ts';
import { intentEvent, readWebhook, WEBHOOK_MESSAGES } from './stripe.ts';
import { verifyTruelayerWebhook, wordOfStatus, type TruelayerSettings } from './truelayer.ts';
import { firstDeliveryOf } from './webhookEvents.ts';

/** A webhook taken (whether or not it settled anything), or refused with why. */
export type WebhookReceipt = { kind: 'received' } | { kind: 'refused'; message: string };

const RECEIVED: WebhookReceipt = { kind: 'received' };

/** A payment the sale no longer wants (replaced, or its hold gone) is refused by the settlement: the processor is still answered. */
async function settleQuietly(settle: Promise<unknown>): Promise<void> {
  await settle.catch((err: unknown) => {
    if (!(err instanceof Refusal)) throw err;
  });
}

/** The card return: when Stripe keeps the payment's record and its webhook has not arrived yet, the record is read and settled. */
export async function returnFromCard(db: Database, processor: CardProcessor, paymentIntentId: string | null, now: Date): Promise<void> {
  if (!paymentIntentId || processor.name !== 'stripe') return;
  const found = await processor.retrieve(paymentIntentId).catch(() => null);
  if (!found) return;
  await settleQuietly(settlePayment(db, processor, { provider: 'stripe', providerPaymentId: paymentIntentId, ...found }, now));
}

/** Stripe's webhook: its signature covers the raw body; payment_intent events that succeeded or failed settle their payment. */
export async function receiveStripeWebhook(
  db: Database,
  processor: CardProcessor,
  delivery: { raw: string; signature: string | undefined; secret: string },
  now: () => Date,
): Promise<WebhookReceipt> {
  const reading = readWebhook(delivery.raw, delivery.signature, delivery.secret, now());
  if (reading.kind === 'unsigned') return { kind: 'refused', message: WEBHOOK_MESSAGES.signature };
  if (reading.kind === 'malformed') return { kind: 'refused', message: WEBHOOK_MESSAGES.notJson };
  const intent = intentEvent(reading.event);
  if (intent.kind === 'invalid') return { kind: 'refused', message: intent.message };
  if (intent.kind === 'ignored') return RECEIVED;
  await settleQuietly(
    settlePayment(
      db,
      processor,
      { provider: 'stripe', providerPaymentId: intent.id, status: intent.status, amount: intent.amount, currency: intent.currency, failureMessage: intent.failureMessage },
      now(),
    ),
  );
  return RECEIVED;
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

/** TrueLayer's webhook: signed over its path, headers and raw body; each event is taken once, and an executed or failed payment settles. */
export async function receiveTruelayerWebhook(
  db: Database,
  bank: BankProvider,
  delivery: { raw: string; signature: string | undefined; path: string; headers: Record<string, string | string[] | undefined> },
  verification: { environment: TruelayerSettings['environment']; fetchJwks: (url: string) => Promise<{ keys: JsonWebKey[] }> },
  now: () => Date,
): Promise<WebhookReceipt> {
  const valid = await verifyTruelayerWebhook(
    { signature: delivery.signature, path: delivery.path, headers: delivery.headers, body: delivery.raw },
    verification.environment,
    verification.fetchJwks,
  );
  if (!valid) return { kind: 'refused', message: TRUELAYER_WEBHOOK_MESSAGES.signature };
  // The signature covers the timestamp: an old delivery replayed is refused by its age.
  if (!truelayerWebhookIsFresh(delivery.headers, now())) return { kind: 'refused', message: TRUELAYER_WEBHOOK_MESSAGES.stale };
  let event: { event_id?: string; type?: string; payment_id?: string; failure_reason?: string };
  try {
    event = JSON.parse(delivery.raw) as typeof event;
  } catch {
    return { kind: 'refused', message: TRUELAYER_WEBHOOK_MESSAGES.notJson };
  }
  if (!event.payment_id || !event.type || !['payment_executed', 'payment_settled', 'payment_failed'].includes(event.type)) return RECEIVED;
  if (event.event_id && !(await firstDeliveryOf(db, `truelayer:${event.event_id}`, now()))) return RECEIVED;
  const payment = await findBankPayment(db, bank, event.payment_id);
  if (!payment) return RECEIVED;
  const word = event.type === 'payment_failed' ? wordOfStatus('failed', event.failure_reason) : wordOfStatus('executed');
  await settleBankPayment(db, bank, payment, word, now());
  return RECEIVED;
}
