import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from '../db/testing.ts';
import { rows, type OpenDatabase } from '../db/index.ts';
import { extendHold, NO_MORE_TIME_MESSAGE, NOT_HELD_MESSAGE } from './hold.ts';
import { reserveSale } from './reserve.ts';
import { Refusal } from './refusal.ts';
import { answerOf, refusalOf } from '../test/refusals.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { hotEvent, saleWith, taken } from '../test/fixtures.ts';

const CHECKOUT_TIME = 600;
const at = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000);

async function holdCount(database: OpenDatabase, saleId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM holds WHERE sale_id = ${saleId}`,
  );
  return Number(row!.n);
}

describe.each(drivers)('more time on the clock on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(driver, 8);
  });
  afterAll(async () => database?.close());

  it('moves the same hold’s deadline by the checkout time, claiming no stock again', async () => {
    const { db } = database;
    const start = new Date('2026-06-01T12:00:00.000Z');
    const { poolId, types } = await hotEvent(db, { capacity: 3, types: 1 });
    const sale = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 3 }]);
    expect(await reserveSale(db, sale, start, CHECKOUT_TIME)).toMatchObject({ reserved: true });
    const holdsBefore = await holdCount(database, sale);

    const asked = at(start, CHECKOUT_TIME - 30);
    expect(await extendHold(db, sale, asked, CHECKOUT_TIME)).toEqual({
      secondsRemaining: 30 + CHECKOUT_TIME,
      extensionsLeft: 1,
    });
    expect(await holdCount(database, sale)).toBe(holdsBefore);
    // Past the first deadline the stock is still this buyer's, and counted once.
    expect(await taken(db, poolId, at(start, CHECKOUT_TIME + 1))).toBe(3);
    expect(await taken(db, poolId, at(start, 2 * CHECKOUT_TIME + 1))).toBe(0);
    const other = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 1 }]);
    expect(await reserveSale(db, other, at(start, CHECKOUT_TIME + 1), CHECKOUT_TIME)).toMatchObject({
      reserved: false,
    });
  });

  it('gives more time twice per reservation and refuses the third time, even when asked in parallel', async () => {
    const { db } = database;
    const start = new Date('2026-06-02T12:00:00.000Z');
    const { types } = await hotEvent(db, { capacity: 5, types: 1 });
    const sale = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 1 }]);
    expect(await reserveSale(db, sale, start, CHECKOUT_TIME)).toMatchObject({ reserved: true });

    const now = at(start, 10);
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => extendHold(db, sale, now, CHECKOUT_TIME)));
    const granted = results
      .filter((r) => r.status === 'fulfilled')
      .map((r) => (r as PromiseFulfilledResult<{ extensionsLeft: number }>).value);
    const refused = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(granted.map((g) => g.extensionsLeft).sort()).toEqual([0, 1]);
    expect(refused).toHaveLength(4);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(Refusal);
      expect(answerOf(reason as Refusal)).toMatchObject({ status: 409, message: NO_MORE_TIME_MESSAGE });
    }
    // Two extensions, no more: the deadline moved by exactly twice the checkout time.
    const [row] = await rows<{ deadline: string }>(
      db,
      sql`SELECT hold_deadline AS deadline FROM sales WHERE id = ${sale}`,
    );
    expect(new Date(row!.deadline).getTime()).toBe(at(start, 3 * CHECKOUT_TIME).getTime());
  });

  it('cannot extend a hold that has expired, or a basket that was never reserved', async () => {
    const { db } = database;
    const start = new Date('2026-06-03T12:00:00.000Z');
    const { poolId, types } = await hotEvent(db, { capacity: 2, types: 1 });
    const sale = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 2 }]);
    expect(await refusalOf(extendHold(db, sale, start, CHECKOUT_TIME))).toMatchObject({
      status: 409,
      message: NOT_HELD_MESSAGE,
    });
    expect(await reserveSale(db, sale, start, CHECKOUT_TIME)).toMatchObject({ reserved: true });
    const late = at(start, CHECKOUT_TIME);
    expect(await refusalOf(extendHold(db, sale, late, CHECKOUT_TIME))).toMatchObject({
      status: 409,
      message: NOT_HELD_MESSAGE,
    });
    expect(await taken(db, poolId, late)).toBe(0);
  });

  it('counts afresh for a new reservation', async () => {
    const { db } = database;
    const start = new Date('2026-06-04T12:00:00.000Z');
    const { types } = await hotEvent(db, { capacity: 2, types: 1 });
    const sale = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 1 }]);
    await reserveSale(db, sale, start, CHECKOUT_TIME);
    await extendHold(db, sale, start, CHECKOUT_TIME);
    await extendHold(db, sale, start, CHECKOUT_TIME);
    const later = at(start, 3 * CHECKOUT_TIME + 1);
    expect(await reserveSale(db, sale, later, CHECKOUT_TIME)).toMatchObject({ reserved: true, freshReservation: true });
    expect(await extendHold(db, sale, later, CHECKOUT_TIME)).toMatchObject({ extensionsLeft: 1 });
  });
});

const SECONDS = 300;

describe.each(drivers)('the extend_hold call on %s', (driver) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: SECONDS });
  });
  afterAll(async () => world?.close());

  it('answers the new time, and a clear 409 with { error } beyond the cap', async () => {
    const buyer = new Visitor(world.app);
    const notHeld = await buyer.call('extendHold');
    expect(notHeld.statusCode).toBe(409);
    expect(notHeld.json()).toEqual({ error: NOT_HELD_MESSAGE });

    expect((await buyer.add({ [world.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    expect(await buyer.json('reserveTickets')).toMatchObject({ reserved: true });
    world.clock.advance(60_000);
    const seconds = SECONDS;
    expect(await buyer.json('extendHold')).toEqual({ seconds_remaining: 2 * seconds - 60, extensions_left: 1 });
    expect(await buyer.json('extendHold')).toEqual({ seconds_remaining: 3 * seconds - 60, extensions_left: 0 });
    const third = await buyer.call('extendHold');
    expect(third.statusCode).toBe(409);
    expect(third.json()).toEqual({ error: NO_MORE_TIME_MESSAGE });
    expect((await buyer.checkout()).seconds_remaining).toBe(3 * seconds - 60);
  });
});
