/**
 * Taking a sale's money: starting a card payment (one per sale and attempt, whatever the number
 * of submissions), settling it once from the processor's word (a webhook or the sandbox's own
 * result), booking the tickets through `completeSale`, and refunding a payment whose stock is gone.
 *
 * The hold while paying: starting a payment keeps the sale's holds up to the grace past their
 * deadline, so a payment the buyer began in time can finish. A payment settled after that is
 * booked if the stock is still free, otherwise refunded at once; the buyer is told which.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/index.ts';
import { holds, paymentRefunds, payments, salePaymentDetails, sales } from '../../db/schema.ts';
import { STEPS, type Step } from '../../../contract/index.ts';
import { PAYMENT_MESSAGES } from '../../../machines/payment/payment.messages.ts';
import { completeSale } from '../completeSale.ts';
import { DomainError } from '../errors.ts';
import { holdIsLive, lockSale, newSaleReference } from '../sales.ts';
import type { CardProcessor } from './processor.ts';
import { moveSaleSeatsDeadline } from '../seats.ts';

export type Payment = typeof payments.$inferSelect;

export const AMOUNT_MISMATCH_MESSAGE = 'The amount paid does not match the total of this sale, so it was not accepted.';
export const ALREADY_PAID_MESSAGE = 'This sale has already been paid for.';
export const REPLACED_MESSAGE = 'This payment was replaced by a new one for the changed basket.';
export const NOT_HELD_MESSAGE = 'Your tickets are no longer held for you. Please reserve them again.';

/** A refusal whose body tells the step that the hold is gone (spec 001 §8: back to the basket). */
export class HoldGone extends DomainError {
  constructor() {
    super(409, NOT_HELD_MESSAGE);
  }
}

async function detailsFor(tx: Pick<Executor, 'insert' | 'select'>, saleId: string) {
  await tx.insert(salePaymentDetails).values({ saleId }).onConflictDoNothing();
  const [row] = await tx.select().from(salePaymentDetails).where(eq(salePaymentDetails.saleId, saleId));
  return row!;
}

/**
 * The payment for the sale's current attempt: created once under the key `<sale>:<attempt>`;
 * every later call for the same attempt answers the same payment. `total` is the sale's total
 * as the checkout shows it now.
 */
export async function startCardPayment(
  db: Database,
  processor: CardProcessor,
  p: { saleId: string; total: number; currency: string; now: Date; graceMs: number },
): Promise<Payment> {
  return db.transaction(async (tx) => {
    const sale = await lockSale(tx, p.saleId);
    if (sale.paidAt) throw new DomainError(409, ALREADY_PAID_MESSAGE);
    if (!holdIsLive(sale, p.now) || !sale.holdDeadline) throw new HoldGone();
    if (p.total <= 0) throw new DomainError(409, PAYMENT_MESSAGES.unableToPay);
    const details = await detailsFor(tx, p.saleId);
    const idempotencyKey = `${p.saleId}:${details.attempt}`;
    const [existing] = await tx.select().from(payments).where(eq(payments.idempotencyKey, idempotencyKey));
    if (existing && existing.amount === p.total) return existing;
    if (existing) {
      // The total changed since this attempt began: a fresh attempt, so the processor sees a new key.
      await tx.update(salePaymentDetails).set({ attempt: details.attempt + 1 }).where(eq(salePaymentDetails.saleId, p.saleId));
      return startAttempt(tx, processor, p, `${p.saleId}:${details.attempt + 1}`, sale.holdDeadline);
    }
    return startAttempt(tx, processor, p, idempotencyKey, sale.holdDeadline);
  });
}

async function startAttempt(
  tx: Pick<Executor, 'insert' | 'select' | 'update'>,
  processor: CardProcessor,
  p: { saleId: string; total: number; currency: string; now: Date; graceMs: number },
  idempotencyKey: string,
  deadline: Date,
): Promise<Payment> {
  // An earlier attempt still open (the total has changed since) can no longer be paid.
  await tx
    .update(payments)
    .set({ status: 'failed', failureMessage: REPLACED_MESSAGE, settledAt: p.now })
    .where(and(eq(payments.saleId, p.saleId), inArray(payments.status, ['requires_payment_method', 'requires_action'])));
  const created = await processor.createPayment({ amount: p.total, currency: p.currency, idempotencyKey, saleId: p.saleId });
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
    })
    .onConflictDoNothing();
  // Payment in progress: the holds stay up to the grace past the hold's own deadline.
  await tx.update(holds).set({ deadline: new Date(deadline.getTime() + p.graceMs) }).where(eq(holds.saleId, p.saleId));
  await moveSaleSeatsDeadline(tx, p.saleId, new Date(deadline.getTime() + p.graceMs));
  await tx.update(salePaymentDetails).set({ paymentStartedAt: p.now, heldUntil: deadline, notice: null }).where(eq(salePaymentDetails.saleId, p.saleId));
  const [row] = await tx.select().from(payments).where(eq(payments.idempotencyKey, idempotencyKey));
  return row!;
}

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

/** Settles a payment once from the processor's word; replays have no second effect. */
export async function settlePayment(db: Database, processor: Pick<CardProcessor, 'refund'>, word: ProcessorWord, now: Date): Promise<Settlement> {
  return db.transaction(async (tx) => {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.provider, word.provider), eq(payments.providerPaymentId, word.providerPaymentId)))
      .for('update');
    if (!payment) throw new DomainError(404, 'No such payment');
    if (payment.status === 'failed' && word.status === 'succeeded') {
      // Money arrived for a payment given up here (replaced or refused): it goes straight back.
      await refund(tx, processor, payment, word.amount, 'succeeded after it was given up', now);
      return { effect: 'none', payment };
    }
    if (payment.status === 'succeeded' || payment.status === 'failed') return { effect: 'none', payment };
    if (word.status === 'requires_action') {
      const [updated] = await tx.update(payments).set({ status: 'requires_action' }).where(eq(payments.id, payment.id)).returning();
      return { effect: 'none', payment: updated! };
    }
    const details = await detailsFor(tx, payment.saleId);
    const nextAttempt = () => tx.update(salePaymentDetails).set({ attempt: details.attempt + 1, paymentStartedAt: null }).where(eq(salePaymentDetails.saleId, payment.saleId));
    if (word.status === 'failed') {
      const [updated] = await tx
        .update(payments)
        .set({ status: 'failed', failureMessage: word.failureMessage || PAYMENT_MESSAGES.unableToPay, settledAt: now })
        .where(eq(payments.id, payment.id))
        .returning();
      await nextAttempt();
      return { effect: 'failed', payment: updated! };
    }
    if (word.amount !== payment.amount || word.currency.toUpperCase() !== payment.currency.toUpperCase()) {
      const [updated] = await tx
        .update(payments)
        .set({ status: 'failed', failureMessage: AMOUNT_MISMATCH_MESSAGE, settledAt: now })
        .where(eq(payments.id, payment.id))
        .returning();
      await refund(tx, processor, updated!, word.amount, 'amount mismatch', now);
      await nextAttempt();
      return { effect: 'refused', payment: updated! };
    }
    const completion = await completeSale(tx, payment.saleId, now);
    const late = details.heldUntil !== null && now.getTime() > details.heldUntil.getTime();
    if (completion.booked) {
      const [updated] = await tx
        .update(payments)
        .set({ status: 'succeeded', outcome: 'booked', settledAt: now })
        .where(eq(payments.id, payment.id))
        .returning();
      await tx
        .update(salePaymentDetails)
        .set({ paymentStartedAt: null, notice: late ? PAYMENT_MESSAGES.lateBooked : null })
        .where(eq(salePaymentDetails.saleId, payment.saleId));
      if (late) await keepLateSaleOnPayment(tx, payment.saleId);
      return { effect: 'booked', late, payment: updated! };
    }
    const [updated] = await tx
      .update(payments)
      .set({ status: 'succeeded', outcome: 'refunded', settledAt: now })
      .where(eq(payments.id, payment.id))
      .returning();
    await refund(tx, processor, updated!, payment.amount, 'stock gone after the hold ended', now);
    await tx
      .update(salePaymentDetails)
      .set({ paymentStartedAt: null, attempt: details.attempt + 1, notice: PAYMENT_MESSAGES.lateRefunded })
      .where(eq(salePaymentDetails.saleId, payment.saleId));
    await tx.update(sales).set({ reservingError: PAYMENT_MESSAGES.lateRefunded }).where(eq(sales.id, payment.saleId));
    return { effect: 'refunded', payment: updated! };
  });
}

/**
 * A late payment's sale may have lost its reference and step when its hold lapsed: it is paid, so it
 * gets a reference again and stands at least on the payment step, from where the flow goes on.
 */
async function keepLateSaleOnPayment(tx: Pick<Executor, 'select' | 'update'>, saleId: string) {
  const [sale] = await tx.select({ reference: sales.reference, state: sales.state }).from(sales).where(eq(sales.id, saleId));
  const beforePayment = STEPS.indexOf(sale!.state as Step) < STEPS.indexOf('payment');
  await tx
    .update(sales)
    .set({ reference: sale!.reference ?? newSaleReference(), ...(beforePayment ? { state: 'payment' } : {}), reservingError: null })
    .where(eq(sales.id, saleId));
}

async function refund(tx: Pick<Executor, 'insert'>, processor: Pick<CardProcessor, 'refund'>, payment: Payment, amount: number, reason: string, now: Date) {
  const inserted = await tx.insert(paymentRefunds).values({ paymentId: payment.id, amount, reason, createdAt: now }).onConflictDoNothing().returning();
  if (inserted.length === 1) await processor.refund({ paymentId: payment.providerPaymentId, amount, idempotencyKey: `refund:${payment.idempotencyKey}` });
}

/** What the payment step tells the buyer: a late payment's outcome, else the last failed payment's message. */
export async function paymentError(db: Pick<Executor, 'select'>, saleId: string): Promise<string | null> {
  const [details] = await db.select().from(salePaymentDetails).where(eq(salePaymentDetails.saleId, saleId));
  if (details?.notice) return details.notice;
  const [last] = await db.select().from(payments).where(eq(payments.saleId, saleId)).orderBy(desc(payments.id)).limit(1);
  return last?.status === 'failed' ? last.failureMessage : null;
}

export async function findPaymentBySecret(db: Pick<Executor, 'select'>, clientSecret: string): Promise<Payment | null> {
  const [row] = await db.select().from(payments).where(eq(payments.clientSecret, clientSecret));
  return row ?? null;
}

/** Claims a zero-total sale's tickets: its holds become sold stock, no money changes hands. */
export async function claimFreeTickets(db: Database, p: { saleId: string; total: number; now: Date }): Promise<void> {
  await db.transaction(async (tx) => {
    const sale = await lockSale(tx, p.saleId);
    if (sale.paidAt) return;
    if (p.total !== 0) throw new DomainError(409, PAYMENT_MESSAGES.claimFree);
    if (!holdIsLive(sale, p.now)) throw new HoldGone();
    const completion = await completeSale(tx, p.saleId, p.now);
    if (!completion.booked) throw new DomainError(409, PAYMENT_MESSAGES.claimFree);
  });
}

/** Sums for the money-safety checks: what was taken and not refunded, and what sold sales total. */
export async function keptPayments(db: Pick<Executor, 'execute'>): Promise<number> {
  const result = (await db.execute(
    sql`SELECT COALESCE(sum(p.amount), 0)::int AS kept FROM payments p
        WHERE p.status = 'succeeded' AND NOT EXISTS (SELECT 1 FROM payment_refunds r WHERE r.payment_id = p.id)`,
  )) as unknown as { rows: { kept: number }[] };
  return Number(result.rows[0]!.kept);
}
