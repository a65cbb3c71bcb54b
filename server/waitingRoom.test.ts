/**
 * The waiting room and the waiting list through the HTTP app: places only for browsers that solved
 * the proof of work, early arrivals drawn at random at the on-sale and later ones in order,
 * admission at the configured rate, the reservation and event page closed to buyers the queue has
 * not let in, 'sold out' when sales and live holds cover the stock and again open when holds
 * expire, and the waiting list offered released tickets in order, each once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { solveChallenge } from 'altcha-lib/v1';
import { rows } from './db/index.ts';
import * as t from './db/schema.ts';
import { hotEvent } from './test/fixtures.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';
import { queueStatus, type QueueStatus } from '../contract/waitingRoom.ts';
import { QUEUE_FIRST_MESSAGE } from './routes/waitingRoom/index.ts';
import { offerReleasedTickets, OFFER_ENDED_MESSAGE, waitingListJoinedMessage } from './domain/waitingRoom/waitingList.ts';
import { draw, join } from './domain/waitingRoom/room.ts';
import { latestMail } from './mail/index.ts';

const CHECKOUT_SECONDS = 120;
const types0Name = 'Rush ticket 1';

async function solved(v: Visitor): Promise<string> {
  const res = await v.call('getCaptchaChallenge');
  const c = res.json() as { algorithm: 'SHA-256'; challenge: string; salt: string; signature: string; maxnumber: number };
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  return Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution!.number, salt: c.salt, signature: c.signature })).toString('base64');
}

describe.each(drivers)('the waiting room on %s', (driver) => {
  let world: TestWorld;
  let dateId: number;
  let eventId: number;
  let typeId: number;
  let onSaleAt: Date;

  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: CHECKOUT_SECONDS, maxHeldPerBuyer: 1000 });
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 3, types: 1 });
    typeId = types[0]!.id;
    dateId = types[0]!.eventDateId;
    const [date] = await db.select().from(t.eventDates).where(eq(t.eventDates.id, dateId));
    eventId = date!.eventId;
    onSaleAt = new Date(world.clock.now.getTime() + 60_000);
    await db.insert(t.eventDateQueues).values({ eventDateId: dateId, onSaleAt, maxShoppers: 100, admitPerMinute: 60, admissionSeconds: 600, pollSeconds: 2 });
  });
  afterAll(async () => world?.close());

  const status = async (v: Visitor): Promise<QueueStatus> => {
    const res = await v.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` });
    expect(res.statusCode).toBe(200);
    return queueStatus.parse(res.json());
  };
  const joinQueue = async (v: Visitor): Promise<QueueStatus> => {
    const res = await v.request({ method: 'POST', url: `/ajax/queue/${dateId}/join/`, body: new URLSearchParams({ altcha: await solved(v) }).toString() });
    expect(res.statusCode).toBe(200);
    return queueStatus.parse(res.json());
  };
  const tick = (ms = 1000) => world.clock.advance(ms);

  it('gives no place to a client without the proof of work, nor to a forged token', async () => {
    const bare = new Visitor(world.app, {}, '10.9.0.1');
    expect((await status(bare)).state).toBe('no-place');
    const refused = await bare.request({ method: 'POST', url: `/ajax/queue/${dateId}/join/`, body: 'altcha=' });
    expect(refused.statusCode).toBe(403);
    const forged = new Visitor(world.app, { cookie: `hf_queue_${dateId}=q1.${dateId}.1.1.0.AAAA` }, '10.9.0.2');
    expect((await status(forged)).state).toBe('no-place');
  });

  const early: Visitor[] = [];
  it('keeps early arrivals before the on-sale, then numbers them 1..n and admits at the configured rate', async () => {
    for (let i = 0; i < 5; i++) {
      const v = new Visitor(world.app, {}, `10.9.1.${i}`);
      const joined = await joinQueue(v);
      expect(joined.state).toBe('before-sale');
      expect(joined.opens_in_seconds).toBeGreaterThan(0);
      // Joining again from the same browser keeps the one place.
      await joinQueue(v);
      early.push(v);
    }
    const [{ n }] = (await rows<{ n: number }>(world.database.db, sql`SELECT count(*)::int AS n FROM queue_places WHERE event_date_id = ${dateId}`)) as [{ n: number }];
    expect(n).toBe(5);

    world.clock.now = new Date(onSaleAt.getTime());
    const first = await Promise.all(early.map(status));
    // The draw has numbered the five 1..5 in some order; none is admitted at the very start.
    const positions = first.map((s) => (s.state === 'admitted' ? 0 : s.position));
    expect(positions.filter((p) => p !== 0).sort()).toEqual([1, 2, 3, 4, 5].slice(positions.filter((p) => p === 0).length));

    // A later arrival is numbered after them.
    const late = new Visitor(world.app, {}, '10.9.2.1');
    const lateJoined = await joinQueue(late);
    expect(lateJoined.state).toBe('waiting');
    // The queue page paints the place at once, as the poll tells it, and no shared cache keeps it;
    // without a place the page is the same for everyone and may be kept.
    const painted = await late.request({ method: 'GET', url: `/queue/${dateId}/` });
    expect(painted.headers['cache-control']).toBe('private, no-store');
    expect(painted.body).toContain(`You are number ${lateJoined.position} in the queue. Estimated wait: `);
    const carried = /data-status="([^"]+)"/.exec(painted.body)![1]!.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
    expect(queueStatus.parse(JSON.parse(carried))).toEqual(await status(late));
    const shell = await new Visitor(world.app, {}, '10.9.2.2').request({ method: 'GET', url: `/queue/${dateId}/` });
    expect(shell.headers['cache-control']).toBe('public, max-age=60');
    expect(shell.body).toContain('Finding your place in the queue…');
    expect(shell.body).not.toContain('data-status="{');

    // 60 a minute: one more every second.
    for (let second = 1; second <= 5; second++) {
      tick();
      const now = await Promise.all(early.map(status));
      const admitted = now.filter((s) => s.state === 'admitted').length;
      expect(admitted).toBe(second);
      const waiting = now.filter((s) => s.state === 'waiting');
      expect(waiting.map((s) => s.position).sort()).toEqual(waiting.map((_, i) => i + 1));
      for (const s of waiting) expect(s.wait_seconds).toBeGreaterThanOrEqual(s.position!);
    }
    expect((await status(late)).state).toBe('waiting');
    tick();
    expect((await status(late)).state).toBe('admitted');
    // Let in, the queue page sends the buyer on to the tickets.
    const onward = await late.request({ method: 'GET', url: `/queue/${dateId}/` });
    expect([onward.statusCode, onward.headers.location]).toEqual([303, `/event/${eventId}/`]);
  });

  it('sends a buyer without an admission from the event page to the queue, and refuses their reservation', async () => {
    const outsider = new Visitor(world.app, { accept: 'text/html' }, '10.9.3.1');
    const page = await outsider.request({ method: 'GET', url: `/event/${eventId}/` });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(`/queue/${dateId}/`);
    await outsider.add({ [typeId]: 1 });
    const reserve = await outsider.json('reserveTickets', {});
    expect(reserve).toEqual({ reserved: false, error: QUEUE_FIRST_MESSAGE });

    const admitted = early[0]!;
    const eventPage = await admitted.request({ method: 'GET', url: `/event/${eventId}/` });
    expect(eventPage.statusCode).toBe(200);
  });

  it('tells the queue sold out when sales and live holds cover the stock, and opens again when holds expire', async () => {
    const waiter = new Visitor(world.app, {}, '10.9.4.1');
    await joinQueue(waiter);
    // Three admitted buyers hold the three tickets.
    for (const v of early.slice(0, 3)) {
      await v.add({ [typeId]: 1 });
      expect(await v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    }
    tick();
    expect((await status(waiter)).state).toBe('sold-out');
    tick(CHECKOUT_SECONDS * 1000);
    const reopened = await status(waiter);
    expect(['waiting', 'admitted']).toContain(reopened.state);
  });

  it('draws the early arrivals in a random order at the on-sale, and numbers later ones as they come', async () => {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 5, types: 1 });
    const date = types[0]!.eventDateId;
    await db.insert(t.eventDateQueues).values({ eventDateId: date, onSaleAt, maxShoppers: 10, admitPerMinute: 60 });
    const early = [];
    for (let i = 0; i < 40; i++) early.push(await join(db, date, world.clock.now));
    expect(early.every((p) => p.number === 0)).toBe(true);
    await draw(db, date);
    await draw(db, date);
    const numbered = await rows<{ id: number; number: number }>(db, sql`SELECT id, number::int AS number FROM queue_places WHERE event_date_id = ${date} ORDER BY id`);
    expect(numbered.map((r) => r.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // 40 places in join order by chance: 1 in 40!.
    expect(numbered.map((r) => r.number)).not.toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const late = [];
    for (let i = 0; i < 5; i++) late.push((await join(db, date, world.clock.now)).number);
    expect(late).toEqual([41, 42, 43, 44, 45]);
  });

  it('takes a waiting list entry from the event page’s plain form, and refuses a bad one without a change', async () => {
    const browser = new Visitor(world.app, { accept: 'text/html' }, '10.9.8.1');
    const form = await browser.request({ method: 'GET', url: `/waiting-list/${typeId}/` });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('Join the waiting list');
    const joined = await browser.request({ method: 'POST', url: '/ajax/queue/waiting-list/', body: new URLSearchParams({ ticket_type_id: String(typeId), email: 'plain@example.test' }).toString() });
    expect(joined.statusCode).toBe(200);
    expect(joined.body).toContain(waitingListJoinedMessage(types0Name, CHECKOUT_SECONDS / 60));
    // A page, with a page's policy: its own inline stylesheet is allowed, by hash.
    expect(joined.headers['content-security-policy']).toMatch(/default-src 'self'.*style-src 'self' 'sha256-/);
    const again = await browser.request({ method: 'POST', url: '/ajax/queue/waiting-list/', body: new URLSearchParams({ ticket_type_id: String(typeId), email: 'PLAIN@example.test' }).toString() });
    expect(again.body).toContain('This e-mail address is already on the waiting list for Rush ticket 1.');
    const unknown = await browser.request({ method: 'POST', url: '/ajax/queue/waiting-list/', body: new URLSearchParams({ ticket_type_id: '999999', email: 'plain@example.test' }).toString() });
    expect(unknown.statusCode).toBe(404);
    const [{ n }] = (await rows<{ n: number }>(world.database.db, sql`SELECT count(*)::int AS n FROM waiting_list_entries WHERE lower(email) = 'plain@example.test'`)) as [{ n: number }];
    expect(n).toBe(1);
    await world.database.db.delete(t.waitingListEntries);
  });

  it('offers released tickets to the waiting list in order, each offer once, held for its buyer', async () => {
    const { db } = world.database;
    const mail = { mailer: { transport: null, from: 'tickets@example.test' }, brandName: 'Holdfast', publicUrl: 'http://127.0.0.1:3000' };
    const lister = (n: number) => new Visitor(world.app, { accept: 'application/json' }, `10.9.5.${n}`);
    const emails = ['first@example.test', 'second@example.test'];
    for (const [i, email] of emails.entries()) {
      const res = await lister(i).request({ method: 'POST', url: '/ajax/queue/waiting-list/', body: new URLSearchParams({ ticket_type_id: String(typeId), email, quantity: '2' }).toString() });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ joined: true });
    }
    const invalid = await lister(9).request({ method: 'POST', url: '/ajax/queue/waiting-list/', body: 'ticket_type_id=1&email=nope' });
    expect(invalid.statusCode).toBe(400);

    // Three buyers hold all three tickets: nothing to offer.
    const holders = [new Visitor(world.app, {}, '10.9.6.1'), new Visitor(world.app, {}, '10.9.6.2'), new Visitor(world.app, {}, '10.9.6.3')];
    for (const v of holders) await v.add({ [typeId]: 1 });
    // (they reserve straight through the hold path: admission is not what this proves)
    const { reserveSale } = await import('./domain/reserve.ts');
    const holdAll = await rows<{ id: string }>(db, sql`SELECT s.id FROM sales s JOIN sale_lines l ON l.sale_id = s.id WHERE l.ticket_type_id = ${typeId} AND s.hold_deadline IS NULL ORDER BY s.created_at DESC LIMIT 3`);
    for (const s of holdAll) expect((await reserveSale(db, s.id, world.clock.now, CHECKOUT_SECONDS)).reserved).toBe(true);
    expect(await offerReleasedTickets(db, mail, world.clock.now, CHECKOUT_SECONDS)).toBe(0);

    // One hold ends: one ticket is not enough for the first in line (two), so no one is offered out of turn.
    await db.execute(sql`UPDATE holds SET deadline = ${world.clock.now.toISOString()}::timestamptz WHERE sale_id = ${holdAll[0]!.id}`);
    expect(await offerReleasedTickets(db, mail, world.clock.now, CHECKOUT_SECONDS)).toBe(0);
    // A second ends: the first in line is offered two, held for them.
    await db.execute(sql`UPDATE holds SET deadline = ${world.clock.now.toISOString()}::timestamptz WHERE sale_id = ${holdAll[1]!.id}`);
    expect(await offerReleasedTickets(db, mail, world.clock.now, CHECKOUT_SECONDS)).toBe(1);
    expect(await offerReleasedTickets(db, mail, world.clock.now, CHECKOUT_SECONDS)).toBe(0);
    const [offer] = await latestMail(db, { recipient: emails[0] });
    expect(offer?.subject).toBe('Tickets for Rush Night are held for you');
    expect(await latestMail(db, { recipient: emails[1] })).toEqual([]);

    const link = /\/waiting-list\/offer\/[\w-]+\//.exec(offer!.body)![0];
    const buyer = new Visitor(world.app, {}, '10.9.7.1');
    const opened = await buyer.request({ method: 'GET', url: link });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/checkout/');
    const checkout = await buyer.checkout();
    expect(checkout.seconds_remaining).toBeGreaterThan(0);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true, fresh_reservation: false });

    // The offer runs out unused: its tickets go to the next in line, and the first is not offered again.
    tick(CHECKOUT_SECONDS * 1000 + 1000);
    const ended = await buyer.request({ method: 'GET', url: link });
    expect(ended.statusCode).toBe(410);
    expect(ended.body).toContain(OFFER_ENDED_MESSAGE);
    expect(await offerReleasedTickets(db, mail, world.clock.now, CHECKOUT_SECONDS)).toBe(1);
    expect(await latestMail(db, { recipient: emails[1] })).toHaveLength(1);
    expect(await latestMail(db, { recipient: emails[0] })).toHaveLength(1);
    const [{ taken }] = (await rows<{ taken: number }>(db, sql`SELECT (sold + held)::int AS taken FROM capacity_pools p JOIN event_dates d ON d.pool_id = p.id WHERE d.id = ${dateId}`)) as [{ taken: number }];
    expect(taken).toBeLessThanOrEqual(3);
  });
});

describe.each(drivers)('one queue shared by two server processes on %s', (driver) => {
  let world: TestWorld;
  let other: Awaited<ReturnType<typeof appOn>>;
  afterAll(async () => {
    await other?.app.close();
    await world?.close();
  });

  it('numbers joins through either process in one line, and admits at the configured rate, not once per process', async () => {
    world = await openWorld(driver);
    other = await appOn(world.database);
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 500, types: 1 });
    const dateId = types[0]!.eventDateId;
    const onSaleAt = new Date(world.clock.now.getTime() - 1000);
    other.clock.now = world.clock.now;
    await db.insert(t.eventDateQueues).values({ eventDateId: dateId, onSaleAt, maxShoppers: 100, admitPerMinute: 120, admissionSeconds: 600, pollSeconds: 2 });
    const apps = [world.app, other.app];
    const buyers = Array.from({ length: 30 }, (_, i) => new Visitor(apps[i % 2]!, {}, `10.8.0.${i}`));
    const place = async (v: Visitor) => {
      const res = await v.request({ method: 'POST', url: `/ajax/queue/${dateId}/join/`, body: new URLSearchParams({ altcha: await solved(v) }).toString() });
      return queueStatus.parse(res.json());
    };
    for (const v of buyers) await place(v);
    const numbers = await rows<{ number: number }>(db, sql`SELECT number::int AS number FROM queue_places WHERE event_date_id = ${dateId} ORDER BY id`);
    expect(numbers.map((r) => r.number)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));

    // Both processes are asked every second for ten seconds: 120 a minute is 2 a second, 20 in all.
    const start = world.clock.now.getTime();
    for (let second = 1; second <= 10; second++) {
      world.clock.now = new Date(start + second * 1000);
      other.clock.now = world.clock.now;
      await Promise.all(buyers.map((v) => v.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` })));
    }
    // One more second, asked of one process and then the other: both tell the same buyer the same place.
    world.clock.now = new Date(start + 11_000);
    other.clock.now = world.clock.now;
    const through = [];
    for (const app of apps) {
      const v = new Visitor(app, { cookie: buyers[29]!.cookieHeader }, '10.8.1.1');
      through.push(queueStatus.parse((await v.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` })).json()).position);
    }
    const [row] = await db.select().from(t.eventDateQueues).where(eq(t.eventDateQueues.eventDateId, dateId));
    // 12 seconds since the on-sale at 2 a second: 24, whichever process moved admission on.
    expect(row!.admittedThrough).toBeGreaterThanOrEqual(22);
    expect(row!.admittedThrough).toBeLessThanOrEqual(24);
    expect(through[0]).toBe(through[1]);
    expect(through[0]).toBe(30 - row!.admittedThrough);
  });
});

describe.each(drivers)('waiting list offers made at once on %s', (driver) => {
  let world: TestWorld;
  afterAll(async () => world?.close());

  it('offers the freed tickets to the first in line, each once, however many offer runs race', async () => {
    world = await openWorld(driver);
    const { db } = world.database;
    const { types, poolId } = await hotEvent(db, { capacity: 3, types: 1 });
    const typeId = types[0]!.id;
    const now = world.clock.now;
    for (let i = 0; i < 6; i++) {
      await db.insert(t.waitingListEntries).values({ ticketTypeId: typeId, email: `line${i}@example.test`, qty: 1, joinedAt: new Date(now.getTime() + i) });
    }
    const mail = { mailer: { transport: null, from: 'tickets@example.test' }, brandName: 'Holdfast', publicUrl: 'http://127.0.0.1:3000' };
    const made = await Promise.all(Array.from({ length: 4 }, () => offerReleasedTickets(db, mail, now, CHECKOUT_SECONDS)));
    expect(made.reduce((a, b) => a + b, 0)).toBe(3);
    const offered = await rows<{ email: string }>(db, sql`SELECT email FROM waiting_list_entries WHERE ticket_type_id = ${typeId} AND offered_at IS NOT NULL ORDER BY id`);
    expect(offered.map((r) => r.email)).toEqual(['line0@example.test', 'line1@example.test', 'line2@example.test']);
    const [pool] = await db.select().from(t.capacityPools).where(eq(t.capacityPools.id, poolId));
    expect(pool!.sold + pool!.held).toBe(3);
    for (const i of [0, 1, 2]) expect(await latestMail(db, { recipient: `line${i}@example.test` })).toHaveLength(1);
    expect(await latestMail(db, { recipient: 'line3@example.test' })).toEqual([]);
  });
});
