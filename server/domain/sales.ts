/** A visitor's sale: created lazily, locked while it changes, its hold released on edits. */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/index.ts';
import { holds, sales } from '../db/schema.ts';
import { STEPS, type Step } from '../../src/api/contract.ts';
import { DomainError } from './errors.ts';

export type Sale = typeof sales.$inferSelect;

export async function findSale(db: Pick<Executor, 'select'>, saleId: string | null): Promise<Sale | null> {
  if (!saleId) return null;
  const [sale] = await db.select().from(sales).where(eq(sales.id, saleId));
  return sale ?? null;
}

/** Returns the visitor's sale id, creating a sale when there is none yet. */
export async function ensureSale(db: Database, saleId: string | null, userId: number | null = null): Promise<string> {
  if (saleId && (await findSale(db, saleId))) return saleId;
  const id = randomUUID();
  await db.insert(sales).values({ id, userId });
  return id;
}

/** Locks the sale row for the rest of the transaction, so one visitor's edits apply in turn. */
export async function lockSale(tx: Pick<Executor, 'select'>, saleId: string): Promise<Sale> {
  const [sale] = await tx.select().from(sales).where(eq(sales.id, saleId)).for('update');
  if (!sale) throw new DomainError(404, 'Your basket could not be found. Please add your tickets again.');
  return sale;
}

export function holdIsLive(sale: Pick<Sale, 'holdDeadline'>, now: Date): boolean {
  return sale.holdDeadline !== null && sale.holdDeadline.getTime() > now.getTime();
}

export function secondsRemaining(sale: Pick<Sale, 'holdDeadline'>, now: Date): number {
  if (!sale.holdDeadline) return 0;
  return Math.max(0, Math.ceil((sale.holdDeadline.getTime() - now.getTime()) / 1000));
}

/** Gives the sale's stock back: the basket keeps its lines, the step returns to basket. */
export async function releaseHold(tx: Pick<Executor, 'delete' | 'update'>, saleId: string): Promise<void> {
  await tx.delete(holds).where(eq(holds.saleId, saleId));
  await tx
    .update(sales)
    .set({ reference: null, holdDeadline: null, state: 'basket' })
    .where(eq(sales.id, saleId));
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
  if (!STEPS.includes(state)) throw new DomainError(400, 'Unknown checkout step');
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
    .set({ basketErrors: [], basketSuccess: [], reservingError: null, hadMismatchingCurrencies: false, editBasketClicked: false })
    .where(eq(sales.id, saleId));
}

export const saleCount = sql<number>`count(*)::int`;
