/**
 * Paying by instant bank transfer: the sale's bank payment is created once per attempt (idempotency
 * key `<sale>:<attempt>:bank`), the buyer goes to the bank's page with the payment-in-progress hold
 * (the sale's holds kept up to the grace past their deadline, as for a card), comes back to the
 * awaiting_truelayer step with the returned-from flag, and the status is read until the bank's word
 * settles the payment through `settlePayment` (so `completeSale` books the tickets, or a late
 * payment whose stock is gone is refunded).
 */
import { and, desc, eq, inArray, lte, ne } from 'drizzle-orm';
import type { Database, Executor } from '../../db/index.ts';
import { holds, payments, salePaymentDetails, sales, sandboxBankDecisions, users } from '../../db/schema.ts';
import type { TruelayerStatus } from '../../../contract/index.ts';
import { BANK_TRANSFER_MESSAGES } from '../../../contract/messages/bankTransfer.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import { Refusal } from '../refusal.ts';
import { findSale, holdIsLive, lockSale } from '../sales.ts';
import { paymentKeptUntil } from '../checkout/reads.ts';
import type { BankProvider, BankWord } from './bank.ts';
import {
  ALREADY_PAID_MESSAGE,
  holdLost,
  REPLACED_MESSAGE,
  requireBuyer,
  settlePayment,
  totalUnderLock,
  type Payment,
} from './payments.ts';
import { paidForNow } from './paidFor.ts';
import type { SeatingProvider } from '../seating/provider.ts';

/** A bank payment is asked about an hour past its hold's deadline (the grace is at most that). */
const BANK_RECONCILE_AFTER_MS = 65 * 60_000;

export const NO_BANK_PAYMENT_MESSAGE = 'There is no bank payment for this checkout.';

async function detailsFor(tx: Pick<Executor, 'insert' | 'select'>, saleId: string) {
  await tx.insert(salePaymentDetails).values({ saleId }).onConflictDoNothing();
  const [row] = await tx.select().from(salePaymentDetails).where(eq(salePaymentDetails.saleId, saleId));
  return row!;
}

const OPEN: Payment['status'][] = ['requires_payment_method', 'requires_action'];

/**
 * The bank payment of the sale's current attempt, created at the bank once; a changed total starts
 * a new attempt (the bank sees a new key) and the old payment can no longer be paid.
 */
export async function createBankPayment(
  db: Database,
  bank: BankProvider,
  p: { saleId: string; total: number; currency: string; now: Date },
): Promise<Payment> {
  return db.transaction(async (tx) => {
    const sale = await lockSale(tx, p.saleId);
    if (sale.paidAt) throw new Refusal('already-paid', ALREADY_PAID_MESSAGE);
    if (!holdIsLive(sale, p.now)) throw holdLost();
    requireBuyer(sale);
    if (p.total <= 0) throw new Refusal('conflict', PAYMENT_MESSAGES.unableToPay);
    const total = await totalUnderLock(tx, sale, p.total, p.now);
    const paidFor = await paidForNow(tx, p.saleId, sale.reference, total);
    let details = await detailsFor(tx, p.saleId);
    const [existing] = await tx
      .select()
      .from(payments)
      .where(eq(payments.idempotencyKey, `${p.saleId}:${details.attempt}:bank`));
    if (
      existing &&
      existing.amount === total &&
      OPEN.includes(existing.status) &&
      existing.paidFor?.basket === paidFor.basket
    )
      return existing;
    if (existing) {
      await tx
        .update(salePaymentDetails)
        .set({ attempt: details.attempt + 1 })
        .where(eq(salePaymentDetails.saleId, p.saleId));
      details = { ...details, attempt: details.attempt + 1 };
    }
    const idempotencyKey = `${p.saleId}:${details.attempt}:bank`;
    const [user] = sale.userId ? await tx.select().from(users).where(eq(users.id, sale.userId)) : [];
    const created = await bank.createPayment({
      amount: total,
      currency: p.currency,
      idempotencyKey,
      saleId: p.saleId,
      buyer: {
        id: sale.userId ? `user-${sale.userId}` : `sale-${p.saleId}`,
        name: user ? `${user.firstName} ${user.lastName}`.trim() : null,
        email: user?.email ?? null,
        phone: details.contactNumber,
      },
    });
    const [row] = await tx
      .insert(payments)
      .values({
        saleId: p.saleId,
        provider: bank.name,
        providerPaymentId: created.id,
        idempotencyKey,
        clientSecret: created.resourceToken,
        amount: total,
        currency: p.currency,
        status: 'requires_payment_method',
        createdAt: p.now,
        paidFor,
        // Asked about again once the hold and its grace are surely over, unless the bank's word came first.
        checkAfter: new Date((sale.holdDeadline?.getTime() ?? p.now.getTime()) + BANK_RECONCILE_AFTER_MS),
      })
      .returning();
    return row!;
  });
}

/**
 * Pay with the bank: the sale's bank payment (created now if create_truelayer_payment did not), any
 * other open payment of the sale given up, the holds kept for the time at the bank, and the page to go to.
 */
export async function startBankPayment(
  db: Database,
  bank: BankProvider,
  p: {
    saleId: string;
    total: number;
    currency: string;
    now: Date;
    graceMs: number;
    contactNumber?: string;
    returnUri: string;
  },
): Promise<{ authUrl: string; payment: Payment }> {
  // Refused before the contact number is kept: a refused payment changes nothing.
  const sale = await findSale(db, p.saleId);
  if (sale) requireBuyer(sale);
  if (p.contactNumber !== undefined) {
    await detailsFor(db, p.saleId);
    await db
      .update(salePaymentDetails)
      .set({ contactNumber: p.contactNumber })
      .where(eq(salePaymentDetails.saleId, p.saleId));
  }
  const payment = await createBankPayment(db, bank, p);
  await db.transaction(async (tx) => {
    const sale = await lockSale(tx, p.saleId);
    if (!holdIsLive(sale, p.now) || !sale.holdDeadline) throw holdLost();
    // Any other payment of the sale still open (a card started earlier) can no longer be paid.
    await tx
      .update(payments)
      .set({ status: 'failed', failureMessage: REPLACED_MESSAGE, settledAt: p.now })
      .where(and(eq(payments.saleId, p.saleId), inArray(payments.status, OPEN), ne(payments.id, payment.id)));
    await tx
      .update(holds)
      .set({ deadline: new Date(sale.holdDeadline.getTime() + p.graceMs) })
      .where(eq(holds.saleId, p.saleId));
    await tx
      .update(salePaymentDetails)
      .set({ paymentStartedAt: p.now, heldUntil: sale.holdDeadline, notice: null, truelayerReturnedFrom: null })
      .where(eq(salePaymentDetails.saleId, p.saleId));
  });
  return {
    authUrl: bank.paymentPageUrl({
      id: payment.providerPaymentId,
      resourceToken: payment.clientSecret,
      returnUri: p.returnUri,
    }),
    payment,
  };
}

export async function findBankPayment(
  db: Pick<Executor, 'select'>,
  bank: BankProvider,
  providerPaymentId: string,
): Promise<Payment | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, bank.name), eq(payments.providerPaymentId, providerPaymentId)));
  return row ?? null;
}

export async function findBankPaymentByToken(db: Pick<Executor, 'select'>, token: string): Promise<Payment | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, 'sandbox_bank'), eq(payments.clientSecret, token)));
  return row ?? null;
}

/** Settles a bank payment from the bank's word (a webhook, a poll of the bank, or the sandbox's decision). */
export async function settleBankPayment(
  db: Database,
  bank: BankProvider,
  payment: Payment,
  word: BankWord,
  now: Date,
  seating: SeatingProvider | null = null,
) {
  if (word.status === 'processing') return null;
  return settlePayment(
    db,
    bank,
    {
      provider: bank.name,
      providerPaymentId: payment.providerPaymentId,
      status: word.status,
      amount: payment.amount,
      currency: payment.currency,
      failureMessage: word.failureMessage,
    },
    now,
    seating,
  ).catch((err: unknown) => {
    if (!(err instanceof Refusal)) throw err;
    return null;
  });
}

/**
 * The buyer is back from the bank: the sale stands at awaiting_truelayer with the returned-from flag
 * (0 when the buyer cancelled at the bank, whose payment is then given up). Only the sale that made
 * the payment is moved.
 */
export async function returnFromBank(
  db: Database,
  bank: BankProvider,
  p: {
    saleId: string | null;
    providerPaymentId: string;
    cancelled: boolean;
    now: Date;
    seating?: SeatingProvider | null;
  },
): Promise<boolean> {
  const payment = await findBankPayment(db, bank, p.providerPaymentId);
  if (!payment || payment.saleId !== p.saleId) return false;
  if (p.cancelled)
    await settleBankPayment(
      db,
      bank,
      payment,
      { status: 'failed', failureMessage: BANK_TRANSFER_MESSAGES.cancelled },
      p.now,
      p.seating ?? null,
    );
  await detailsFor(db, payment.saleId);
  await db
    .update(salePaymentDetails)
    .set({ truelayerReturnedFrom: p.cancelled ? 0 : 1 })
    .where(eq(salePaymentDetails.saleId, payment.saleId));
  await db.update(sales).set({ state: 'awaiting_truelayer' }).where(eq(sales.id, payment.saleId));
  return true;
}

/** The sandbox bank's slow approvals whose time has come: settled by whoever looks first. */
export async function settleDueBankDecisions(
  db: Database,
  bank: BankProvider,
  now: Date,
  seating: SeatingProvider | null = null,
  saleId?: string,
): Promise<number> {
  const due = await db
    .select({ payment: payments, outcome: sandboxBankDecisions.outcome })
    .from(sandboxBankDecisions)
    .innerJoin(
      payments,
      and(
        eq(payments.provider, 'sandbox_bank'),
        eq(payments.providerPaymentId, sandboxBankDecisions.providerPaymentId),
      ),
    )
    .where(
      and(
        lte(sandboxBankDecisions.settlesAt, now),
        inArray(payments.status, OPEN),
        ...(saleId ? [eq(payments.saleId, saleId)] : []),
      ),
    );
  for (const { payment, outcome } of due) {
    await settleBankPayment(
      db,
      bank,
      payment,
      outcome === 'approved'
        ? { status: 'succeeded', failureMessage: null }
        : { status: 'failed', failureMessage: BANK_TRANSFER_MESSAGES.failed },
      now,
      seating,
    );
  }
  return due.length;
}

/** A slow approval at the sandbox bank: the payment is authorised now and paid `delayMs` later. */
export async function decideLater(
  db: Database,
  payment: Payment,
  outcome: 'approved' | 'cancelled',
  settlesAt: Date,
): Promise<void> {
  await db
    .insert(sandboxBankDecisions)
    .values({ providerPaymentId: payment.providerPaymentId, outcome, settlesAt })
    .onConflictDoUpdate({ target: sandboxBankDecisions.providerPaymentId, set: { outcome, settlesAt } });
  await db
    .update(payments)
    .set({ status: 'requires_action' })
    .where(and(eq(payments.id, payment.id), inArray(payments.status, OPEN)));
}

/**
 * get_truelayer_status: the bank's word is taken first (the sandbox's due decision, or TrueLayer's
 * record when its webhook has not come), then the sale's bank payment is told as processing,
 * completed or error, with the time the tickets are still held for.
 */
export async function bankTransferStatus(
  db: Database,
  bank: BankProvider,
  p: { saleId: string | null; now: Date; pollIntervalMs: number; seating?: SeatingProvider | null },
): Promise<TruelayerStatus> {
  const gone: TruelayerStatus = {
    checkout_expires_in: 0,
    payment_completed: false,
    reference: null,
    total: 0,
    currency: 'GBP',
    truelayer_status_error: PAYMENT_MESSAGES.lateRefunded,
    status: 'error',
    poll_interval_ms: p.pollIntervalMs,
  };
  if (!p.saleId) return gone;
  const latest = async () =>
    (
      await db
        .select()
        .from(payments)
        .where(and(eq(payments.saleId, p.saleId!), eq(payments.provider, bank.name)))
        .orderBy(desc(payments.id))
        .limit(1)
    )[0];
  let payment = await latest();
  if (!payment) throw new Refusal('not-found', NO_BANK_PAYMENT_MESSAGE);
  if (OPEN.includes(payment.status)) {
    if (bank.name === 'sandbox_bank') await settleDueBankDecisions(db, bank, p.now, p.seating ?? null, p.saleId);
    else {
      const word = await bank.retrieve(payment.providerPaymentId).catch(() => null);
      if (word) await settleBankPayment(db, bank, payment, word, p.now, p.seating ?? null);
    }
    payment = (await latest())!;
  }
  const [sale] = await db.select().from(sales).where(eq(sales.id, p.saleId));
  if (!sale) return gone;
  const keptUntil = (await paymentKeptUntil(db, sale.id, p.now)) ?? sale.holdDeadline;
  const expiresIn = keptUntil ? Math.ceil((keptUntil.getTime() - p.now.getTime()) / 1000) : 0;
  const paid = sale.paidAt !== null;
  const refunded = payment.outcome === 'refunded';
  return {
    checkout_expires_in: paid ? Math.max(0, expiresIn) : refunded ? Math.min(0, expiresIn) : expiresIn,
    payment_completed: paid,
    reference: sale.reference,
    total: payment.amount,
    currency: payment.currency,
    truelayer_status_error: paid
      ? null
      : refunded
        ? PAYMENT_MESSAGES.lateRefunded
        : payment.status === 'failed'
          ? payment.failureMessage
          : null,
    status: paid ? 'completed' : refunded || payment.status === 'failed' ? 'error' : 'processing',
    poll_interval_ms: p.pollIntervalMs,
  };
}
