/**
 * A paid (or free) sale becomes sold stock, in one transaction: the sale's holds go and each pool's
 * `sold` count moves by what the sale bought. The same statement that moves `sold` checks capacity
 * against every other live hold, so a payment that completes after its hold expired is booked only
 * when the stock is still free; otherwise nothing changes and the caller refunds. Completing twice
 * has one effect: the sale row is locked and `paid_at` is set once. A discount code's use becomes a
 * paid use.
 */
import { eq, sql } from 'drizzle-orm';
import { rows, type Executor } from '../db/index.ts';
import { eventDates, sales, saleLines, ticketTypes } from '../db/schema.ts';
import { lockSale } from './sales.ts';
import { lockPools, poolsHeldBy, releaseExpired, releaseSaleHolds } from './stock.ts';
import { sellSaleSeats } from './seats.ts';
import type { SeatingProvider } from './seating/provider.ts';

export type Completion = { booked: true; alreadyBooked: boolean } | { booked: false };

class StockGone extends Error {}

/**
 * Call inside a transaction (`tx`); the sale's row lock is held until it commits. `seating` is the
 * seating provider that keeps its own holds (seats.io when keyed): the sale's seats there are booked.
 */
export async function completeSale(
  tx: Pick<Executor, 'select' | 'update' | 'execute' | 'transaction'>,
  saleId: string,
  now: Date,
  seating: SeatingProvider | null = null,
): Promise<Completion> {
  const sale = await lockSale(tx, saleId);
  if (sale.paidAt) return { booked: true, alreadyBooked: true };
  const lines = await tx
    .select({ qty: saleLines.qty, typePool: ticketTypes.poolId, datePool: eventDates.poolId })
    .from(saleLines)
    .innerJoin(ticketTypes, eq(ticketTypes.id, saleLines.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
    .where(eq(saleLines.saleId, saleId));
  const perPool = new Map<number, number>();
  for (const l of lines) {
    for (const poolId of [l.datePool, ...(l.typePool ? [l.typePool] : [])])
      perPool.set(poolId, (perPool.get(poolId) ?? 0) + l.qty);
  }
  try {
    await tx.transaction(async (sp) => {
      await lockPools(sp, [...(await poolsHeldBy(sp, saleId)), ...perPool.keys()]);
      // The sale's seats become sold before its holds go, or nothing does.
      if (!(await sellSaleSeats(sp, saleId, now, seating))) throw new StockGone();
      await releaseSaleHolds(sp, saleId, { poolsLocked: true });
      for (const [poolId, qty] of [...perPool].sort(([a], [b]) => a - b)) {
        await releaseExpired(sp, poolId, now);
        const moved = await rows<{ id: number }>(
          sp,
          sql`UPDATE capacity_pools SET sold = sold + ${qty} WHERE id = ${poolId} AND sold + held + ${qty} <= capacity RETURNING id`,
        );
        if (moved.length !== 1) throw new StockGone();
      }
      // A code's paid uses are counted here; its held use ended with the hold. A code used up
      // meanwhile books nothing: the price paid was the code's.
      if (sale.discountCodeId !== null) {
        const counted = await rows<{ id: number }>(
          sp,
          sql`UPDATE discount_codes SET used = used + 1 WHERE id = ${sale.discountCodeId} AND (usage_limit IS NULL OR used < usage_limit) RETURNING id`,
        );
        if (counted.length !== 1) throw new StockGone();
      }
      await sp.update(sales).set({ paidAt: now, holdDeadline: null }).where(eq(sales.id, saleId));
    });
  } catch (err) {
    if (err instanceof StockGone) return { booked: false };
    throw err;
  }
  return { booked: true, alreadyBooked: false };
}
