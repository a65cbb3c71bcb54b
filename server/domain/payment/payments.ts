/**
 * Taking a sale's money: starting a card payment (one per sale and attempt, whatever the number
 * of submissions), settling it once from the processor's word (a webhook or the sandbox's own
 * result), booking the tickets through `completeSale`, and refunding a payment whose stock is gone.
 *
 * The hold while paying: starting a payment keeps the sale's holds up to the grace past their
 * deadline, so a payment the buyer began in time can finish. A payment settled after that is
 * booked if the stock is still free, otherwise refunded at once; the buyer is told which.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, like, sql } from 'drizzle-orm';
import { unchecked } from '../../../contract/unchecked.ts';
import type { Database, Executor } from '../../db/index.ts';
import { holds, instalmentPlans, paymentRefunds, payments, salePaymentDetails, sales } from '../../db/schema.ts';
import { buildCheckout } from '../checkout.ts';
import { closeOpenPayments, OPEN_STATUSES, paidForNow, stillPaysFor, type PaidFor } from './paidFor.ts';
import { stepRow } from '../../../contract/steps.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import { completeSale } from '../completeSale.ts';
import type { SeatingProvider } from '../seating/provider.ts';
import { Refusal } from '../refusal.ts';
import { holdIsLive, lockSale, newSaleReference, type Sale } from '../sales.ts';
import type { CardProcessor } from './processor.ts';
import { moveSaleSeatsDeadline } from '../seats.ts';

export type Payment = typeof payments.$inferSelect;

export const AMOUNT_MISMATCH_MESSAGE = 'The amount paid does not match the total of this sale, so it was not accepted.';
export const ALREADY_PAID_MESSAGE = 'This sale has already been paid for.';
export { REPLACED_MESSAGE } from './paidFor.ts';
export const BASKET_CHANGED_MESSAGE = 'Your basket has changed. Please check your total and pay again.';
export const NOT_HELD_MESSAGE = 'Your tickets are no longer held for you. Please reserve them again.';

/**
 * Money is taken only for a sale whose buyer is known: signed in, a proven address, or the address
 * express details gave for delivery (`buyer_email`). A client that skips the login step and express
 * is refused before anything is made.
 */
export function requireBuyer(sale: Pick<Sale, 'userId' | 'verifiedEmail'> & { buyerEmail?: string | null }): void {
  if (sale.userId === null && !sale.verifiedEmail && !sale.buyerEmail)
    throw new Refusal('no-account', PAYMENT_MESSAGES.noBuyer);
}

/** The refusal that tells a payment step the hold is gone (spec 001 §8: back to the basket). */
export function holdLost(): Refusal {
  return new Refusal('hold-lost', NOT_HELD_MESSAGE);
}

async function detailsFor(tx: Pick<Executor, 'insert' | 'select'>, saleId: string) {
  await tx.insert(salePaymentDetails).values({ saleId }).onConflictDoNothing();
  const [row] = await tx.select().from(salePaymentDetails).where(eq(salePaymentDetails.saleId, saleId));
  return row!;
}

/**
 * The sale's total read again under its lock. A payment is made for the total the buyer was shown
 * (`shown`): when the basket changed in between, the payment is refused and the buyer sees the new total.
 */
export async function totalUnderLock(tx: Executor, sale: Sale, shown: number, now: Date): Promise<number> {
  const checkout = await buildCheckout(tx, sale.id, now, { captchaSitekey: null, userId: sale.userId });
  if (checkout.basket_total !== shown) throw new Refusal('basket-changed', BASKET_CHANGED_MESSAGE);
  return checkout.basket_total;
}

/**
 * The payment for the sale's current attempt: created once under the key `<sale>:<attempt>`;
 * every later call for the same attempt and the same basket answers the same payment. `total` is
 * the sale's total as the checkout showed it; the basket is read again under the sale's lock.
 */
export async function startCardPayment(
  db: Database,
  processor: CardProcessor,
  p: { saleId: string; total: number; currency: string; now: Date; graceMs: number; seating?: SeatingProvider | null },
): Promise<Payment> {
  return db.transaction(async (tx) => {
    const sale = await lockSale(tx, p.saleId);
    if (sale.paidAt) throw new Refusal('already-paid', ALREADY_PAID_MESSAGE);
    if (!holdIsLive(sale, p.now) || !sale.holdDeadline) throw holdLost();
    requireBuyer(sale);
    if (p.total <= 0) throw new Refusal('conflict', PAYMENT_MESSAGES.unableToPay);
    const total = await totalUnderLock(tx, sale, p.total, p.now);
    const paidFor = await paidForNow(tx, p.saleId, sale.reference, total);
    const details = await detailsFor(tx, p.saleId);
    const idempotencyKey = `${p.saleId}:${details.attempt}`;
    const [existing] = await tx.select().from(payments).where(eq(payments.idempotencyKey, idempotencyKey));
    if (
      existing &&
      isOpen(existing) &&
      existing.provider === processor.name &&
      existing.amount === total &&
      existing.paidFor?.basket === paidFor.basket
    )
      return existing;
    if (existing) {
      // The basket changed since this attempt began, it ended, or another processor made it: a fresh attempt, so the processor sees a new key.
      await tx
        .update(salePaymentDetails)
        .set({ attempt: details.attempt + 1 })
        .where(eq(salePaymentDetails.saleId, p.saleId));
      return startAttempt(
        tx,
        processor,
        { ...p, total, seating: p.seating ?? null },
        paidFor,
        `${p.saleId}:${details.attempt + 1}`,
        sale.holdDeadline,
      );
    }
    return startAttempt(
      tx,
      processor,
      { ...p, total, seating: p.seating ?? null },
      paidFor,
      idempotencyKey,
      sale.holdDeadline,
    );
  });
}

const isOpen = (payment: Payment) => (OPEN_STATUSES as readonly string[]).includes(payment.status);

async function startAttempt(
  tx: Pick<Executor, 'insert' | 'select' | 'update'>,
  processor: CardProcessor,
  p: { saleId: string; total: number; currency: string; now: Date; graceMs: number; seating: SeatingProvider | null },
  paidFor: PaidFor,
  idempotencyKey: string,
  deadline: Date,
): Promise<Payment> {
  // An earlier attempt still open (the basket has changed since) can no longer be paid.
  await closeOpenPayments(tx, p.saleId);
  const created = await processor.createPayment({
    amount: p.total,
    currency: p.currency,
    idempotencyKey,
    saleId: p.saleId,
  });
  const keptUntil = new Date(deadline.getTime() + p.graceMs);
  await tx
    .insert(payments)
    .values({
      saleId: p.saleId,
      provider: processor.name,
      providerPaymentId: created.id,
      idempotencyKey,
      clientSecret: created.clientSecret,
      amount: p.total,
      currency: p.currency,
      status: 'requires_payment_method',
      createdAt: p.now,
      paidFor,
      // Past the grace nobody can finish it here: the reconciliation job asks the processor then.
      checkAfter: new Date(keptUntil.getTime() + RECONCILE_MARGIN_MS),
    })
    .onConflictDoNothing();
  // Payment in progress: the holds stay up to the grace past the hold's own deadline.
  await tx.update(holds).set({ deadline: keptUntil }).where(eq(holds.saleId, p.saleId));
  await moveSaleSeatsDeadline(tx, p.saleId, keptUntil, { seating: p.seating, now: p.now });
  await tx
    .update(salePaymentDetails)
    .set({ paymentStartedAt: p.now, heldUntil: deadline, notice: null })
    .where(eq(salePaymentDetails.saleId, p.saleId));
  const [row] = await tx.select().from(payments).where(eq(payments.idempotencyKey, idempotencyKey));
  return row!;
}

/** How long after a payment's grace the reconciliation job first asks its processor about it. */
export const RECONCILE_MARGIN_MS = 5 * 60_000;

export type Settlement =
  /** The word changed nothing: the payment was settled before (a replayed webhook or return). */
  | { effect: 'none'; payment: Payment }
  | { effect: 'failed'; payment: Payment }
  | { effect: 'booked'; late: boolean; payment: Payment }
  | { effect: 'refunded'; payment: Payment }
  | { effect: 'refused'; payment: Payment };

export interface ProcessorWord {
  provider: Payment['provider'];
  providerPaymentId: string;
  status: 'succeeded' | 'failed' | 'requires_action';
  amount: number;
  currency: string;
  failureMessage?: string | null;
}

/** Refunds a payment whose processor this side can reach: the one that took it. */
export type Refunder = Pick<CardProcessor, 'refund'>;

/**
 * Settles a payment once from the processor's word; replays have no second effect. Under the
 * sale's lock (taken before the payment's, as every basket edit takes it), money is booked only
 * when it is for this sale's basket as it is now and the sale is not paid already; any other money
 * that arrives is refunded in full and the buyer told why.
 */
export async function settlePayment(
  db: Database,
  processor: Refunder,
  word: ProcessorWord,
  now: Date,
  seating: SeatingProvider | null = null,
): Promise<Settlement> {
  const [found] = await db
    .select({ saleId: payments.saleId })
    .from(payments)
    .where(and(eq(payments.provider, word.provider), eq(payments.providerPaymentId, word.providerPaymentId)));
  if (!found) throw new Refusal('not-found', 'No such payment');
  return db.transaction(async (tx) => {
    // A sale purged since keeps its payments: then only the payment row is locked.
    const [sale] = await tx.select().from(sales).where(eq(sales.id, found.saleId)).for('update');
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.provider, word.provider), eq(payments.providerPaymentId, word.providerPaymentId)))
      .for('update');
    if (!payment) throw new Refusal('not-found', 'No such payment');
    if (payment.status === 'failed' && word.status === 'succeeded' && payment.outcome === null) {
      // Money arrived for a payment closed here (replaced, refused or given up): it goes straight back.
      const [updated] = await tx
        .update(payments)
        .set({ outcome: 'refunded', checkAfter: null })
        .where(eq(payments.id, payment.id))
        .returning();
      await refund(tx, processor, payment, word.amount, 'succeeded after it was closed', now);
      if (sale && !sale.paidAt) await tell(tx, payment.saleId, PAYMENT_MESSAGES.closedRefunded);
      return { effect: 'refunded', payment: updated! };
    }
    if (payment.status === 'succeeded' || payment.status === 'failed') return { effect: 'none', payment };
    if (word.status === 'requires_action') {
      const [updated] = await tx
        .update(payments)
        .set({ status: 'requires_action' })
        .where(eq(payments.id, payment.id))
        .returning();
      return { effect: 'none', payment: updated! };
    }
    const details = await detailsFor(tx, payment.saleId);
    const nextAttempt = () =>
      tx
        .update(salePaymentDetails)
        .set({ attempt: details.attempt + 1, paymentStartedAt: null })
        .where(eq(salePaymentDetails.saleId, payment.saleId));
    if (word.status === 'failed') {
      const [updated] = await tx
        .update(payments)
        .set({
          status: 'failed',
          failureMessage: word.failureMessage || PAYMENT_MESSAGES.unableToPay,
          settledAt: now,
          checkAfter: null,
        })
        .where(eq(payments.id, payment.id))
        .returning();
      await nextAttempt();
      return { effect: 'failed', payment: updated! };
    }
    if (word.amount !== payment.amount || word.currency.toUpperCase() !== payment.currency.toUpperCase()) {
      const [updated] = await tx
        .update(payments)
        .set({ status: 'failed', failureMessage: AMOUNT_MISMATCH_MESSAGE, settledAt: now, checkAfter: null })
        .where(eq(payments.id, payment.id))
        .returning();
      await refund(tx, processor, updated!, word.amount, 'amount mismatch', now);
      await nextAttempt();
      return { effect: 'refused', payment: updated! };
    }
    const refundAll = async (reason: string, message: string): Promise<Settlement> => {
      const [updated] = await tx
        .update(payments)
        .set({ status: 'succeeded', outcome: 'refunded', settledAt: now, checkAfter: null })
        .where(eq(payments.id, payment.id))
        .returning();
      await refund(tx, processor, updated!, payment.amount, reason, now);
      if (sale && !sale.paidAt) {
        await tx
          .update(salePaymentDetails)
          .set({ paymentStartedAt: null, attempt: details.attempt + 1, notice: message })
          .where(eq(salePaymentDetails.saleId, payment.saleId));
        await tx.update(sales).set({ reservingError: message }).where(eq(sales.id, payment.saleId));
      }
      return { effect: 'refunded', payment: updated! };
    };
    if (!sale) return refundAll('its sale is gone', PAYMENT_MESSAGES.lateRefunded);
    // Paid already (by another payment or a plan): this money is not needed.
    if (sale.paidAt) return refundAll('the sale was already paid', PAYMENT_MESSAGES.paidTwiceRefunded);
    const paidFor = payment.paidFor;
    if (!paidFor || paidFor.total !== payment.amount || !(await stillPaysFor(tx, payment.saleId, paidFor))) {
      return refundAll('the basket changed after the payment began', PAYMENT_MESSAGES.closedRefunded);
    }
    const completion = await completeSale(tx, payment.saleId, now, seating);
    const late = details.heldUntil !== null && now.getTime() > details.heldUntil.getTime();
    if (completion.booked) {
      const [updated] = await tx
        .update(payments)
        .set({ status: 'succeeded', outcome: 'booked', settledAt: now, checkAfter: null })
        .where(eq(payments.id, payment.id))
        .returning();
      await tx
        .update(salePaymentDetails)
        .set({ paymentStartedAt: null, notice: late ? PAYMENT_MESSAGES.lateBooked : null })
        .where(eq(salePaymentDetails.saleId, payment.saleId));
      if (late) await keepLateSaleOnPayment(tx, payment.saleId, paidFor.reference);
      return { effect: 'booked', late, payment: updated! };
    }
    return refundAll('stock gone after the hold ended', PAYMENT_MESSAGES.lateRefunded);
  });
}

/**
 * Money taken for a sale outside a card payment (a plan's first instalment) whose booking then
 * failed: it goes into the ledger as a payment taken and refunded, its refund is asked for at once
 * (and retried by the reconciliation job like any other), and the payment step tells the buyer.
 */
export async function refundUnbooked(
  tx: Pick<Executor, 'insert' | 'select' | 'update'>,
  refunder: Refunder,
  p: {
    saleId: string;
    provider: 'sandbox' | 'stripe';
    chargeId: string;
    idempotencyKey: string;
    amount: number;
    currency: string;
    reason: string;
    message: string;
    now: Date;
  },
): Promise<void> {
  await tx
    .insert(payments)
    .values({
      saleId: p.saleId,
      provider: p.provider,
      providerPaymentId: p.chargeId,
      idempotencyKey: p.idempotencyKey,
      // Never a card page's: the payment is settled from the start.
      clientSecret: `settled_${randomBytes(16).toString('hex')}`,
      amount: p.amount,
      currency: p.currency,
      status: 'succeeded',
      outcome: 'refunded',
      createdAt: p.now,
      settledAt: p.now,
      paidFor: null,
      checkAfter: null,
    })
    .onConflictDoNothing();
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.provider, p.provider), eq(payments.providerPaymentId, p.chargeId)));
  await refund(tx, refunder, payment!, p.amount, p.reason, p.now);
  await tx
    .insert(salePaymentDetails)
    .values({ saleId: p.saleId, notice: p.message })
    .onConflictDoUpdate({ target: salePaymentDetails.saleId, set: { notice: p.message } });
}

/** How many charges outside card payments a sale has had refunded (each later one needs a key of its own). */
export async function unbookedRefundsOf(tx: Pick<Executor, 'select'>, saleId: string, prefix: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(payments)
    .where(and(eq(payments.saleId, saleId), like(payments.idempotencyKey, `${prefix}%`)));
  return Number(row?.n ?? 0);
}

async function tell(tx: Pick<Executor, 'update'>, saleId: string, message: string) {
  await tx.update(salePaymentDetails).set({ notice: message }).where(eq(salePaymentDetails.saleId, saleId));
}

/**
 * A late payment's sale may have lost its reference and step when its hold lapsed: it is paid, so it
 * gets back the reference it was paid under (its donation belongs to that reservation) and stands at
 * least on the payment step, from where the flow goes on.
 */
async function keepLateSaleOnPayment(
  tx: Pick<Executor, 'select' | 'update'>,
  saleId: string,
  paidReference: string | null,
) {
  const [sale] = await tx
    .select({ reference: sales.reference, state: sales.state })
    .from(sales)
    .where(eq(sales.id, saleId));
  // A name that is no step (none is stored) counts as before the payment, as the sale has not reached it.
  const beforePayment = stepRow(sale!.state)?.beforePayment ?? true;
  await tx
    .update(sales)
    .set({
      reference: sale!.reference ?? paidReference ?? newSaleReference(),
      ...(beforePayment ? { state: 'payment' } : {}),
      reservingError: null,
    })
    .where(eq(sales.id, saleId));
}

/**
 * Owes the payment's money back: the refund is written in the settlement's transaction, then asked of
 * the processor. A processor that refuses or cannot be reached leaves the refund pending, retried by
 * the reconciliation job; it never undoes the settlement.
 */
async function refund(
  tx: Pick<Executor, 'insert' | 'update'>,
  processor: Refunder,
  payment: Payment,
  amount: number,
  reason: string,
  now: Date,
) {
  const inserted = await tx
    .insert(paymentRefunds)
    .values({ paymentId: payment.id, amount, reason, createdAt: now, status: 'pending', attempts: 0, retryAt: now })
    .onConflictDoNothing()
    .returning();
  if (inserted.length === 1) await askForRefund(tx, processor, payment, inserted[0]!, now);
}

/** Retries start a minute apart and wait at most six hours. */
export function refundRetryAt(attempts: number, now: Date): Date {
  return new Date(now.getTime() + Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 6 * 3600_000));
}

export async function askForRefund(
  tx: Pick<Executor, 'update'>,
  processor: Refunder,
  payment: Pick<Payment, 'providerPaymentId' | 'idempotencyKey'>,
  row: typeof paymentRefunds.$inferSelect,
  now: Date,
): Promise<boolean> {
  const attempts = row.attempts + 1;
  try {
    await processor.refund({
      paymentId: payment.providerPaymentId,
      amount: row.amount,
      idempotencyKey: `refund:${payment.idempotencyKey}`,
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await tx
      .update(paymentRefunds)
      .set({ attempts, retryAt: refundRetryAt(attempts, now), lastError: message.slice(0, 500) })
      .where(eq(paymentRefunds.id, row.id));
    return false;
  }
  await tx
    .update(paymentRefunds)
    .set({ status: 'done', attempts, retryAt: null, lastError: null })
    .where(eq(paymentRefunds.id, row.id));
  return true;
}

/**
 * What the payment step tells the buyer: a late payment's outcome, else the last failed payment's
 * message; nothing for a sale that is paid or has a plan (a card payment a plan replaced is not an error).
 */
export async function paymentError(db: Pick<Executor, 'select'>, saleId: string): Promise<string | null> {
  const [details] = await db.select().from(salePaymentDetails).where(eq(salePaymentDetails.saleId, saleId));
  if (details?.notice) return details.notice;
  const [sale] = await db.select({ paidAt: sales.paidAt }).from(sales).where(eq(sales.id, saleId));
  if (sale?.paidAt) return null;
  const [plan] = await db
    .select({ status: instalmentPlans.status })
    .from(instalmentPlans)
    .where(eq(instalmentPlans.saleId, saleId));
  if (plan) return null;
  const [last] = await db
    .select()
    .from(payments)
    .where(eq(payments.saleId, saleId))
    .orderBy(desc(payments.id))
    .limit(1);
  return last?.status === 'failed' ? last.failureMessage : null;
}

export async function findPaymentBySecret(db: Pick<Executor, 'select'>, clientSecret: string): Promise<Payment | null> {
  const [row] = await db.select().from(payments).where(eq(payments.clientSecret, clientSecret));
  return row ?? null;
}

/** Claims a zero-total sale's tickets: its holds become sold stock, no money changes hands. */
export async function claimFreeTickets(
  db: Database,
  p: { saleId: string; total: number; now: Date; seating?: SeatingProvider | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    const sale = await lockSale(tx, p.saleId);
    if (sale.paidAt) return;
    if (p.total !== 0) throw new Refusal('conflict', PAYMENT_MESSAGES.claimFree);
    if (!holdIsLive(sale, p.now)) throw holdLost();
    // The basket read again under the lock: free it must still be.
    await totalUnderLock(tx, sale, 0, p.now);
    const completion = await completeSale(tx, p.saleId, p.now, p.seating ?? null);
    if (!completion.booked) throw new Refusal('sold-out', PAYMENT_MESSAGES.claimFree);
  });
}

/** Sums for the money-safety checks: what was taken and not refunded, and what sold sales total. */
export async function keptPayments(db: Pick<Executor, 'execute'>): Promise<number> {
  // Both drivers answer a raw statement with its rows under `rows`.
  const result = unchecked<{ rows: { kept: number }[] }>(
    await db.execute(
      sql`SELECT COALESCE(sum(p.amount), 0)::int AS kept FROM payments p
          WHERE p.status = 'succeeded' AND NOT EXISTS (SELECT 1 FROM payment_refunds r WHERE r.payment_id = p.id)`,
    ),
  );
  return Number(result.rows[0]!.kept);
}
