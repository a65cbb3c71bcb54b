/**
 * A pool's `held` counter against its hold rows, after random interleavings of claims, expiries,
 * releases, more time, payments and sweeps run concurrently: the counter is always the sum of the
 * pool's hold rows, a claim sees exactly the live ones, and sold plus live never passes capacity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openTestDatabase } from '../db/testing.ts';
import { rows, type OpenDatabase } from '../db/index.ts';
import { capacityPools } from '../db/schema.ts';
import { completeSale } from './completeSale.ts';
import { extendHold } from './hold.ts';
import { reserveSale } from './reserve.ts';
import { destroySale } from './sales.ts';
import { poolAvailability, sweepExpiredHolds } from './stock.ts';
import { drivers } from '../test/harness.ts';
import { hotEvent, salesWith, seededRandom, taken } from '../test/fixtures.ts';

const CHECKOUT_TIME = 60;

describe.each(drivers)('the pool’s held counter on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(driver, 8);
  });
  afterAll(async () => database?.close());

  async function counters(poolId: number) {
    const [pool] = await database.db.select().from(capacityPools).where(eq(capacityPools.id, poolId));
    const [sum] = await rows<{ n: number }>(
      database.db,
      sql`SELECT COALESCE(sum(qty), 0)::int AS n FROM holds WHERE pool_id = ${poolId}`,
    );
    return { held: pool!.held, rows: Number(sum!.n), sold: pool!.sold, capacity: pool!.capacity };
  }

  for (const seed of [1, 2, 3]) {
    it(`stays the sum of the pool’s holds through random concurrent rounds (seed ${seed})`, async () => {
      const { db } = database;
      const random = seededRandom(seed);
      const { poolId, ownPoolId, types } = await hotEvent(db, {
        capacity: 12,
        types: 2,
        ownLimit: { typeIndex: 1, capacity: 5 },
      });
      const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
      let now = new Date('2026-08-01T12:00:00.000Z');
      const baskets = Array.from({ length: 16 }, () => [
        { ticketTypeId: pick(types).id, qty: 1 + Math.floor(random() * 3) },
      ]);
      const saleIds = await salesWith(db, baskets);

      for (let round = 0; round < 12; round++) {
        const ops = Array.from({ length: 8 }, () => {
          const sale = pick(saleIds);
          const r = random();
          if (r < 0.45) return reserveSale(db, sale, now, CHECKOUT_TIME).then(() => undefined);
          if (r < 0.6) return destroySale(db, sale).catch(() => undefined);
          if (r < 0.7)
            return extendHold(db, sale, now, CHECKOUT_TIME).then(
              () => undefined,
              () => undefined,
            );
          if (r < 0.8) return db.transaction((tx) => completeSale(tx, sale, now)).then(() => undefined);
          return sweepExpiredHolds(db, now).then(() => undefined);
        });
        await Promise.all(ops);

        for (const id of [poolId, ownPoolId!]) {
          const c = await counters(id);
          expect(c.held, `round ${round}, pool ${id}`).toBe(c.rows);
          expect(c.sold + c.held).toBeLessThanOrEqual(c.capacity);
          const live = (await taken(db, id, now)) - c.sold;
          const [available] = [...(await poolAvailability(db, [id], now)).values()];
          expect(available).toBe(c.capacity - c.sold - live);
        }
        // Time moves on by 0 to 90 seconds, so some holds expire between rounds and some do not.
        now = new Date(now.getTime() + Math.floor(random() * 90) * 1000);
      }
    });
  }
});
