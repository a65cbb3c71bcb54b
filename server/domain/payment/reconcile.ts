/**
 * Nothing is left open. The reconciliation job runs in the server process beside the sweeper; its
 * state is in the database, so any number of processes may run it at once: each claims its rows
 * with FOR UPDATE SKIP LOCKED and a lease (`check_after` or `retry_at` pushed ahead), so one payment
 * is worked by one process at a time.
 *
 * - A payment whose `check_after` has come (its grace is over, or a basket edit closed it) is asked
 *   about at its processor: money taken is settled as the processor's word would be (booked when it
 *   is for the basket as it is, else refunded); a payment still open there is cancelled and closed.
 * - A refund left pending (the processor refused or could not be reached) is asked for again, with
 *   a growing wait between tries, until the processor accepts it.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rows, type Database } from '../../db/index.ts';
import { paymentRefunds, payments } from '../../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { OPEN_STATUSES } from './paidFor.ts';
import { askForRefund, settlePayment, type Payment, type Refunder } from './payments.ts';
import type { SeatingProvider } from '../seating/provider.ts';

/** What a processor says of one of its payments. */
export interface ProcessorRecord {
  /** The processor's own id for the payment, when the ledger's row does not carry it yet (found by its key). */
  id?: string;
  status: 'succeeded' | 'failed' | 'processing';
  amount: number;
  currency: string;
  failureMessage: string | null;
}

/** The processor that took a payment, as the job needs it. */
export interface ProcessorLink {
  refunder: Refunder;
  /** Its own record of the payment; null when it keeps none apart from ours (the sandboxes settle here). */
  retrieve(providerPaymentId: string): Promise<ProcessorRecord | null>;
  /** Stops a payment nobody can finish here any more; nothing to do where the processor keeps no open payment. */
  cancel(providerPaymentId: string): Promise<void>;
  /** Takes a payment the processor only approved, once it is booked (Square's CompletePayment). */
  complete?(providerPaymentId: string): Promise<void>;
}

export type ProcessorLinks = (payment: Payment) => ProcessorLink;

export const NOT_COMPLETED_MESSAGE = 'This payment was not completed in time, so it was cancelled. Nothing was taken.';

/** How long a process keeps a claimed row before another may take it (a crash mid-way loses nothing). */
const LEASE_MS = 5 * 60_000;
/** How long to wait before asking again a processor that could not be reached. */
const ASK_AGAIN_MS = 10 * 60_000;

export interface ReconcileReport {
  asked: number;
  booked: number;
  refunded: number;
  closed: number;
  refundsDone: number;
  refundsPending: number;
}

export async function reconcilePayments(
  db: Database,
  links: ProcessorLinks,
  now: Date,
  seating: SeatingProvider | null = null,
  batch = 50,
): Promise<ReconcileReport> {
  const report: ReconcileReport = { asked: 0, booked: 0, refunded: 0, closed: 0, refundsDone: 0, refundsPending: 0 };
  const at = now.toISOString();
  const lease = new Date(now.getTime() + LEASE_MS).toISOString();
  const due = await rows<{ id: number }>(
    db,
    sql`UPDATE payments SET check_after = ${lease}::timestamptz
        WHERE id IN (SELECT id FROM payments WHERE check_after <= ${at}::timestamptz ORDER BY check_after, id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
  );
  for (const { id } of due) {
    const [payment] = await db.select().from(payments).where(eq(payments.id, id));
    if (!payment) continue;
    report.asked++;
    const link = links(payment);
    const record = await link.retrieve(payment.providerPaymentId).then(
      (r) => r,
      () => undefined,
    );
    if (record === undefined) {
      await db
        .update(payments)
        .set({ checkAfter: new Date(now.getTime() + ASK_AGAIN_MS) })
        .where(eq(payments.id, id));
      continue;
    }
    if (record && record.status !== 'processing') {
      // Found by its key: from now on the payment is known by the processor's own id.
      let providerPaymentId = payment.providerPaymentId;
      if (record.id && record.id !== providerPaymentId) {
        await db.update(payments).set({ providerPaymentId: record.id }).where(eq(payments.id, id));
        providerPaymentId = record.id;
      }
      const settled = await settlePayment(
        db,
        link.refunder,
        {
          provider: payment.provider,
          providerPaymentId,
          status: record.status,
          amount: record.amount,
          currency: record.currency,
          failureMessage: record.failureMessage,
        },
        now,
        seating,
      ).catch((err: unknown) => {
        if (err instanceof Refusal) return null;
        throw err;
      });
      if (settled?.effect === 'booked') {
        report.booked++;
        // Not taken until completed; left alone, the processor completes it itself at the end of its delay.
        await link.complete?.(providerPaymentId).catch(() => undefined);
      }
      if (settled?.effect === 'refunded' || settled?.effect === 'refused') report.refunded++;
      await db.update(payments).set({ checkAfter: null }).where(eq(payments.id, id));
      continue;
    }
    // Still open at the processor, or a processor that keeps no record: nobody can finish it now.
    try {
      await link.cancel(payment.providerPaymentId);
    } catch {
      await db
        .update(payments)
        .set({ checkAfter: new Date(now.getTime() + ASK_AGAIN_MS) })
        .where(eq(payments.id, id));
      continue;
    }
    const closed = await db
      .update(payments)
      .set({ status: 'failed', failureMessage: NOT_COMPLETED_MESSAGE, settledAt: now, checkAfter: null })
      .where(and(eq(payments.id, id), inArray(payments.status, [...OPEN_STATUSES])))
      .returning({ id: payments.id });
    if (closed.length === 0) await db.update(payments).set({ checkAfter: null }).where(eq(payments.id, id));
    else report.closed++;
  }

  const owed = await rows<{ id: number }>(
    db,
    sql`UPDATE payment_refunds SET retry_at = ${lease}::timestamptz
        WHERE id IN (SELECT id FROM payment_refunds WHERE status = 'pending' AND retry_at <= ${at}::timestamptz ORDER BY retry_at, id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
        RETURNING id`,
  );
  for (const { id } of owed) {
    const [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.id, id));
    const [payment] = row ? await db.select().from(payments).where(eq(payments.id, row.paymentId)) : [];
    if (!row || !payment) continue;
    if (await askForRefund(db, links(payment).refunder, payment, row, now)) report.refundsDone++;
    else report.refundsPending++;
  }
  return report;
}

/** Runs the job every `intervalMs` (one run at a time, in the process whose `turn` it is: see db/jobLease.ts) until stopped. */
export function startReconcileJob(
  db: Database,
  links: ProcessorLinks,
  seating: SeatingProvider | null,
  clock: () => Date,
  intervalMs: number,
  onError: (err: unknown) => void,
  turn: () => Promise<boolean> = async () => true,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    turn()
      .then(async (mine) => {
        if (mine) await reconcilePayments(db, links, clock(), seating);
      })
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
