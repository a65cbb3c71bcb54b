/**
 * The waiting room and the waiting list through the HTTP app: places only for browsers that solved
 * the proof of work, early arrivals drawn at random at the on-sale and later ones in order,
 * admission at the configured rate, the reservation and event page closed to buyers the queue has
 * not let in, 'sold out' when sales and live holds cover the stock and again open when holds
 * expire (the waiting list is server/domain/waitingRoom/waitingList.test.ts's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { rows } from '../../db/index.ts';
import * as t from '../../db/schema.ts';
import { hotEvent } from '../../test/fixtures.ts';
import { appOn, drivers, openWorld, solvedChallenge, type TestWorld, Visitor } from '../../test/harness.ts';
import { accountFor, signInAs } from '../../test/accounts.ts';
import { queueStatus, type QueueStatus } from '../../../contract/waitingRoom.ts';
import { ADMISSION_USED_MESSAGE, JOIN_AGAIN_LABEL, QUEUE_FIRST_MESSAGE } from './index.ts';
import { admissionEndedMessage } from '../../../contract/queuePage.ts';
import { draw, join } from '../../domain/waitingRoom/room.ts';

const CHECKOUT_SECONDS = 120;

/** A visitor's cookie jar, to copy a cookie into another browser's as an attacker would. */
const jar = (v: Visitor) => (v as unknown as { cookies: Map<string, string> }).cookies;
function copyCookies(from: Visitor, to: Visitor, names: string[]): void {
  for (const name of names) {
    const value = jar(from).get(name);
    if (value === undefined) throw new Error(`no ${name} to copy`);
    jar(to).set(name, value);
  }
}

/** The newest sign-in code sent to an address, as its owner reads it. */

describe.each(drivers)('the waiting room on %s', (driver) => {
  let world: TestWorld;
  let dateId: number;
  let eventId: number;
  let typeId: number;
  let onSaleAt: Date;
  let poolId: number;
  /** Sets the date's stock: admission lets in no more buyers than it can serve. */
  const stock = (capacity: number) =>
    world.database.db.update(t.capacityPools).set({ capacity }).where(eq(t.capacityPools.id, poolId));

  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: CHECKOUT_SECONDS, maxHeldPerBuyer: 1000 });
    const { db } = world.database;
    const { types, poolId: pool } = await hotEvent(db, { capacity: 3, types: 1 });
    poolId = pool;
    typeId = types[0]!.id;
    dateId = types[0]!.eventDateId;
    const [date] = await db.select().from(t.eventDates).where(eq(t.eventDates.id, dateId));
    eventId = date!.eventId;
    onSaleAt = new Date(world.clock.now.getTime() + 60_000);
    await db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt,
      maxShoppers: 100,
      admitPerMinute: 60,
      admissionSeconds: 600,
      pollSeconds: 2,
    });
  });
  afterAll(async () => world?.close());

  const status = async (v: Visitor): Promise<QueueStatus> => {
    const res = await v.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` });
    expect(res.statusCode).toBe(200);
    return queueStatus.parse(res.json());
  };
  const joinQueue = async (v: Visitor): Promise<QueueStatus> => {
    const res = await v.request({
      method: 'POST',
      url: `/ajax/queue/${dateId}/join/`,
      body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
    });
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
    const [{ n }] = (await rows<{ n: number }>(
      world.database.db,
      sql`SELECT count(*)::int AS n FROM queue_places WHERE event_date_id = ${dateId}`,
    )) as [{ n: number }];
    expect(n).toBe(5);

    // Six tickets for the six buyers of this test, so that only the rate holds them back.
    await stock(6);
    world.clock.now = new Date(onSaleAt.getTime());
    const first = await Promise.all(early.map(status));
    // The draw has numbered the five 1..5 in some order; none is admitted at the very start.
    const positions = first.map((s) => (s.state === 'admitted' ? 0 : s.position));
    expect(positions.filter((p) => p !== 0).sort()).toEqual(
      [1, 2, 3, 4, 5].slice(positions.filter((p) => p === 0).length),
    );

    // A later arrival is numbered after them.
    const late = new Visitor(world.app, {}, '10.9.2.1');
    const lateJoined = await joinQueue(late);
    expect(lateJoined.state).toBe('waiting');
    // The queue page paints the place at once, as the poll tells it, and no shared cache keeps it;
    // without a place the page is the same for everyone and may be kept.
    const painted = await late.request({ method: 'GET', url: `/queue/${dateId}/` });
    expect(painted.headers['cache-control']).toBe('private, no-store');
    expect(painted.body).toContain(`You are number ${lateJoined.position} in the queue. Estimated wait: `);
    const carried = /data-status="([^"]+)"/
      .exec(painted.body)![1]!
      .replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
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
    await stock(3);
  });

  it('sends a buyer without an admission from the event page to the queue, and refuses their reservation', async () => {
    const outsider = new Visitor(world.app, { accept: 'text/html' }, '10.9.3.1');
    const page = await outsider.request({ method: 'GET', url: `/event/${eventId}/` });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(`/queue/${dateId}/`);
    const added = await outsider.add({ [typeId]: 1 });
    expect([added.statusCode, added.json()]).toEqual([
      403,
      { error: QUEUE_FIRST_MESSAGE, redirect: `/queue/${dateId}/` },
    ]);
    expect(await outsider.json('reserveTickets', {})).toMatchObject({ reserved: false });

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
    const numbered = await rows<{ id: number; number: number }>(
      db,
      sql`SELECT id, number::int AS number FROM queue_places WHERE event_date_id = ${date} ORDER BY id`,
    );
    expect(numbered.map((r) => r.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // 40 places in join order by chance: 1 in 40!.
    expect(numbered.map((r) => r.number)).not.toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const late = [];
    for (let i = 0; i < 5; i++) late.push((await join(db, date, world.clock.now)).number);
    expect(late).toEqual([41, 42, 43, 44, 45]);
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
    await db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt,
      maxShoppers: 100,
      admitPerMinute: 120,
      admissionSeconds: 600,
      pollSeconds: 2,
    });
    const apps = [world.app, other.app];
    const buyers = Array.from({ length: 30 }, (_, i) => new Visitor(apps[i % 2]!, {}, `10.8.0.${i}`));
    const place = async (v: Visitor) => {
      const res = await v.request({
        method: 'POST',
        url: `/ajax/queue/${dateId}/join/`,
        body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
      });
      return queueStatus.parse(res.json());
    };
    for (const v of buyers) await place(v);
    const numbers = await rows<{ number: number }>(
      db,
      sql`SELECT number::int AS number FROM queue_places WHERE event_date_id = ${dateId} ORDER BY id`,
    );
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
      through.push(
        queueStatus.parse((await v.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` })).json()).position,
      );
    }
    const [row] = await db.select().from(t.eventDateQueues).where(eq(t.eventDateQueues.eventDateId, dateId));
    // 12 seconds since the on-sale at 2 a second: 24, whichever process moved admission on.
    expect(row!.admittedThrough).toBeGreaterThanOrEqual(22);
    expect(row!.admittedThrough).toBeLessThanOrEqual(24);
    expect(through[0]).toBe(through[1]);
    expect(through[0]).toBe(30 - row!.admittedThrough);
  });
});
describe.each(drivers)('a turn in the queue belongs to its browser, reserves one sale and ends, on %s', (driver) => {
  let world: TestWorld;
  let dateId: number;
  let eventId: number;
  let typeId: number;
  const ADMISSION_SECONDS = 300;

  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: CHECKOUT_SECONDS, maxHeldPerBuyer: 1000 });
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 20, types: 1 });
    typeId = types[0]!.id;
    dateId = types[0]!.eventDateId;
    const [date] = await db.select().from(t.eventDates).where(eq(t.eventDates.id, dateId));
    eventId = date!.eventId;
    await db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt: new Date(world.clock.now.getTime() - 1000),
      maxShoppers: 100,
      admitPerMinute: 60,
      admissionSeconds: ADMISSION_SECONDS,
      pollSeconds: 2,
    });
  });
  afterAll(async () => world?.close());

  let ip = 0;
  const visitor = () => new Visitor(world.app, { accept: 'application/json' }, `10.7.0.${++ip}`);
  const status = async (v: Visitor): Promise<QueueStatus> =>
    queueStatus.parse((await v.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` })).json());
  const joinQueue = async (v: Visitor): Promise<QueueStatus> => {
    const res = await v.request({
      method: 'POST',
      url: `/ajax/queue/${dateId}/join/`,
      body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
    });
    expect(res.statusCode).toBe(200);
    return queueStatus.parse(res.json());
  };
  /** Joins and waits, a second at a time, until let in. */
  async function letIn(v: Visitor): Promise<void> {
    await joinQueue(v);
    for (let i = 0; i < 60 && (await status(v)).state !== 'admitted'; i++) world.clock.advance(1000);
    expect((await status(v)).state).toBe('admitted');
  }
  const eventPage = (v: Visitor) =>
    v.request({ method: 'GET', url: `/event/${eventId}/`, headers: { accept: 'text/html' } });
  /** Adds a ticket and reserves: what the add or the reservation answers. */
  const reserve = async (v: Visitor) => {
    const added = await v.add({ [typeId]: 1 });
    if (added.statusCode !== 200) return added.json() as Record<string, unknown>;
    return v.json('reserveTickets', {});
  };
  const placeRow = async (v: Visitor) => {
    const token = jar(v).get(`hf_queue_${dateId}`)!;
    const placeId = Number(token.split('.')[2]);
    const [row] = await world.database.db.select().from(t.queuePlaces).where(eq(t.queuePlaces.id, placeId));
    return row!;
  };

  it('refuses a place or an admission copied into another browser: the copy is told of no place, sent to the queue and refused the tickets', async () => {
    const buyer = visitor();
    await joinQueue(buyer);
    // A place copied before its turn: no place there, and no admission when the turn comes.
    const early = visitor();
    copyCookies(buyer, early, [`hf_queue_${dateId}`]);
    expect((await status(early)).state).toBe('no-place');
    await letIn(buyer);
    expect((await status(early)).state).toBe('no-place');
    expect(jar(early).has(`hf_admit_${dateId}`)).toBe(false);

    // The admission and the place copied once the turn came, into a browser without a session and one with its own.
    for (const thief of [visitor(), visitor()]) {
      if (ip % 2 === 0) await thief.request({ method: 'GET', url: `/queue/${dateId}/` });
      copyCookies(buyer, thief, [`hf_queue_${dateId}`, `hf_admit_${dateId}`]);
      const page = await eventPage(thief);
      expect([page.statusCode, page.headers.location]).toEqual([303, `/queue/${dateId}/`]);
      expect((await status(thief)).state).toBe('no-place');
      expect(await reserve(thief)).toEqual({ error: QUEUE_FIRST_MESSAGE, redirect: `/queue/${dateId}/` });
    }
    // The buyer whose turn it is carries on.
    expect((await eventPage(buyer)).statusCode).toBe(200);
    expect(await reserve(buyer)).toMatchObject({ reserved: true });
  });

  it('lets an admission reserve one basket only, however many copies of the turn there are', async () => {
    const buyer = visitor();
    await letIn(buyer);
    expect(await reserve(buyer)).toMatchObject({ reserved: true });
    const saleId = (await placeRow(buyer)).saleId;
    expect(saleId).not.toBeNull();
    // The whole browser copied, all but its basket: the copy is the same session, so it may look, but its basket is another.
    const twin = visitor();
    copyCookies(buyer, twin, ['hf_session', `hf_queue_${dateId}`, `hf_admit_${dateId}`]);
    expect((await eventPage(twin)).statusCode).toBe(200);
    expect(await reserve(twin)).toEqual({ reserved: false, error: ADMISSION_USED_MESSAGE });
    expect((await placeRow(buyer)).saleId).toBe(saleId);
    // The buyer's own basket reserves again with it.
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true });
  });

  it('refuses the reservation of a basket filled during a turn that has ended, in words, holding nothing', async () => {
    const buyer = visitor();
    await letIn(buyer);
    expect((await buyer.add({ [typeId]: 2 })).statusCode).toBe(200);
    const [pool] = await world.database.db
      .select({ held: t.capacityPools.held })
      .from(t.capacityPools)
      .innerJoin(t.eventDates, eq(t.eventDates.poolId, t.capacityPools.id))
      .where(eq(t.eventDates.id, dateId));
    world.clock.advance((ADMISSION_SECONDS + 1) * 1000);
    expect(await buyer.json('reserveTickets', {})).toEqual({
      reserved: false,
      error: admissionEndedMessage(ADMISSION_SECONDS / 60),
    });
    const [after] = await world.database.db
      .select({ held: t.capacityPools.held })
      .from(t.capacityPools)
      .innerJoin(t.eventDates, eq(t.eventDates.poolId, t.capacityPools.id))
      .where(eq(t.eventDates.id, dateId));
    expect(after!.held).toBe(pool!.held);
  });

  it('ends a turn admission_seconds after it was first handed out, never hands it out again, and offers a new place at the back', async () => {
    const buyer = visitor();
    await joinQueue(buyer);
    const before = jar(buyer).get(`hf_queue_${dateId}`)!;
    await letIn(buyer);
    const first = (await placeRow(buyer)).admittedAt;
    expect(first).not.toBeNull();
    // Polls and a lost admission cookie within the turn: the turn keeps its first start, and ends then.
    for (let i = 0; i < 3; i++) expect((await status(buyer)).state).toBe('admitted');
    jar(buyer).delete(`hf_admit_${dateId}`);
    world.clock.advance(60_000);
    expect((await status(buyer)).state).toBe('admitted');
    expect(Number(jar(buyer).get(`hf_admit_${dateId}`)!.split('.')[3])).toBe(
      first!.getTime() / 1000 + ADMISSION_SECONDS,
    );
    expect((await placeRow(buyer)).admittedAt).toEqual(first);

    world.clock.advance((ADMISSION_SECONDS - 60) * 1000);
    const page = await eventPage(buyer);
    expect([page.statusCode, page.headers.location]).toEqual([303, `/queue/${dateId}/`]);
    const queuePage = await buyer.request({ method: 'GET', url: `/queue/${dateId}/` });
    expect(queuePage.statusCode).toBe(200);
    expect(queuePage.body).toContain(admissionEndedMessage(ADMISSION_SECONDS / 60));
    expect(queuePage.body).toContain(JOIN_AGAIN_LABEL);
    expect((queuePage.cookies as { name: string }[]).map((c) => c.name)).not.toContain(`hf_admit_${dateId}`);
    expect((await status(buyer)).state).toBe('ended');
    expect(await reserve(buyer)).toEqual({
      error: admissionEndedMessage(ADMISSION_SECONDS / 60),
      redirect: `/queue/${dateId}/`,
    });
    // The place's cookie from before its turn, kept back and shown again, is spent too (the database says so).
    jar(buyer).set(`hf_queue_${dateId}`, before);
    jar(buyer).delete(`hf_admit_${dateId}`);
    expect((await status(buyer)).state).toBe('ended');
    expect(jar(buyer).has(`hf_admit_${dateId}`)).toBe(false);

    // Joining again: a new place, at the back of the line.
    const again = await buyer.request({ method: 'POST', url: `/queue/${dateId}/again/`, body: '' });
    expect([again.statusCode, again.headers.location]).toEqual([303, `/queue/${dateId}/`]);
    const rejoined = await joinQueue(buyer);
    expect(['waiting', 'admitted']).toContain(rejoined.state);
    const [{ last }] = (await rows<{ last: number }>(
      world.database.db,
      sql`SELECT max(number)::int AS last FROM queue_places WHERE event_date_id = ${dateId}`,
    )) as [{ last: number }];
    expect((await placeRow(buyer)).number).toBe(last);
  });

  it('keeps a turn across signing in and out in the same browser', async () => {
    const email = 'queued-buyer@example.test';
    await accountFor(world, email);
    const buyer = visitor();
    await letIn(buyer);
    await signInAs(world, buyer, email);
    expect((await eventPage(buyer)).statusCode).toBe(200);
    expect((await status(buyer)).state).toBe('admitted');
    expect(await reserve(buyer)).toMatchObject({ reserved: true });
    expect((await buyer.request({ method: 'POST', url: '/signout/', body: '' })).statusCode).toBeLessThan(400);
    expect((await eventPage(buyer)).statusCode).toBe(200);
    expect((await status(buyer)).state).toBe('admitted');
  });
});
