/**
 * A paid sale becomes sold stock once, and a payment that completes after its hold expired is
 * booked only while the stock is still free.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openTestDatabase } from '../db/testing.ts';
import { rows, type OpenDatabase } from '../db/index.ts';
import { capacityPools, sales } from '../db/schema.ts';
import { completeSale } from './completeSale.ts';
import { reserveSale } from './reserve.ts';
import { drivers } from '../test/harness.ts';
import { hotEvent, saleWith, taken } from '../test/fixtures.ts';

const CHECKOUT_TIME = 600;
const at = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000);

describe.each(drivers)('completing a sale on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(driver, 8);
  });
  afterAll(async () => database?.close());

  async function sold(poolId: number): Promise<number> {
    const [pool] = await database.db
      .select({ sold: capacityPools.sold })
      .from(capacityPools)
      .where(eq(capacityPools.id, poolId));
    return pool!.sold;
  }
  async function holdsOf(saleId: string): Promise<number> {
    const [row] = await rows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM holds WHERE sale_id = ${saleId}`,
    );
    return Number(row!.n);
  }

  it('turns a live hold into sold stock once, however many times it is completed at once', async () => {
    const { db } = database;
    const start = new Date('2026-07-01T12:00:00.000Z');
    const { poolId, types } = await hotEvent(db, { capacity: 5, types: 1 });
    const sale = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 3 }]);
    expect(await reserveSale(db, sale, start, CHECKOUT_TIME)).toMatchObject({ reserved: true });

    const paidAt = at(start, 60);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => db.transaction((tx) => completeSale(tx, sale, paidAt))),
    );
    expect(results.filter((r) => r.booked && !r.alreadyBooked)).toHaveLength(1);
    expect(results.every((r) => r.booked)).toBe(true);
    expect(await sold(poolId)).toBe(3);
    expect(await holdsOf(sale)).toBe(0);
    // Sold stock stays taken after the hold's deadline would have passed.
    expect(await taken(db, poolId, at(start, CHECKOUT_TIME * 3))).toBe(3);
    const [row] = await db.select({ paidAt: sales.paidAt }).from(sales).where(eq(sales.id, sale));
    expect(row!.paidAt).toEqual(paidAt);
  });

  it('books a late payment when the stock is still free', async () => {
    const { db } = database;
    const start = new Date('2026-07-02T12:00:00.000Z');
    const { poolId, types } = await hotEvent(db, { capacity: 2, types: 1 });
    const sale = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 2 }]);
    expect(await reserveSale(db, sale, start, CHECKOUT_TIME)).toMatchObject({ reserved: true });
    const late = at(start, CHECKOUT_TIME + 120);
    expect(await db.transaction((tx) => completeSale(tx, sale, late))).toEqual({ booked: true, alreadyBooked: false });
    expect(await sold(poolId)).toBe(2);
  });

  it('does not book a late payment whose stock another buyer now holds, and changes nothing', async () => {
    const { db } = database;
    const start = new Date('2026-07-03T12:00:00.000Z');
    const { poolId, types } = await hotEvent(db, { capacity: 2, types: 1 });
    const late = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 2 }]);
    expect(await reserveSale(db, late, start, CHECKOUT_TIME)).toMatchObject({ reserved: true });
    const other = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 1 }]);
    const afterExpiry = at(start, CHECKOUT_TIME + 10);
    expect(await reserveSale(db, other, afterExpiry, CHECKOUT_TIME)).toMatchObject({ reserved: true });

    expect(await db.transaction((tx) => completeSale(tx, late, at(start, CHECKOUT_TIME + 20)))).toEqual({
      booked: false,
    });
    expect(await sold(poolId)).toBe(0);
    expect(await taken(db, poolId, at(start, CHECKOUT_TIME + 20))).toBe(1);
    const [row] = await db.select({ paidAt: sales.paidAt }).from(sales).where(eq(sales.id, late));
    expect(row!.paidAt).toBeNull();
  });
});
