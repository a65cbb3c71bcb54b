/**
 * GET checkout, the call every open basket repeats, carries an ETag and is answered 304 without a
 * body while the buyer's copy is current; the browser keeps it and asks again each time
 * (`private, no-cache`). Every kind of write to the sale or to what the checkout shows of the
 * catalogue, through the calls or straight in the database (another process, the sweeper), and the
 * hold's clock, are seen by the very next read with a new body and a new ETag, also by another
 * process serving the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { calls, type Checkout } from '../contract/index.ts';
import { holds, saleLines, sales, ticketTypes, users } from './db/schema.ts';
import { rows } from './db/index.ts';
import { sweepExpiredHolds } from './domain/stock.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';

describe.each(drivers)('GET checkout revalidated with its ETag on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { checkoutTimeSeconds: 600 });
  });
  afterAll(async () => w?.close());

  /** A visitor who keeps the last ETag they were given and sends it back, as a browser does. */
  class Browser extends Visitor {
    etag: string | null = null;
    body: Checkout | null = null;
    async read(): Promise<LightMyRequestResponse> {
      const res = await this.call('getCheckout', undefined, this.etag ? { 'if-none-match': this.etag } : {});
      if (res.statusCode === 200) {
        this.etag = String(res.headers.etag);
        this.body = calls.getCheckout.response.parse(res.json());
      }
      return res;
    }
    /** Reads again and expects a new body, which it answers. */
    async changed(): Promise<Checkout> {
      const before = this.etag;
      const res = await this.read();
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).not.toBe(before);
      return this.body!;
    }
    async unchanged(): Promise<void> {
      const res = await this.read();
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
    }
  }

  const saleIdOf = async (b: Browser) => {
    const reference = b.body?.sale_reference;
    const [row] = reference
      ? await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference))
      : await w.database.db.select({ id: saleLines.saleId }).from(saleLines).orderBy(sql`${saleLines.id} DESC`).limit(1);
    return row!.id;
  };

  it('answers 304 with no body while nothing changed, and says the browser is to ask each time', async () => {
    const b = new Browser(w.app);
    const empty = await b.read();
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['cache-control']).toBe('private, no-cache');
    expect(empty.headers.etag).toMatch(/^"[\w-]+"$/);
    await b.unchanged();

    await b.add({ [w.demo.tickets.jazzGeneral]: 2 });
    expect((await b.changed()).tickets.map((t) => t.qty)).toEqual([2]);
    await b.unchanged();
    await b.unchanged();
    // A weak or listed ETag matches too; another does not.
    const etag = b.etag!;
    expect((await b.call('getCheckout', undefined, { 'if-none-match': `W/${etag}` })).statusCode).toBe(304);
    expect((await b.call('getCheckout', undefined, { 'if-none-match': `"other", ${etag}` })).statusCode).toBe(304);
    const other = await b.call('getCheckout', undefined, { 'if-none-match': '"other"' });
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).toBe(etag);
  });

  it('shows each change made through the calls at the next read', async () => {
    const b = new Browser(w.app);
    await b.add({ [w.demo.tickets.jazzGeneral]: 2 });
    await b.read();
    await b.unchanged();

    await b.json('updateTicketQuantity', { ticket_id: w.demo.tickets.jazzGeneral, quantity: 3 });
    expect((await b.changed()).tickets[0]!.qty).toBe(3);
    await b.unchanged();

    await b.add({}, [{ id: w.demo.vouchers.riverside, qty: 1, value: 2500 }]);
    expect((await b.changed()).gift_vouchers).toHaveLength(1);

    await b.json('removeGiftVoucherFromBasket', { gift_voucher_id: w.demo.vouchers.riverside, value: 2500 });
    expect((await b.changed()).gift_vouchers).toHaveLength(0);

    await b.json('setCode', { code: 'SUMMER10' });
    expect(Object.keys((await b.changed()).discounts_applied)).toEqual(['SUMMER10']);

    await b.json('updateRefundProtection', { refund_protection: 'true' });
    expect((await b.changed()).refund_protection).toBe(1);
    await b.unchanged();

    expect(await b.json('reserveTickets')).toMatchObject({ reserved: true });
    const held = await b.changed();
    expect(held.sale_reference).not.toBeNull();
    expect(held.seconds_remaining).toBe(600);
    await b.unchanged();

    await b.json('updateBasketState', { state: 'login' });
    expect((await b.changed()).state).toBe('login');

    // Back to the basket: the hold is released, the lines stay.
    await b.json('destroySale');
    const released = await b.changed();
    expect(released.edit_basket_clicked).toBe(true);
    expect(released.seconds_remaining).toBe(0);
  });

  it('shows writes made straight in the database (another process, the sweeper) at the next read', async () => {
    const b = new Browser(w.app);
    await b.add({ [w.demo.tickets.jazzGeneral]: 2, [w.demo.tickets.jazzTable]: 1 });
    await b.read();
    const saleId = await saleIdOf(b);

    await w.database.db.update(saleLines).set({ qty: 4 }).where(and(eq(saleLines.ticketTypeId, w.demo.tickets.jazzGeneral), eq(saleLines.saleId, saleId)));
    expect((await b.changed()).tickets.find((t) => t.ticket_id === w.demo.tickets.jazzGeneral)!.qty).toBe(4);

    await w.database.db.delete(saleLines).where(and(eq(saleLines.ticketTypeId, w.demo.tickets.jazzTable), eq(saleLines.saleId, saleId)));
    expect((await b.changed()).tickets).toHaveLength(1);

    await w.database.db.update(sales).set({ basketErrors: ['Something changed'] }).where(eq(sales.id, saleId));
    expect((await b.changed()).basket_errors).toEqual(['Something changed']);
    await b.unchanged();

    // The catalogue: a ticket type's name, as the organiser edits it.
    const [type] = await w.database.db.select({ name: ticketTypes.name }).from(ticketTypes).where(eq(ticketTypes.id, w.demo.tickets.jazzGeneral));
    try {
      await w.database.db.update(ticketTypes).set({ name: 'Standing' }).where(eq(ticketTypes.id, w.demo.tickets.jazzGeneral));
      expect((await b.changed()).tickets[0]!.ticket_name).toBe('Standing');
    } finally {
      await w.database.db.update(ticketTypes).set({ name: type!.name }).where(eq(ticketTypes.id, w.demo.tickets.jazzGeneral));
    }
    expect((await b.changed()).tickets[0]!.ticket_name).toBe(type!.name);
  });

  it('moves on with the hold’s clock: a new countdown each second, the basket again when it lapses, and the sweeper’s release', async () => {
    const b = new Browser(w.app);
    await b.add({ [w.demo.tickets.trail10k]: 1 });
    expect(await b.json('reserveTickets')).toMatchObject({ reserved: true });
    expect((await b.changed()).seconds_remaining).toBe(600);
    await b.unchanged();
    w.clock.advance(400);
    await b.unchanged();
    w.clock.advance(700);
    expect((await b.changed()).seconds_remaining).toBe(599);
    w.clock.advance(600_000);
    const lapsed = await b.changed();
    expect(lapsed.state).toBe('basket');
    expect(lapsed.seconds_remaining).toBe(0);
    await b.unchanged();
    const saleId = await saleIdOf(b);
    const before = await rows<{ version: number }>(w.database.db, sql`SELECT version FROM sales WHERE id = ${saleId}`);
    await sweepExpiredHolds(w.database.db, w.clock.now);
    expect(await w.database.db.select().from(holds).where(eq(holds.saleId, saleId))).toEqual([]);
    const after = await rows<{ version: number }>(w.database.db, sql`SELECT version FROM sales WHERE id = ${saleId}`);
    expect(Number(after[0]!.version)).toBeGreaterThan(Number(before[0]!.version));
  });

  it('shows a change to the signed-in user at the next read', async () => {
    const b = new Browser(w.app);
    await b.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.notSubscribed.id}` });
    await b.add({ [w.demo.tickets.jazzGeneral]: 1 });
    expect((await b.changed()).marketing_preferences?.ct_subscribed).toBe(false);
    await b.unchanged();
    try {
      await w.database.db.update(users).set({ subscribed: true }).where(eq(users.id, w.demo.users.notSubscribed.id));
      expect((await b.changed()).marketing_preferences?.ct_subscribed).toBe(true);
    } finally {
      await w.database.db.update(users).set({ subscribed: false }).where(eq(users.id, w.demo.users.notSubscribed.id));
    }
  });

  it('shows a change made through one process at the next read from another', async () => {
    const other = await appOn(w.database, { checkoutTimeSeconds: 600 });
    try {
      other.clock.now = w.clock.now;
      const here = new Browser(w.app);
      await here.add({ [w.demo.tickets.jazzGeneral]: 1 });
      await here.read();
      // The same buyer (their cookies) on the other process.
      const there = new Browser(other.app as FastifyInstance, { cookie: here.cookieHeader });
      there.etag = here.etag;
      await there.unchanged();
      await there.json('updateTicketQuantity', { ticket_id: w.demo.tickets.jazzGeneral, quantity: 2 });
      expect((await here.changed()).tickets[0]!.qty).toBe(2);
      there.etag = here.etag;
      await there.unchanged();
    } finally {
      await other.app.close();
    }
  });

  it('moves a sale’s version on with every table that belongs to a sale', async () => {
    const tables = await rows<{ table_name: string }>(
      w.database.db,
      sql`SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
          WHERE c.column_name = 'sale_id' AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' ORDER BY 1`,
    );
    const triggered = await rows<{ table_name: string }>(
      w.database.db,
      sql`SELECT DISTINCT c.relname AS table_name FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_proc p ON p.oid = g.tgfoid
          WHERE p.proname = 'bump_sale_version' ORDER BY 1`,
    );
    // Internal bookkeeping the checkout does not show: the buyer counts, seats as the seat map has them (sale_seats is the sale's),
    // and the reward a referred sale earned its referrer (the referrer's, not shown in that sale's checkout).
    const internal = ['buyer_holds', 'referral_rewards', 'seats'];
    expect(triggered.map((r) => r.table_name)).toEqual(tables.map((r) => r.table_name).filter((t) => !internal.includes(t)));
  });
});
