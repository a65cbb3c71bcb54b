import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from '../db/testing.ts';
import { rows, type OpenDatabase } from '../db/index.ts';
import { reserveSale } from './reserve.ts';
import { sweepExpiredHolds } from './stock.ts';
import { buildCheckout } from './checkout.ts';
import { drivers } from '../test/harness.ts';
import { hotEvent, saleWith, taken } from '../test/fixtures.ts';

const CHECKOUT_TIME = 600;

describe.each(drivers)('hold expiry on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(driver, 4);
  });
  afterAll(async () => database?.close());

  it('takes the stock until the deadline and frees it the instant after, without the sweeper', async () => {
    const { db } = database;
    const start = new Date('2026-06-01T12:00:00.000Z');
    const deadline = start.getTime() + CHECKOUT_TIME * 1000;
    const { poolId, types } = await hotEvent(db, { capacity: 2, types: 1 });
    const first = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 2 }]);
    expect(await reserveSale(db, first, start, CHECKOUT_TIME)).toMatchObject({
      reserved: true,
      freshReservation: true,
    });

    const justBefore = new Date(deadline - 1);
    const justAfter = new Date(deadline + 1);
    expect(await taken(db, poolId, justBefore)).toBe(2);
    expect(await taken(db, poolId, justAfter)).toBe(0);

    const second = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 2 }]);
    expect(await reserveSale(db, second, justBefore, CHECKOUT_TIME)).toMatchObject({ reserved: false });
    expect(await reserveSale(db, second, justAfter, CHECKOUT_TIME)).toMatchObject({
      reserved: true,
      freshReservation: true,
    });
    expect(await taken(db, poolId, justAfter)).toBe(2);

    const opts = { captchaSitekey: null, userId: null };
    expect(await buildCheckout(db, first, justBefore, opts)).toMatchObject({ seconds_remaining: 1 });
    expect(await buildCheckout(db, first, justAfter, opts)).toMatchObject({
      seconds_remaining: 0,
      sale_reference: null,
      state: 'basket',
    });

    // The first buyer's next reservation starts afresh and finds the stock gone.
    expect(await reserveSale(db, first, justAfter, CHECKOUT_TIME)).toMatchObject({ reserved: false });
  });

  it('releases each expired hold exactly once when two sweepers run at the same time', async () => {
    const { db } = database;
    const start = new Date('2026-07-01T12:00:00.000Z');
    const { types } = await hotEvent(db, { capacity: 100, types: 2 });
    const sales = await Promise.all(
      Array.from({ length: 20 }, (_, i) => saleWith(db, [{ ticketTypeId: types[i % 2]!.id, qty: 1 + (i % 3) }])),
    );
    for (const sale of sales) expect((await reserveSale(db, sale, start, CHECKOUT_TIME)).reserved).toBe(true);
    const later = new Date(start.getTime() + CHECKOUT_TIME * 1000 + 1);
    const [{ expired }] = (await rows<{ expired: number }>(
      db,
      sql`SELECT count(*)::int AS expired FROM holds WHERE deadline <= ${later.toISOString()}::timestamptz`,
    )) as [{ expired: number }];
    // This test's 20 holds, plus any left expired by the test before.
    expect(expired).toBeGreaterThanOrEqual(20);

    const [a, b] = await Promise.all([sweepExpiredHolds(db, later), sweepExpiredHolds(db, later)]);
    expect(a + b).toBe(expired);
    expect(await sweepExpiredHolds(db, later)).toBe(0);
  });
});
