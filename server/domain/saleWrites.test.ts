/**
 * A sale is written only when something is put in it; requests without a basket, and refused
 * adds, leave no row behind. The sweeper purges empty and long-abandoned sales, never one that
 * holds stock or has paid. Gift vouchers are sold at the offered values, a few lines and a few each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { calls, type CallName } from '../../contract/index.ts';
import { holds, saleLines, sales } from '../db/schema.ts';
import { ABANDONED_SALE_RETENTION_MS, EMPTY_SALE_RETENTION_MS, purgeSales } from './sales.ts';
import { MAX_VOUCHER_LINES, MAX_VOUCHER_QTY } from './basket.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

describe.each(drivers)('sale rows on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { captcha: 'auto' });
  });
  afterAll(async () => w?.close());

  const saleRows = async () => (await w.database.db.select({ n: sql<number>`count(*)::int` }).from(sales))[0]!.n;

  const bodies: Partial<Record<CallName, Record<string, unknown>>> = {
    updateBasketState: { state: 'login' },
    updateTicketQuantity: { ticket_id: 1, quantity: 3 },
    updateGiftVoucherQuantity: { gift_voucher_id: 1, qty: 2, value: 2500 },
    updateRefundProtection: { refund_protection: 'true' },
    setCode: { code: 'SUMMER10' },
    removeFromBasket: { ticket_id: 1 },
    removeGiftVoucherFromBasket: { gift_voucher_id: 1, value: 2500 },
    reserveTickets: {},
    destroySale: {},
    extendHold: {},
  };

  it('writes no sale for a cookieless request that puts nothing in a basket', async () => {
    const before = await saleRows();
    for (const name of Object.keys(calls) as CallName[]) {
      if (name === 'addToBasket') continue;
      const res = await new Visitor(w.app).call(name, (bodies[name] ?? {}) as never);
      expect(res.statusCode, `${name}: ${res.body}`).toBeLessThan(500);
      expect(res.headers['set-cookie'], name).toBeUndefined();
    }
    expect(await saleRows()).toBe(before);
  });

  it('writes no sale for a refused add, and one for an add that puts something in', async () => {
    const before = await saleRows();
    for (const tickets of [{ [w.demo.tickets.jazzGeneral]: 500 }, { [w.demo.tickets.comedyCabaret]: 1 }]) {
      const v = new Visitor(w.app);
      const res = await v.add(tickets);
      expect(res.statusCode).toBe(400);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const vouchers = await new Visitor(w.app).add({}, [{ id: w.demo.vouchers.riverside, qty: 1, value: 1234 }]);
    expect(vouchers.statusCode).toBe(400);
    expect(await saleRows()).toBe(before);
    const v = new Visitor(w.app);
    expect((await v.add({ [w.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    expect(await saleRows()).toBe(before + 1);
    expect((await v.checkout()).tickets).toHaveLength(1);
  });

  it('purges empty sales after an hour and unpaid ones after thirty days, keeping held and paid ones', async () => {
    const { db } = w.database;
    const now = new Date();
    const at = (ms: number) => new Date(now.getTime() - ms);
    const make = async (values: Partial<typeof sales.$inferInsert>, withLine = false) => {
      const id = randomUUID();
      await db.insert(sales).values({ id, ...values });
      if (withLine) await db.insert(saleLines).values({ saleId: id, ticketTypeId: w.demo.tickets.jazzGeneral, qty: 1 });
      return id;
    };
    const emptyOld = await make({ touchedAt: at(EMPTY_SALE_RETENTION_MS + 60_000) });
    const emptyNew = await make({ touchedAt: at(60_000) });
    const filledOld = await make({ touchedAt: at(EMPTY_SALE_RETENTION_MS + 60_000) }, true);
    const abandoned = await make({ touchedAt: at(ABANDONED_SALE_RETENTION_MS + 60_000) }, true);
    const paid = await make({ touchedAt: at(ABANDONED_SALE_RETENTION_MS + 60_000), state: 'order_completed' }, true);
    const holding = await make(
      {
        touchedAt: at(ABANDONED_SALE_RETENTION_MS + 60_000),
        reference: 'HF-HOLDING',
        holdDeadline: new Date(now.getTime() + 60_000),
      },
      true,
    );
    await db.insert(holds).values({
      saleId: holding,
      poolId: w.demo.pools.jazz,
      ticketTypeId: w.demo.tickets.jazzGeneral,
      qty: 1,
      deadline: new Date(now.getTime() + 60_000),
    });

    expect(await purgeSales(db, now)).toBeGreaterThanOrEqual(2);
    const left = new Set((await db.select({ id: sales.id }).from(sales)).map((s) => s.id));
    expect(left.has(emptyOld)).toBe(false);
    expect(left.has(abandoned)).toBe(false);
    for (const kept of [emptyNew, filledOld, paid, holding]) expect(left.has(kept)).toBe(true);
    expect(await db.select().from(saleLines).where(eq(saleLines.saleId, abandoned))).toEqual([]);
    expect(await purgeSales(db, now)).toBe(0);
  });

  it('sells gift vouchers only at the offered values, in a few lines of a few each', async () => {
    const v = new Visitor(w.app);
    const odd = await v.add({}, [{ id: w.demo.vouchers.riverside, qty: 1, value: 1234 }]);
    expect(odd.statusCode).toBe(400);
    expect(odd.json()).toEqual({ error: 'Riverside Arts gift voucher is sold at £10.00, £25.00, £50.00' });
    const many = await v.add({}, [{ id: w.demo.vouchers.riverside, qty: MAX_VOUCHER_QTY + 1, value: 2500 }]);
    expect(many.json()).toEqual({ error: `You can buy at most ${MAX_VOUCHER_QTY} of one gift voucher in one order` });
    expect((await v.add({}, [{ id: w.demo.vouchers.riverside, qty: MAX_VOUCHER_QTY, value: 2500 }])).statusCode).toBe(
      200,
    );
    const again = await v.add({}, [{ id: w.demo.vouchers.riverside, qty: 1, value: 2500 }]);
    expect(again.statusCode).toBe(400);
    const update = await v.call('updateGiftVoucherQuantity', {
      gift_voucher_id: w.demo.vouchers.riverside,
      value: 2500,
      qty: MAX_VOUCHER_QTY + 1,
    });
    expect(update.statusCode).toBe(400);
    expect((await v.checkout()).gift_vouchers.map((g) => g.qty)).toEqual([MAX_VOUCHER_QTY]);
    const lines = Array.from({ length: MAX_VOUCHER_LINES + 1 }, () => ({
      id: w.demo.vouchers.riverside,
      qty: 1,
      value: 1000,
    }));
    const tooManyLines = await new Visitor(w.app).call(
      'addToBasket',
      { gift_voucher: Object.fromEntries(lines.map((l, i) => [String(i), l])) } as never,
      { accept: 'application/json' },
    );
    expect(tooManyLines.json()).toEqual({ error: `A basket can hold at most ${MAX_VOUCHER_LINES} gift voucher lines` });
  });
});
