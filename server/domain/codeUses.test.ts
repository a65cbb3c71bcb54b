/**
 * A discount code's use counts while its sale holds stock (or has paid), and is given back when
 * the sale is destroyed, emptied or its hold expires, so nobody can exhaust a limited code
 * without buying.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { discountCodes, sales } from '../db/schema.ts';
import { openTestDatabase } from '../db/testing.ts';
import type { OpenDatabase } from '../db/index.ts';
import { reserveSale } from './reserve.ts';
import { destroySale } from './sales.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { hotEvent, salesWith } from '../test/fixtures.ts';

const CHECKOUT_TIME = 600;

describe.each(drivers)('discount-code uses over HTTP on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { checkoutTimeSeconds: CHECKOUT_TIME });
  });
  afterAll(async () => w?.close());

  it('gives a use back when its sale is destroyed, emptied or its hold expires', async () => {
    const code = `THREE${randomUUID().slice(0, 6).toUpperCase()}`;
    await w.database.db.insert(discountCodes).values({ code, kind: 'percent', amount: 1000, usageLimit: 3 });
    const buyer = async () => {
      const v = new Visitor(w.app);
      await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
      return v;
    };
    const [a, b, c] = [await buyer(), await buyer(), await buyer()];
    for (const v of [a, b, c]) {
      expect(await v.json('setCode', { code })).toEqual({ code_applied: true });
      expect(await v.json('reserveTickets')).toMatchObject({ reserved: true });
    }
    const late = await buyer();
    expect(await late.json('setCode', { code })).toEqual({ code_applied: false });

    await a.json('destroySale');
    expect(await late.json('setCode', { code })).toEqual({ code_applied: true });
    expect(await late.json('reserveTickets')).toMatchObject({ reserved: true });

    const fourth = await buyer();
    expect(await fourth.json('setCode', { code })).toEqual({ code_applied: false });
    await b.json('removeFromBasket', { ticket_id: w.demo.tickets.jazzGeneral });
    expect(await fourth.json('setCode', { code })).toEqual({ code_applied: true });
    expect(await fourth.json('reserveTickets')).toMatchObject({ reserved: true });

    const fifth = await buyer();
    expect(await fifth.json('setCode', { code })).toEqual({ code_applied: false });
    w.clock.advance(CHECKOUT_TIME * 1000 + 1);
    // Every hold above has now expired: each use is free again, with no sweeper run.
    expect(await fifth.json('setCode', { code })).toEqual({ code_applied: true });
    expect(await fifth.json('reserveTickets')).toMatchObject({ reserved: true });
    const [row] = await w.database.db.select().from(discountCodes).where(eq(discountCodes.code, code));
    expect(row!.used).toBe(0);
  });

  it('takes an exhausted code off a basket that reserves after the last use went, with a clear refusal', async () => {
    const code = `ONCE${randomUUID().slice(0, 6).toUpperCase()}`;
    await w.database.db.insert(discountCodes).values({ code, kind: 'percent', amount: 1000, usageLimit: 1 });
    const first = new Visitor(w.app);
    const second = new Visitor(w.app);
    for (const v of [first, second]) {
      await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
      expect(await v.json('setCode', { code })).toEqual({ code_applied: true });
    }
    expect(await first.json('reserveTickets')).toMatchObject({ reserved: true });
    const refused = await second.json('reserveTickets');
    expect(refused).toEqual({
      reserved: false,
      error: `Discount code ${code} has been used as many times as it can be and was taken off your basket. Check the total and reserve again.`,
    });
    expect((await second.checkout()).discounts_applied).toEqual({});
    expect(await second.json('reserveTickets')).toMatchObject({ reserved: true });
  });
});

describe.each(drivers)('discount-code uses under concurrency on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(driver, 8);
  });
  afterAll(async () => database?.close());

  it('never lets more sales hold a code than its limit while others reserve, release and expire at once', async () => {
    const { db } = database;
    const LIMIT = 4;
    let now = new Date('2026-06-01T12:00:00Z');
    const { types } = await hotEvent(db, { capacity: 10_000, types: 1 });
    const [code] = await db
      .insert(discountCodes)
      .values({ code: `RACE${randomUUID().slice(0, 8)}`, kind: 'percent', amount: 500, usageLimit: LIMIT })
      .returning();
    const live = async () =>
      (
        await db
          .select({ id: sales.id, deadline: sales.holdDeadline })
          .from(sales)
          .where(eq(sales.discountCodeId, code!.id))
      ).filter((s) => s.deadline !== null && s.deadline.getTime() > now.getTime()).length;
    const withCode = async (n: number) => {
      const ids = await salesWith(
        db,
        Array.from({ length: n }, () => [{ ticketTypeId: types[0]!.id, qty: 1 }]),
      );
      for (const id of ids) await db.update(sales).set({ discountCodeId: code!.id }).where(eq(sales.id, id));
      return ids;
    };

    const first = await withCode(12);
    const results = await Promise.all(first.map((id) => reserveSale(db, id, now, CHECKOUT_TIME)));
    expect(results.filter((r) => r.reserved)).toHaveLength(LIMIT);
    expect(await live()).toBe(LIMIT);

    // Two holders let go while ten more try: never more than the limit, and at most two get in.
    const holders = first.filter((_, i) => results[i]!.reserved);
    const next = await withCode(10);
    const [, racing] = await Promise.all([
      Promise.all(holders.slice(0, 2).map((id) => destroySale(db, id))),
      Promise.all(
        next.map(async (id) => {
          await new Promise((r) => setTimeout(r, 5));
          return reserveSale(db, id, now, CHECKOUT_TIME);
        }),
      ),
    ]);
    const gotIn = racing.filter((r) => r.reserved).length;
    expect(gotIn).toBeLessThanOrEqual(2);
    expect(await live()).toBe(LIMIT - 2 + gotIn);
    // A refused sale had the used-up code taken off, so it can reserve at full price.
    for (const r of racing) if (!r.reserved) expect(r.error).toMatch(/has been used as many times as it can be/);

    // When every hold expires, every use is free again at once.
    now = new Date(now.getTime() + CHECKOUT_TIME * 1000 + 1);
    const after = await withCode(8);
    const late = await Promise.all(after.map((id) => reserveSale(db, id, now, CHECKOUT_TIME)));
    expect(late.filter((r) => r.reserved)).toHaveLength(LIMIT);
    expect(await live()).toBe(LIMIT);
  });
});
