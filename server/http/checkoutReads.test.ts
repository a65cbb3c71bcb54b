/**
 * GET checkout is the call every step repeats: a basket's checkout, with its questions and intro,
 * postal delivery and the payment plans its event offers, is read from the database in one round
 * trip (`checkout_snapshot`), so a new field of the checkout object does not quietly add a read;
 * and while nothing it shows has changed, a repeat read is answered from what was built before.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows, type Database } from '../db/index.ts';
import { buildCheckout } from '../domain/checkout.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { salesWith } from '../test/fixtures.ts';

/** The database, with a count of the statements sent through it, by Drizzle or straight to its connection pool. */
function counting(db: Database): { db: Database; count: () => number } {
  let sent = 0;
  /** `target` with the methods `counted` names counting each call. */
  const countingCalls = <T extends object>(target: T, counted: (key: string | symbol) => boolean): T =>
    new Proxy(target, {
      get(inner, key, receiver) {
        const value = Reflect.get(inner, key, receiver) as unknown;
        if (key === '$client' && typeof value === 'object' && value !== null)
          return countingCalls(value, (k) => k === 'query');
        if (!counted(key) || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          sent++;
          return (value as (...a: unknown[]) => unknown).apply(inner, args);
        };
      },
    });
  const entries = new Set<string | symbol>([
    'execute',
    'select',
    'selectDistinct',
    'insert',
    'update',
    'delete',
    'transaction',
  ]);
  return { db: countingCalls(db, (key) => entries.has(key)), count: () => sent };
}

describe.each(drivers)('the checkout read on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  it('reads a basket with questions, an intro and a plan-offering event in one round trip', async () => {
    const { tickets, plans } = w.demo;
    const [lantern, festival] = await salesWith(w.database.db, [
      [{ ticketTypeId: tickets.lanternEarlyAdult, qty: 2 }],
      [{ ticketTypeId: plans.weekend, qty: 1 }],
    ]);
    const now = w.clock.now;

    const first = counting(w.database.db);
    const questions = await buildCheckout(first.db, lantern!, now, { captchaSitekey: null, userId: null });
    expect(first.count()).toBe(1);
    expect(questions.before_payment_questions.length).toBeGreaterThan(0);
    expect(questions.events[0]!.questions_intro).not.toBeNull();

    const second = counting(w.database.db);
    const plan = await buildCheckout(second.db, festival!, now, { captchaSitekey: null, userId: null });
    expect(second.count()).toBe(1);
    expect(Object.keys(plan.payment_plan_schedule_options).length).toBeGreaterThan(0);
  });
});

/**
 * GET checkout is kept between changes: a repeat read asks the database one cheap question (the
 * versions of what the checkout shows) and sends the body built before, 304 when the browser sends
 * its ETag; any change, made through this app, through another app on the same database (another
 * process) or straight in the database, shows in the very next read.
 */
describe.each(drivers)('GET checkout kept between changes on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  /** A visitor of `w.app` with a basket of two lantern tickets. */
  async function basket() {
    const v = new Visitor(w.app);
    expect((await v.add({ [w.demo.tickets.lanternEarlyAdult]: 2 })).statusCode).toBeLessThan(400);
    return v;
  }
  const linesOf = (body: string) =>
    (JSON.parse(body) as { tickets: { ticket_id: number; qty: number; price: number }[] }).tickets;

  it('answers a repeat read with the same body and ETag, and 304 when the browser sends the ETag back', async () => {
    const v = await basket();
    const first = await v.call('getCheckout');
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await v.call('getCheckout');
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(etag);
    const revalidated = await v.call('getCheckout', undefined, { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('sends the kept body compressed to a browser that accepts it (brotli, else gzip), the same JSON once decoded, and 304 for its ETag', async () => {
    const v = await basket();
    const plain = await v.call('getCheckout');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const chrome = 'gzip, deflate, br, zstd';
    const br = await v.call('getCheckout', undefined, { 'accept-encoding': chrome });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.etag).not.toBe(plain.headers.etag);

    const gzip = await v.call('getCheckout', undefined, { 'accept-encoding': 'gzip, deflate' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    // A browser that refuses brotli with q=0 gets gzip; one that refuses both gets the JSON as it is.
    expect(
      (await v.call('getCheckout', undefined, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding'],
    ).toBe('gzip');
    expect(
      (await v.call('getCheckout', undefined, { 'accept-encoding': 'br;q=0, gzip;q=0.0' })).headers['content-encoding'],
    ).toBeUndefined();

    const revalidated = await v.call('getCheckout', undefined, {
      'accept-encoding': chrome,
      'if-none-match': br.headers.etag as string,
    });
    expect(revalidated.statusCode).toBe(304);
    // A change is sent in full, compressed again.
    expect(
      (await v.call('updateTicketQuantity', { ticket_id: w.demo.tickets.lanternEarlyAdult, quantity: 3 })).statusCode,
    ).toBe(200);
    const changed = await v.call('getCheckout', undefined, {
      'accept-encoding': chrome,
      'if-none-match': br.headers.etag as string,
    });
    expect(changed.statusCode).toBe(200);
    expect(linesOf(brotliDecompressSync(changed.rawPayload).toString())[0]!.qty).toBe(3);
  });

  it('does not build an unchanged checkout again: the repeat costs one statement, none on the embedded database while nothing was written', async () => {
    const v = await basket();
    await v.call('getCheckout');
    const counted = counting(w.database.db);
    const other = await appOn({ ...w.database, db: counted.db });
    try {
      const b = new Visitor(other.app);
      const cookie = { cookie: v.cookieHeader };
      await b.call('getCheckout', undefined, cookie);
      const afterFirst = counted.count();
      expect(afterFirst).toBeGreaterThan(1);
      const repeat = await b.call('getCheckout', undefined, cookie);
      expect(linesOf(repeat.body)).toHaveLength(1);
      expect(counted.count() - afterFirst).toBe(driver === 'pglite' ? 0 : 1);
      // A write in between, and the repeat asks again.
      await w.database.db.execute(sql`UPDATE sale_lines SET qty = qty WHERE id = -1`);
      const beforeThird = counted.count();
      await b.call('getCheckout', undefined, cookie);
      expect(counted.count() - beforeThird).toBe(1);
    } finally {
      await other.app.close();
    }
  });

  it('asks for the versions of reads that arrive together in one round trip, each read its own sale', async () => {
    const visitors = [await basket(), await basket(), await basket()];
    await w.database.db.execute(
      sql`UPDATE sale_lines SET qty = 1 WHERE sale_id = (SELECT sale_id FROM sale_lines ORDER BY id DESC LIMIT 1)`,
    );
    const counted = counting(w.database.db);
    const other = await appOn({ ...w.database, db: counted.db });
    try {
      const read = (v: Visitor) => new Visitor(other.app).call('getCheckout', undefined, { cookie: v.cookieHeader });
      await Promise.all(visitors.map(read));
      const built = counted.count();
      const again = await Promise.all(visitors.flatMap((v) => [read(v), read(v), read(v)]));
      // The first goes at once, the other eight wait for it and go together.
      expect(counted.count() - built).toBeLessThanOrEqual(2);
      expect(again.map((r) => linesOf(r.body)[0]!.qty)).toEqual([2, 2, 2, 2, 2, 2, 1, 1, 1]);
    } finally {
      await other.app.close();
    }
  });

  it('shows a change made through another app on the database at once, and the ETag moves on', async () => {
    const v = await basket();
    const other = await appOn(w.database);
    try {
      // Both apps (processes) have built and kept this basket.
      const here = await v.call('getCheckout');
      const there = await new Visitor(other.app).call('getCheckout', undefined, { cookie: v.cookieHeader });
      expect(linesOf(there.body)[0]!.qty).toBe(2);
      const changed = await other.app.inject({
        method: 'POST',
        url: '/ajax/checkout/checkout/update_ticket_quantity/',
        headers: { cookie: v.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `ticket_id=${w.demo.tickets.lanternEarlyAdult}&quantity=3`,
      });
      expect(changed.statusCode).toBe(200);
      const after = await v.call('getCheckout', undefined, { 'if-none-match': here.headers.etag as string });
      expect(after.statusCode).toBe(200);
      expect(linesOf(after.body)[0]!.qty).toBe(3);
      expect(after.headers.etag).not.toBe(here.headers.etag);
    } finally {
      await other.app.close();
    }
  });

  it('shows a price changed in the catalogue and a line written straight to the database at once', async () => {
    const v = await basket();
    const before = linesOf((await v.call('getCheckout')).body)[0]!;
    const [saleId] = await rows<{ sale_id: string }>(
      w.database.db,
      sql`SELECT sale_id FROM sale_lines ORDER BY id DESC LIMIT 1`,
    );
    await w.database.db.execute(
      sql`UPDATE ticket_types SET price = price + 100 WHERE id = ${w.demo.tickets.lanternEarlyAdult}`,
    );
    try {
      expect(linesOf((await v.call('getCheckout')).body)[0]!.price).toBe(before.price + 100);
    } finally {
      await w.database.db.execute(
        sql`UPDATE ticket_types SET price = price - 100 WHERE id = ${w.demo.tickets.lanternEarlyAdult}`,
      );
    }
    await w.database.db.execute(sql`DELETE FROM sale_lines WHERE sale_id = ${saleId!.sale_id}`);
    expect(linesOf((await v.call('getCheckout')).body)).toEqual([]);
  });

  it('shows a reservation, made by a database function called in a SELECT, and a write in a transaction at once', async () => {
    const v = await basket();
    const before = JSON.parse((await v.call('getCheckout')).body) as {
      seconds_remaining: number;
      tickets: { qty: number }[];
    };
    expect(before.seconds_remaining).toBe(0);
    expect(await v.json('reserveTickets')).toMatchObject({ reserved: true });
    const reserved = JSON.parse((await v.call('getCheckout')).body) as { seconds_remaining: number };
    expect(reserved.seconds_remaining).toBeGreaterThan(0);
    const [line] = await rows<{ id: number }>(w.database.db, sql`SELECT id FROM sale_lines ORDER BY id DESC LIMIT 1`);
    await w.database.db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE sale_lines SET qty = 1 WHERE id = ${line!.id}`);
    });
    expect(linesOf((await v.call('getCheckout')).body)[0]!.qty).toBe(1);
  });

  it("follows a running hold's countdown second by second, and its end", async () => {
    const v = await basket();
    expect((await v.json('reserveTickets', {})).reserved).toBe(true);
    const seconds = async () =>
      JSON.parse((await v.call('getCheckout')).body) as { seconds_remaining: number; state: string };
    const first = await seconds();
    expect(first.seconds_remaining).toBeGreaterThan(1);
    expect((await seconds()).seconds_remaining).toBe(first.seconds_remaining);
    w.clock.advance(1_000);
    expect((await seconds()).seconds_remaining).toBe(first.seconds_remaining - 1);
    w.clock.advance(first.seconds_remaining * 1_000);
    expect(await seconds()).toMatchObject({ seconds_remaining: 0, state: 'basket' });
  });
});
