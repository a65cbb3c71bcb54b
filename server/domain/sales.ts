/** A visitor's sale: created lazily, locked while it changes, its hold released on edits. */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { unchecked } from '../../contract/unchecked.ts';
import type { Database, Executor } from '../db/index.ts';
import { sales } from '../db/schema.ts';
import { STEPS, type Step } from '../../contract/index.ts';
import { stepsWhere } from '../../contract/steps.ts';
import { Refusal } from './refusal.ts';
import { releaseSaleHolds } from './stock.ts';
import { closeOpenPayments } from './payment/paidFor.ts';

export type Sale = typeof sales.$inferSelect;

export async function findSale(db: Pick<Executor, 'select'>, saleId: string | null): Promise<Sale | null> {
  if (!saleId) return null;
  const [sale] = await db.select().from(sales).where(eq(sales.id, saleId));
  return sale ?? null;
}

/** The id a visitor's first sale will have; nothing is written until something goes in it. */
export function newSaleId(): string {
  return randomUUID();
}

/** Writes the sale row inside the transaction that puts the first thing in it. */
export async function createSaleIfMissing(
  tx: Pick<Executor, 'insert'>,
  saleId: string,
  userId: number | null,
): Promise<void> {
  await tx.insert(sales).values({ id: saleId, userId }).onConflictDoNothing();
}

/** Locks the sale row for the rest of the transaction, so one visitor's edits apply in turn. */
export const SALE_NOT_FOUND_MESSAGE = 'Your basket could not be found. Please add your tickets again.';
export const PAID_SALE_MESSAGE = 'This order is complete, so its basket can no longer be changed.';

export async function lockSale(tx: Pick<Executor, 'select'>, saleId: string): Promise<Sale> {
  const [sale] = await tx.select().from(sales).where(eq(sales.id, saleId)).for('update');
  if (!sale) throw new Refusal('not-found', SALE_NOT_FOUND_MESSAGE);
  return sale;
}

/** Locks a sale whose basket is about to change: a paid sale's basket is what was paid for, and stays so. */
export async function lockOpenSale(tx: Pick<Executor, 'select'>, saleId: string): Promise<Sale> {
  const sale = await lockSale(tx, saleId);
  if (sale.paidAt) throw new Refusal('already-paid', PAID_SALE_MESSAGE);
  return sale;
}

export function holdIsLive(sale: Pick<Sale, 'holdDeadline'>, now: Date): boolean {
  return sale.holdDeadline !== null && sale.holdDeadline.getTime() > now.getTime();
}

export function secondsRemaining(sale: Pick<Sale, 'holdDeadline'>, now: Date): number {
  if (!sale.holdDeadline) return 0;
  return Math.max(0, Math.ceil((sale.holdDeadline.getTime() - now.getTime()) / 1000));
}

/**
 * Gives the sale's stock back: the basket keeps its lines, the step returns to basket. Every basket
 * edit comes through here, so a payment still open for the basket as it was is closed with it.
 */
export async function releaseHold(tx: Pick<Executor, 'execute' | 'update'>, saleId: string): Promise<void> {
  await releaseSaleHolds(tx, saleId);
  await closeOpenPayments(tx, saleId);
  await tx.update(sales).set({ reference: null, holdDeadline: null, state: 'basket' }).where(eq(sales.id, saleId));
}

export async function destroySale(db: Database, saleId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSale(tx, saleId);
    await releaseHold(tx, saleId);
    await tx.update(sales).set({ editBasketClicked: true, reservingError: null }).where(eq(sales.id, saleId));
  });
}

/** Saves the step the buyer is on and answers how long the hold has left. */
export async function updateBasketState(db: Database, saleId: string, state: Step, now: Date): Promise<number> {
  if (!STEPS.includes(state)) throw new Refusal('invalid-input', 'Unknown checkout step');
  return db.transaction(async (tx) => {
    const sale = await lockSale(tx, saleId);
    await tx.update(sales).set({ state }).where(eq(sales.id, saleId));
    return holdIsLive(sale, now) ? secondsRemaining(sale, now) : 0;
  });
}

/** A short reference a buyer can read out on the phone: no 0/O or 1/I. */
export function newSaleReference(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  return `HF-${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
}

export async function clearMessages(tx: Pick<Executor, 'update'>, saleId: string): Promise<void> {
  await tx
    .update(sales)
    .set({
      basketErrors: [],
      basketSuccess: [],
      reservingError: null,
      hadMismatchingCurrencies: false,
      editBasketClicked: false,
      touchedAt: sql`now()`,
    })
    .where(eq(sales.id, saleId));
}

export const saleCount = sql<number>`count(*)::int`;

/** An empty sale is kept this long (a buyer may be between removing a line and adding another). */
export const EMPTY_SALE_RETENTION_MS = 60 * 60_000;
/** An unpaid sale untouched this long is abandoned. */
export const ABANDONED_SALE_RETENTION_MS = 30 * 24 * 60 * 60_000;
/** Steps a sale reaches only once paid (the step table's `afterPayment`): such sales are the buyer's record and never purged here. */
const PAID_STEPS = stepsWhere('afterPayment');

/**
 * Deletes sales with nothing in them and unpaid sales long abandoned, never a paid one nor one
 * with hold rows (the sweeper releases expired holds first, keeping the pools' counts). Their lines
 * go with them. Answers how many sales were deleted.
 */
export async function purgeSales(db: Pick<Executor, 'execute'>, now: Date): Promise<number> {
  const at = now.toISOString();
  const emptyBefore = new Date(now.getTime() - EMPTY_SALE_RETENTION_MS).toISOString();
  const abandonedBefore = new Date(now.getTime() - ABANDONED_SALE_RETENTION_MS).toISOString();
  const deleted = await db.execute(
    sql`DELETE FROM sales s
        WHERE (s.hold_deadline IS NULL OR s.hold_deadline <= ${at}::timestamptz)
          AND s.paid_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM holds h WHERE h.sale_id = s.id)
          AND s.state NOT IN (${sql.join(
            PAID_STEPS.map((step) => sql`${step}`),
            sql`, `,
          )})
          AND (
            s.touched_at < ${abandonedBefore}::timestamptz
            OR (s.touched_at < ${emptyBefore}::timestamptz
                AND NOT EXISTS (SELECT 1 FROM sale_lines l WHERE l.sale_id = s.id)
                AND NOT EXISTS (SELECT 1 FROM sale_vouchers v WHERE v.sale_id = s.id))
          )
        RETURNING s.id`,
  );
  // Both drivers answer a raw statement with its rows under `rows`.
  return unchecked<{ rows: unknown[] }>(deleted).rows.length;
}
