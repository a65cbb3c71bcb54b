/**
 * Every door behind the queue, over HTTP as a buyer meets them: adding tickets, holding seats and
 * reserving on a queued date all want that date's admission; a buyer choosing one of several queued
 * dates is queued for that date; a turn is counted against the shoppers allowed until it ends or
 * reserves, and is shown with its end; places are capped per address and, when the organiser asks,
 * one per signed-in account; and admission after a release lets in only as many as can be served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import * as t from '../../db/schema.ts';
import { hotEvent } from '../../test/fixtures.ts';
import { drivers, openWorld, solvedChallenge, type TestWorld, Visitor } from '../../test/harness.ts';
import { queueStatus, type QueueStatus } from '../../../contract/waitingRoom.ts';
import {
  admissionClockMessage,
  LEAVE_TURN_LABEL,
  placesPerAddressMessage,
  QUEUE_FIRST_MESSAGE,
  SIGN_IN_TO_QUEUE_MESSAGE,
} from './gates.ts';
import { latestMail } from '../../mail/index.ts';

const CHECKOUT_SECONDS = 120;
const jar = (v: Visitor) => (v as unknown as { cookies: Map<string, string> }).cookies;

describe.each(drivers)('every door behind the queue on %s', (driver) => {
  let world: TestWorld;
  let eventId: number;
  /** Two queued dates of one event, one ticket type each. */
  const dates: { id: number; typeId: number }[] = [];
  let ip = 0;
  const visitor = (accept = 'application/json') => new Visitor(world.app, { accept }, `10.5.0.${++ip}`);

  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: CHECKOUT_SECONDS, maxHeldPerBuyer: 1000 });
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 50, types: 1 });
    const [first] = await db.select().from(t.eventDates).where(eq(t.eventDates.id, types[0]!.eventDateId));
    eventId = first!.eventId;
    const [pool] = await db.insert(t.capacityPools).values({ name: 'Second night', capacity: 50 }).returning();
    const [second] = await db
      .insert(t.eventDates)
      .values({ eventId, startsAt: new Date('2026-12-02T19:00:00Z'), poolId: pool!.id })
      .returning();
    const [type] = await db
      .insert(t.ticketTypes)
      .values({ eventDateId: second!.id, name: 'Second night ticket', price: 1000 })
      .returning();
    dates.push({ id: first!.id, typeId: types[0]!.id }, { id: second!.id, typeId: type!.id });
    for (const d of dates) {
      await db.insert(t.eventDateQueues).values({
        eventDateId: d.id,
        onSaleAt: new Date(world.clock.now.getTime() - 1000),
        maxShoppers: 100,
        admitPerMinute: 60,
        admissionSeconds: 600,
        pollSeconds: 2,
      });
    }
  });
  afterAll(async () => world?.close());

  const status = async (v: Visitor, dateId: number): Promise<QueueStatus> =>
    queueStatus.parse(
      (
        await v.request({
          method: 'GET',
          url: `/ajax/queue/${dateId}/status/`,
          headers: { accept: 'application/json' },
        })
      ).json(),
    );
  async function letIn(v: Visitor, dateId: number): Promise<void> {
    const joined = await v.request({
      method: 'POST',
      url: `/ajax/queue/${dateId}/join/`,
      body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
      headers: { accept: 'application/json' },
    });
    expect(joined.statusCode).toBe(200);
    for (let i = 0; i < 60 && (await status(v, dateId)).state !== 'admitted'; i++) world.clock.advance(1000);
    expect((await status(v, dateId)).state).toBe('admitted');
  }
  const ticketLines = async (v: Visitor) => (await v.checkout()).tickets.map((l) => l.ticket_id);

  it('sends an order form for a queued date without its admission to that date’s queue, and adds nothing', async () => {
    const browser = visitor('text/html');
    const added = await browser.add({ [dates[1]!.typeId]: 1 });
    // `add` asks for JSON: refused in words, with where to go.
    expect(added.statusCode).toBe(403);
    expect(added.json()).toEqual({ error: QUEUE_FIRST_MESSAGE, redirect: `/queue/${dates[1]!.id}/` });
    const form = await browser.request({
      method: 'POST',
      url: '/do/checkout/add/',
      body: `parent_event_id=${eventId}&ticket[0|0|${dates[1]!.typeId}|0][ticket]=${dates[1]!.typeId}&ticket[0|0|${dates[1]!.typeId}|0][qty]=2`,
    });
    expect([form.statusCode, form.headers.location]).toEqual([303, `/queue/${dates[1]!.id}/`]);
    expect(jar(browser).has('hf_sale')).toBe(false);
  });

  it('shows an event of several queued dates, and queues a buyer for the date they chose, not the first', async () => {
    const buyer = visitor('text/html');
    const page = await buyer.request({ method: 'GET', url: `/event/${eventId}/` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Second night ticket');
    // Let in for the second night only: its tickets go in, the first night's send the buyer to its own queue.
    await letIn(buyer, dates[1]!.id);
    expect((await buyer.add({ [dates[1]!.typeId]: 2 })).statusCode).toBe(200);
    expect(await ticketLines(buyer)).toEqual([dates[1]!.typeId]);
    const other = await buyer.add({ [dates[0]!.typeId]: 1 });
    expect(other.json()).toEqual({ error: QUEUE_FIRST_MESSAGE, redirect: `/queue/${dates[0]!.id}/` });
    expect(await ticketLines(buyer)).toEqual([dates[1]!.typeId]);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true });
  });

  it('tells an admitted buyer until when they may reserve, in the event’s time zone, on the event page', async () => {
    const buyer = visitor('text/html');
    await letIn(buyer, dates[0]!.id);
    const [place] = await world.database.db
      .select()
      .from(t.queuePlaces)
      .where(and(eq(t.queuePlaces.eventDateId, dates[0]!.id), isNotNull(t.queuePlaces.admittedAt)))
      .orderBy(t.queuePlaces.id);
    const until = new Date(place!.admittedAt!.getTime() + 600_000);
    const page = await buyer.request({ method: 'GET', url: `/event/${eventId}/` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(admissionClockMessage(until));
    // 12:00 UTC on 1 June is 13:00 in London.
    expect(admissionClockMessage(new Date('2026-06-01T12:10:00Z'))).toBe(
      'It is your turn: you have until 13:10 to reserve your tickets.',
    );
  });
});

describe.each(drivers)('the seat page behind the queue on %s', (driver) => {
  let world: TestWorld;
  let dateId: number;
  let seatIds: number[];
  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: CHECKOUT_SECONDS });
    const { db } = world.database;
    dateId = world.demo.seated.date;
    const seats = await db
      .select()
      .from(t.seats)
      .where(and(eq(t.seats.eventDateId, dateId), isNotNull(t.seats.ticketTypeId)))
      .orderBy(t.seats.id)
      .limit(2);
    seatIds = seats.map((s) => s.id);
    await db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt: new Date(world.clock.now.getTime() - 1000),
      maxShoppers: 10,
      admitPerMinute: 60,
      admissionSeconds: 600,
      pollSeconds: 2,
    });
  });
  afterAll(async () => world?.close());

  it('sends a buyer without the date’s admission from the seat page to its queue and holds them no seat, and holds them once let in', async () => {
    const buyer = new Visitor(world.app, { accept: 'application/json' }, '10.5.9.1');
    const seatPage = await buyer.request({
      method: 'GET',
      url: `/events/book_seats/${dateId}/`,
      headers: { accept: 'text/html' },
    });
    expect([seatPage.statusCode, seatPage.headers.location]).toEqual([303, `/queue/${dateId}/`]);
    const refused = await buyer.call('holdSeats', { event_date_id: dateId, seats: seatIds } as never);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: QUEUE_FIRST_MESSAGE, redirect: `/queue/${dateId}/` });
    const [seat] = await world.database.db.select().from(t.seats).where(eq(t.seats.id, seatIds[0]!));
    expect(seat!.heldUntil).toBeNull();

    await buyer.request({
      method: 'POST',
      url: `/ajax/queue/${dateId}/join/`,
      body: new URLSearchParams({ altcha: await solvedChallenge(buyer) }).toString(),
    });
    for (let i = 0; i < 10; i++) {
      world.clock.advance(1000);
      await buyer.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` });
    }
    const held = await buyer.call('holdSeats', { event_date_id: dateId, seats: seatIds } as never);
    expect(held.statusCode).toBe(200);
    const letIn = await buyer.request({
      method: 'GET',
      url: `/events/book_seats/${dateId}/`,
      headers: { accept: 'text/html' },
    });
    expect(letIn.statusCode).not.toBe(303);
  });
});

describe.each(drivers)('a place per person on %s', (driver) => {
  let world: TestWorld;
  let dateId: number;
  beforeAll(async () => {
    world = await openWorld(driver);
    const { types } = await hotEvent(world.database.db, { capacity: 10, types: 1 });
    dateId = types[0]!.eventDateId;
    await world.database.db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt: new Date(world.clock.now.getTime() + 60_000),
      maxShoppers: 10,
      admitPerMinute: 60,
      placesPerAddress: 3,
    });
  });
  afterAll(async () => world?.close());

  const join = async (v: Visitor, date = dateId) =>
    v.request({
      method: 'POST',
      url: `/ajax/queue/${date}/join/`,
      body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
      headers: { accept: 'application/json' },
    });

  it('gives one client address only as many places as the on-sale allows, and says why to the next', async () => {
    const fromOneAddress = Array.from({ length: 4 }, () => new Visitor(world.app, {}, '10.4.0.1'));
    for (const v of fromOneAddress.slice(0, 3))
      expect(queueStatus.parse((await join(v)).json()).state).toBe('before-sale');
    const fourth = await join(fromOneAddress[3]!);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ error: placesPerAddressMessage(3) });
    // Another address is given a place as before.
    expect((await join(new Visitor(world.app, {}, '10.4.0.2'))).statusCode).toBe(200);
  });

  it('asks an anonymous browser to sign in when the on-sale wants one place per account, and gives an account one place wherever it signs in', async () => {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 10, types: 1 });
    const date = types[0]!.eventDateId;
    await db.insert(t.eventDateQueues).values({
      eventDateId: date,
      onSaleAt: new Date(world.clock.now.getTime() + 60_000),
      maxShoppers: 10,
      admitPerMinute: 60,
      signInToQueue: true,
    });
    // The queues are read once a second.
    world.clock.advance(1000);
    const anonymous = new Visitor(world.app, {}, '10.4.1.1');
    const refused = await join(anonymous, date);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: SIGN_IN_TO_QUEUE_MESSAGE,
      sign_in_url: `/signin/?next=${encodeURIComponent(`/queue/${date}/`)}`,
    });
    const page = await anonymous.request({ method: 'GET', url: `/queue/${date}/`, headers: { accept: 'text/html' } });
    expect(page.body).toContain(SIGN_IN_TO_QUEUE_MESSAGE);
    expect(page.body).toContain(`href="/signin/?next=`);

    const email = 'one-place@example.test';
    await db.insert(t.users).values({ email, firstName: 'One', lastName: 'Place', viewType: 'customer' });
    const signIn = async (v: Visitor) => {
      await v.request({ method: 'POST', url: '/signin/', body: new URLSearchParams({ email }).toString() });
      const [mail] = await latestMail(db, { recipient: email });
      const code = /code is (\d{6})/.exec(mail!.body)![1]!;
      expect(
        (
          await v.request({
            method: 'POST',
            url: '/signin/code/',
            body: new URLSearchParams({ email, code }).toString(),
          })
        ).statusCode,
      ).toBe(303);
    };
    const laptop = new Visitor(world.app, {}, '10.4.1.2');
    const phone = new Visitor(world.app, {}, '10.4.1.3');
    await signIn(laptop);
    await signIn(phone);
    expect((await join(laptop, date)).statusCode).toBe(200);
    expect((await join(phone, date)).statusCode).toBe(200);
    const places = await db.select().from(t.queuePlaces).where(eq(t.queuePlaces.eventDateId, date));
    expect(places).toHaveLength(1);
    expect(jar(phone).get(`hf_queue_${date}`)!.split('.')[2]).toBe(String(places[0]!.id));
  });
});

describe.each(drivers)('admission against what can be served on %s', (driver) => {
  let world: TestWorld;
  afterAll(async () => world?.close());

  it('lets in at most as many buyers as there are tickets left, counting those let in who have not reserved', async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: CHECKOUT_SECONDS, maxHeldPerBuyer: 1000 });
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 10, types: 1 });
    const dateId = types[0]!.eventDateId;
    await db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt: new Date(world.clock.now.getTime() - 1000),
      maxShoppers: 1000,
      admitPerMinute: 6000,
      admissionSeconds: 600,
    });
    const buyers = Array.from(
      { length: 50 },
      (_, i) => new Visitor(world.app, {}, `10.3.${Math.floor(i / 3)}.${i % 3}`),
    );
    for (const v of buyers) {
      const res = await v.request({
        method: 'POST',
        url: `/ajax/queue/${dateId}/join/`,
        body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
      });
      expect(res.statusCode).toBe(200);
    }
    const admitted = async () =>
      (
        await Promise.all(
          buyers.map(
            async (v) =>
              queueStatus.parse((await v.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` })).json())
                .state,
          ),
        )
      ).filter((s) => s === 'admitted').length;
    // At 100 a second the whole queue could be let in at once; ten tickets serve ten buyers.
    for (let i = 0; i < 5; i++) {
      world.clock.advance(1000);
      await admitted();
    }
    const first = await admitted();
    expect(first).toBeGreaterThanOrEqual(10);
    expect(first).toBeLessThanOrEqual(12);
    // Their turns end unused: ten more are let in, no more.
    world.clock.advance(601_000);
    for (let i = 0; i < 3; i++) {
      world.clock.advance(1000);
      await admitted();
    }
    const [row] = await db.select().from(t.eventDateQueues).where(eq(t.eventDateQueues.eventDateId, dateId));
    expect(row!.admittedThrough).toBeGreaterThanOrEqual(20);
    expect(row!.admittedThrough).toBeLessThanOrEqual(24);
  });

  it('counts a turn against the shoppers allowed until it ends, reserves or leaves, not for a fixed time after admission moved', async () => {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 100, types: 1 });
    const dateId = types[0]!.eventDateId;
    const typeId = types[0]!.id;
    const [date] = await db.select().from(t.eventDates).where(eq(t.eventDates.id, dateId));
    const eventId = date!.eventId;
    await db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt: new Date(world.clock.now.getTime() - 1000),
      maxShoppers: 2,
      admitPerMinute: 600,
      admissionSeconds: 300,
    });
    world.clock.advance(1000);
    const buyers = Array.from({ length: 5 }, (_, i) => new Visitor(world.app, {}, `10.2.0.${i}`));
    for (const v of buyers)
      await v.request({
        method: 'POST',
        url: `/ajax/queue/${dateId}/join/`,
        body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
      });
    const states = async () =>
      Promise.all(
        buyers.map(
          async (v) =>
            queueStatus.parse((await v.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` })).json()).state,
        ),
      );
    for (let i = 0; i < 3; i++) {
      world.clock.advance(1000);
      await states();
    }
    const now = await states();
    expect(now.filter((s) => s === 'admitted')).toHaveLength(2);
    // One of the two reserves: their place among the shoppers goes to the next in line.
    const shopper = buyers[now.indexOf('admitted')]!;
    await shopper.add({ [typeId]: 1 });
    expect(await shopper.json('reserveTickets', {})).toMatchObject({ reserved: true });
    world.clock.advance(1000);
    await states();
    world.clock.advance(1000);
    const after = await states();
    expect(after.filter((s) => s === 'admitted')).toHaveLength(3);
    // Another is done without buying and says so on the event page: the next in line is let in.
    const leaver = buyers.find((v, i) => after[i] === 'admitted' && v !== shopper)!;
    const eventPage = await leaver.request({
      method: 'GET',
      url: `/event/${eventId}/`,
      headers: { accept: 'text/html' },
    });
    expect(eventPage.body).toContain(LEAVE_TURN_LABEL);
    const left = await leaver.request({
      method: 'POST',
      url: `/queue/${dateId}/leave/`,
      body: '',
      headers: { accept: 'text/html' },
    });
    expect([left.statusCode, left.headers.location]).toEqual([303, `/event/${eventId}/?left=1`]);
    expect(
      (await leaver.request({ method: 'GET', url: `/event/${eventId}/`, headers: { accept: 'text/html' } })).headers
        .location,
    ).toBe(`/queue/${dateId}/`);
    world.clock.advance(1000);
    await states();
    world.clock.advance(1000);
    expect((await states()).filter((s) => s === 'admitted')).toHaveLength(3);
    const [row] = await db.select().from(t.eventDateQueues).where(eq(t.eventDateQueues.eventDateId, dateId));
    expect(row!.admittedThrough).toBe(4);
  });
});
