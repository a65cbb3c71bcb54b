/**
 * What the processors tell the server on their own: Stripe's and TrueLayer's signed webhooks (their
 * signatures checked and their events read by their providers, server/providers/), and the card
 * return that reads a payment Stripe has settled before its webhook arrived. Each settles
 * the payment it names exactly as the others would, so a replay or a late webhook has no second effect.
 */
import type { Database } from '../../db/index.ts';
import { Refusal } from '../refusal.ts';
import type { BankProvider, BankWebhook } from './bank.ts';
import { findBankPayment, settleBankPayment } from './bankTransfer.ts';
import { settlePayment } from './payments.ts';
import type { CardProcessor, CardWebhook } from './processor.ts';
import { firstDeliveryOf } from './webhookEvents.ts';
import type { SeatingProvider } from '../seating/provider.ts';

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
export async function returnFromCard(
  db: Database,
  processor: CardProcessor,
  paymentIntentId: string | null,
  now: Date,
  seating: SeatingProvider | null,
): Promise<void> {
  if (!paymentIntentId || processor.name !== 'stripe') return;
  const found = await processor.retrieve(paymentIntentId).catch(() => null);
  if (!found) return;
  await settleQuietly(
    settlePayment(db, processor, { provider: 'stripe', providerPaymentId: paymentIntentId, ...found }, now, seating),
  );
}

/** Stripe's webhook, as its provider read it: a payment_intent event that succeeded or failed settles its payment. */
export async function receiveStripeWebhook(
  db: Database,
  processor: CardProcessor,
  webhook: CardWebhook,
  now: () => Date,
  seating: SeatingProvider | null,
): Promise<WebhookReceipt> {
  if (webhook.kind === 'refused') return webhook;
  if (webhook.kind === 'ignored') return RECEIVED;
  await settleQuietly(
    settlePayment(
      db,
      processor,
      {
        provider: 'stripe',
        providerPaymentId: webhook.id,
        status: webhook.status,
        amount: webhook.amount,
        currency: webhook.currency,
        failureMessage: webhook.failureMessage,
      },
      now(),
      seating,
    ),
  );
  return RECEIVED;
}

/** TrueLayer's webhook, as its provider read it: each event is taken once, and an executed or failed payment settles. */
export async function receiveBankWebhook(
  db: Database,
  bank: BankProvider,
  webhook: BankWebhook,
  now: () => Date,
  seating: SeatingProvider | null,
): Promise<WebhookReceipt> {
  if (webhook.kind === 'refused') return webhook;
  if (webhook.kind === 'ignored') return RECEIVED;
  if (webhook.eventId && !(await firstDeliveryOf(db, `truelayer:${webhook.eventId}`, now()))) return RECEIVED;
  const payment = await findBankPayment(db, bank, webhook.paymentId);
  if (!payment) return RECEIVED;
  await settleBankPayment(db, bank, payment, webhook.word, now(), seating);
  return RECEIVED;
}
