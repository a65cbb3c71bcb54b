/**
 * Instalment plans (spec 001 §2, §4, §7, §9) and the sandbox processor's cards and charges.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, moment } from './columns.ts';
import { users, savedPaymentMethods } from './accounts.ts';

/**
 * A sale paid by instalments: its schedule lives in `instalments`. `status` is authenticating while
 * the buyer's bank confirms the first instalment, then active until the final payment (completed)
 * or until a charge has failed every retry (failed).
 */
export const instalmentPlans = pgTable('instalment_plans', {
  saleId: text('sale_id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id),
  option: text('option').notNull(),
  currency: text('currency').notNull(),
  total: money('total').notNull(),
  paymentMethodId: integer('payment_method_id')
    .notNull()
    .references(() => savedPaymentMethods.id),
  contactNumber: text('contact_number').notNull(),
  status: text('status', { enum: ['authenticating', 'active', 'completed', 'failed'] }).notNull(),
  createdAt: moment('created_at').notNull(),
  completedAt: moment('completed_at'),
});

/**
 * One payment of a plan. The job charges a scheduled one when `next_attempt_at` has come, under
 * the key `instalment:<id>:<attempt>`, holding the row's lock while it charges: a second runner
 * skips a locked row and finds it paid once the first commits, so no instalment is charged twice.
 */
export const instalments = pgTable(
  'instalments',
  {
    id: serial('id').primaryKey(),
    saleId: text('sale_id')
      .notNull()
      .references(() => instalmentPlans.saleId),
    seq: integer('seq').notNull(),
    dueAt: moment('due_at').notNull(),
    amount: money('amount').notNull(),
    status: text('status', { enum: ['scheduled', 'paid', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: moment('next_attempt_at').notNull(),
    reminderSentAt: moment('reminder_sent_at'),
    paidAt: moment('paid_at'),
    providerPaymentId: text('provider_payment_id'),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('instalments_sale_seq').on(t.saleId, t.seq),
    index('instalments_due').on(t.status, t.nextAttemptAt),
    check('instalments_amount_positive', sql`${t.amount} >= 1`),
  ],
);

/**
 * The sandbox processor's own records: cards it tokenised (a saved card `pm_sandbox_…` or a
 * Square-style single-use nonce `cnon:sandbox-…`), and every charge it took, once per
 * idempotency key, as a real processor keeps them.
 */
export const sandboxCards = pgTable('sandbox_cards', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['payment_method', 'nonce'] }).notNull(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expMonth: integer('exp_month').notNull(),
  expYear: integer('exp_year').notNull(),
  funding: text('funding').notNull(),
  /** What charging the card does: test numbers decline, run short, or fail only when charged later. */
  behaviour: text('behaviour', {
    enum: ['approve', 'decline', 'insufficient_funds', 'fail_off_session', 'challenge'],
  }).notNull(),
  createdAt: moment('created_at').notNull(),
  usedAt: moment('used_at'),
});

export const sandboxCharges = pgTable('sandbox_charges', {
  id: text('id').primaryKey(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  cardId: text('card_id')
    .notNull()
    .references(() => sandboxCards.id),
  amount: money('amount').notNull(),
  currency: text('currency').notNull(),
  /**
   * A charge taken at once is succeeded; a Square-style charge not completed at once is approved
   * until completed (succeeded) or cancelled; a succeeded charge given back is refunded.
   */
  status: text('status', { enum: ['succeeded', 'failed', 'approved', 'cancelled', 'refunded'] }).notNull(),
  failureMessage: text('failure_message'),
  createdAt: moment('created_at').notNull(),
});
/* ---------- Seat selection (spec 001 §2 Seat-selection page, §3 Seat-plan info, §5 Seat selection) ---------- */
