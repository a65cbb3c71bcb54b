/**
 * Payment: the providers' payments and refunds, their webhook events, and the payment details a
 * sale's payment step saved.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, moment } from './columns.ts';
import { sales } from './sales.ts';

/** Payment providers: card processors, and banks for instant bank transfer. */
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe', 'square', 'truelayer', 'sandbox_bank'] as const;

/** What a payment was made for (payments.paid_for): `basket` is compared at settlement, `reference` restores a late sale's. */
export interface PaidFor {
  basket: string;
  reference: string | null;
  total: number;
}

/**
 * One payment attempt of a sale at a card processor (the sandbox processor or Stripe). The
 * idempotency key is the sale and its attempt number, so paying twice for one attempt charges
 * once; the provider's payment id is unique, so a webhook or return replayed has one effect.
 * `outcome` says what settling it did: booked the tickets, or refunded a late payment.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    /** No foreign key: a payment is a money record and outlives the purge of an abandoned sale. */
    saleId: text('sale_id').notNull(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    providerPaymentId: text('provider_payment_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    clientSecret: text('client_secret').notNull(),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['requires_payment_method', 'requires_action', 'succeeded', 'failed'] }).notNull(),
    failureMessage: text('failure_message'),
    outcome: text('outcome', { enum: ['booked', 'refunded'] }),
    createdAt: moment('created_at').notNull(),
    settledAt: moment('settled_at'),
    /**
     * What the payment is for: the basket as it stood when the payment was made (lines, vouchers,
     * discounts, refund protection, donation, delivery, currency, total) and the sale's reference.
     * Settlement books only when the basket still matches it.
     */
    paidFor: jsonb('paid_for').$type<PaidFor>(),
    /** When the reconciliation job next asks the processor about this payment; null once its word is in. */
    checkAfter: moment('check_after'),
  },
  (t) => [
    uniqueIndex('payments_provider_payment_id').on(t.provider, t.providerPaymentId),
    index('payments_check_after')
      .on(t.checkAfter)
      .where(sql`${t.checkAfter} IS NOT NULL`),
    uniqueIndex('payments_idempotency_key').on(t.idempotencyKey),
    index('payments_sale').on(t.saleId, t.id),
    check('payments_amount_positive', sql`${t.amount} >= 1`),
  ],
);

/**
 * The sandbox bank's answer to a bank payment the buyer approved slowly: the outcome arrives at
 * `settlesAt`, read by the status check or the sweeper, whichever comes first.
 */
export const sandboxBankDecisions = pgTable('sandbox_bank_decisions', {
  providerPaymentId: text('provider_payment_id').primaryKey(),
  outcome: text('outcome', { enum: ['approved', 'cancelled'] }).notNull(),
  settlesAt: moment('settles_at').notNull(),
});

/**
 * A refund of a whole payment: at most one per payment. It is owed from the moment it is written;
 * `pending` until the processor accepts it, retried at `retryAt` when the processor refused or failed.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    amount: money('amount').notNull(),
    reason: text('reason').notNull(),
    createdAt: moment('created_at').notNull(),
    status: text('status', { enum: ['pending', 'done'] })
      .notNull()
      .default('done'),
    attempts: integer('attempts').notNull().default(0),
    retryAt: moment('retry_at'),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('payment_refunds_payment').on(t.paymentId),
    index('payment_refunds_pending')
      .on(t.retryAt)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** Provider webhook events already handled, so a replayed event has no second effect. */
export const paymentWebhookEvents = pgTable('payment_webhook_events', {
  eventId: text('event_id').primaryKey(),
  receivedAt: moment('received_at').notNull(),
});

/**
 * What the payment step saved for a sale: the contact number, the billing address, the attempt
 * number of the next card payment, and when a payment started (the hold is then kept up to
 * PAYMENT_GRACE past its deadline). `notice` is a late payment's outcome told to the buyer.
 */
export const salePaymentDetails = pgTable('sale_payment_details', {
  saleId: text('sale_id')
    .primaryKey()
    .references(() => sales.id, { onDelete: 'cascade' }),
  contactNumber: text('contact_number'),
  billingAddress: jsonb('billing_address').$type<Record<string, string>>(),
  attempt: integer('attempt').notNull().default(1),
  paymentStartedAt: moment('payment_started_at'),
  /** The hold's own deadline when the payment started; the grace runs from here. */
  heldUntil: moment('held_until'),
  notice: text('notice'),
  /** The bank's return (spec 001 truelayer_returned_from): 1 back from the bank, 0 cancelled there; null before. */
  truelayerReturnedFrom: integer('truelayer_returned_from'),
});
