/**
 * The organiser's console over HTTP: only an account with the role for the date's organiser sees or
 * changes it; setting up, opening, pausing, resuming, changing the rate and the message each change
 * what the queue does and write an audit row; a presale code lets its buyer past the queue; the
 * waiting list exports as CSV.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as t from '../../db/schema.ts';
import { hotEvent } from '../../test/fixtures.ts';
import { drivers, openWorld, solvedChallenge, type TestWorld, Visitor } from '../../test/harness.ts';
import { queueStatus, type QueueStatus } from '../../../contract/waitingRoom.ts';
import { NOT_ORGANISER_MESSAGE, NOT_SIGNED_IN_MESSAGE, NOT_YOUR_DATE_MESSAGE } from './console.ts';
import { PRESALE_TOO_MANY_MESSAGE, PRESALE_WRONG_MESSAGE, PRESALE_WRONG_TRIES } from '../../routes/organiser/index.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const words = (body: string) => body.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

describe.each(drivers)('the organiser console on %s', (driver) => {
  let world: TestWorld;
  let dateId: number;
  let eventId: number;
  let typeId: number;
  let organiserId: number;
  let otherDateId: number;
  let organiser: Visitor;
  let rival: Visitor;
  let buyer: Visitor;
  let seq = 0;

  /** A new account, signed in (demo mode's sign-in), with the role for `organiser` when given. */
  async function account(role: number | null): Promise<Visitor> {
    const { db } = world.database;
    const [user] = await db
      .insert(t.users)
      .values({ email: `console-${driver}-${seq++}@example.com`, firstName: 'Ola', lastName: 'Console' })
      .returning();
    if (role !== null)
      await db.insert(t.organiserMembers).values({ organiserId: role, userId: user!.id, createdAt: world.clock.now });
    const v = new Visitor(world.app, {}, `10.8.0.${seq}`);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${user!.id}` })).statusCode).toBe(303);
    return v;
  }
  const act = (v: Visitor, path: string, fields: Record<string, string> = {}) =>
    v.request({ method: 'POST', url: `/organiser/dates/${dateId}/${path}`, body: form(fields) });
  const queue = async () =>
    (await world.database.db.select().from(t.eventDateQueues).where(eq(t.eventDateQueues.eventDateId, dateId)))[0];
  const auditActions = async () =>
    (
      await world.database.db
        .select()
        .from(t.organiserAudit)
        .where(eq(t.organiserAudit.eventDateId, dateId))
        .orderBy(t.organiserAudit.id)
    ).map((r) => r.action);
  const status = async (v: Visitor): Promise<QueueStatus> =>
    queueStatus.parse((await v.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` })).json());
  const joinQueue = async (v: Visitor) => {
    const res = await v.request({
      method: 'POST',
      url: `/ajax/queue/${dateId}/join/`,
      body: form({ altcha: await solvedChallenge(v) }),
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const tick = (ms = 1000) => world.clock.advance(ms);

  beforeAll(async () => {
    world = await openWorld(driver, { maxHeldPerBuyer: 1000 });
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 20, types: 1 });
    typeId = types[0]!.id;
    dateId = types[0]!.eventDateId;
    const [date] = await db.select().from(t.eventDates).where(eq(t.eventDates.id, dateId));
    eventId = date!.eventId;
    const [event] = await db.select().from(t.events).where(eq(t.events.id, eventId));
    organiserId = event!.organiserId;
    const other = await hotEvent(db, { capacity: 5, types: 1 });
    otherDateId = other.types[0]!.eventDateId;
    const [otherEvent] = await db
      .select({ organiserId: t.events.organiserId })
      .from(t.events)
      .innerJoin(t.eventDates, eq(t.eventDates.eventId, t.events.id))
      .where(eq(t.eventDates.id, otherDateId));
    organiser = await account(organiserId);
    rival = await account(otherEvent!.organiserId);
    buyer = await account(null);
  });
  afterAll(async () => world?.close());

  it('refuses, in words, a visitor not signed in, a buyer, and an organiser of another organiser', async () => {
    const anonymous = await new Visitor(world.app).request({ method: 'GET', url: '/organiser/' });
    expect(anonymous.statusCode).toBe(403);
    expect(words(anonymous.body)).toContain(NOT_SIGNED_IN_MESSAGE);
    const notOrganiser = await buyer.request({ method: 'GET', url: '/organiser/' });
    expect(notOrganiser.statusCode).toBe(403);
    expect(words(notOrganiser.body)).toContain(NOT_ORGANISER_MESSAGE);
    expect((await buyer.request({ method: 'GET', url: `/organiser/dates/${dateId}/` })).statusCode).toBe(403);

    const rivalHome = await rival.request({ method: 'GET', url: '/organiser/' });
    expect(rivalHome.statusCode).toBe(200);
    expect(rivalHome.body).toContain(`/organiser/dates/${otherDateId}/`);
    expect(rivalHome.body).not.toContain(`/organiser/dates/${dateId}/`);
    const seen = await rival.request({ method: 'GET', url: `/organiser/dates/${dateId}/` });
    expect(seen.statusCode).toBe(403);
    expect(words(seen.body)).toContain(NOT_YOUR_DATE_MESSAGE);
    const live = await rival.request({ method: 'GET', url: `/organiser/dates/${dateId}/live.json` });
    expect([live.statusCode, live.json()]).toEqual([403, { error: NOT_YOUR_DATE_MESSAGE }]);
    const changed = await act(rival, 'on-sale/', {
      on_sale_at: '2026-06-01T14:00',
      admit_per_minute: '60',
      max_shoppers: '10',
      admission_minutes: '10',
    });
    expect(changed.statusCode).toBe(403);
    expect((await act(buyer, 'pause/')).statusCode).toBe(403);
    // An id that is no date at all is refused the same way: nobody learns which dates exist.
    expect((await rival.request({ method: 'GET', url: '/organiser/dates/999999/' })).statusCode).toBe(403);
    expect((await rival.request({ method: 'GET', url: '/organiser/dates/abc/' })).statusCode).toBe(404);
    expect(await queue()).toBeUndefined();
    expect(await auditActions()).toEqual([]);
  });

  it('sets up an on-sale in the event’s time zone; bad input is told what is wrong', async () => {
    const bad = await act(organiser, 'on-sale/', {
      on_sale_at: 'tomorrow',
      admit_per_minute: '0',
      max_shoppers: '10',
      admission_minutes: '10',
    });
    expect(bad.statusCode).toBe(400);
    expect(words(bad.body)).toContain('Give the on-sale time as a date and time');
    // 12:00 UTC on 1 June is 13:00 in London: the on-sale at 14:00 there is an hour away.
    const res = await act(organiser, 'on-sale/', {
      on_sale_at: '2026-06-01T14:00',
      admit_per_minute: '60',
      max_shoppers: '10',
      admission_minutes: '10',
      sign_in_to_queue: 'on',
    });
    expect([res.statusCode, res.headers.location]).toEqual([303, `/organiser/dates/${dateId}/?done=set-up`]);
    expect(await queue()).toMatchObject({
      onSaleAt: new Date('2026-06-01T13:00:00Z'),
      admitPerMinute: 60,
      maxShoppers: 10,
      admissionSeconds: 600,
      signInToQueue: true,
      paused: false,
    });
    expect(await auditActions()).toEqual(['Set up the on-sale']);
    const page = await organiser.request({ method: 'GET', url: `/organiser/dates/${dateId}/?done=set-up` });
    expect(words(page.body)).toContain('The on-sale is set up.');
    expect(words(page.body)).toContain('Set up the on-sale: opens Mon, 1 Jun 2026, 14:00:00 BST');
    // The rest of this file's buyers queue without signing in.
    await world.database.db
      .update(t.eventDateQueues)
      .set({ signInToQueue: false })
      .where(eq(t.eventDateQueues.eventDateId, dateId));
    tick();
  });

  const waiting: Visitor[] = [];
  it('opens the on-sale now, pauses and resumes admission, and changes the rate live, each with its audit row', async () => {
    for (let i = 0; i < 8; i++) {
      const v = new Visitor(world.app, {}, `10.8.1.${i}`);
      await joinQueue(v);
      waiting.push(v);
    }
    expect((await status(waiting[0]!)).state).toBe('before-sale');
    expect((await act(organiser, 'open/')).statusCode).toBe(303);
    expect((await queue())!.onSaleAt).toEqual(world.clock.now);
    tick();
    const admitted = async () => (await Promise.all(waiting.map(status))).filter((s) => s.state === 'admitted').length;
    expect(await admitted()).toBe(1);

    expect((await act(organiser, 'pause/')).statusCode).toBe(303);
    expect((await act(organiser, 'pause/')).statusCode).toBe(409);
    tick(3000);
    expect(await admitted()).toBe(1);

    expect((await act(organiser, 'resume/')).statusCode).toBe(303);
    tick();
    expect(await admitted()).toBe(2);

    expect((await act(organiser, 'rate/', { admit_per_minute: 'fast' })).statusCode).toBe(400);
    expect((await act(organiser, 'rate/', { admit_per_minute: '180' })).statusCode).toBe(303);
    const changedAt = world.clock.now;
    tick();
    expect(await admitted()).toBe(5);
    expect(await auditActions()).toEqual([
      'Set up the on-sale',
      'Opened the on-sale now',
      'Paused admission',
      'Resumed admission',
      'Changed the rate',
    ]);
    const trail = await world.database.db
      .select()
      .from(t.organiserAudit)
      .where(eq(t.organiserAudit.eventDateId, dateId));
    expect(trail.at(-1)).toMatchObject({ organiserId, detail: 'from 60 to 180 a minute', at: changedAt });

    const live = await organiser.request({ method: 'GET', url: `/organiser/dates/${dateId}/live.json` });
    const body = live.json() as {
      figures: { state: string; waiting: number; admittedLastMinute: number };
      chart: string;
    };
    expect(body.figures).toMatchObject({ state: 'open', waiting: 3, admittedLastMinute: 5 });
    expect(body.chart.slice(0, 400)).toMatch(
      / role="img" aria-label="The last 2 minutes: queue length now 3, admitted in the last minute now 5,/,
    );
  });

  it('puts the organiser’s message on every waiting page', async () => {
    const text = 'Doors open at 7pm. Please keep this page open & wait.';
    expect((await act(organiser, 'message/', { message: 'x'.repeat(281) })).statusCode).toBe(400);
    expect((await act(organiser, 'message/', { message: text })).statusCode).toBe(303);
    expect((await act(organiser, 'pause/')).statusCode).toBe(303);
    tick();
    const late = new Visitor(world.app, {}, '10.8.1.99');
    await joinQueue(late);
    expect((await status(late)).state).toBe('waiting');
    const page = await late.request({ method: 'GET', url: `/queue/${dateId}/` });
    expect(words(page.body)).toContain(`From the organiser:</strong> <span>${text}</span>`);
    expect((await act(organiser, 'resume/')).statusCode).toBe(303);
    const fresh = await new Visitor(world.app).request({ method: 'GET', url: `/queue/${dateId}/` });
    expect(words(fresh.body)).toContain(text);
    expect((await auditActions()).slice(-3)).toEqual([
      'Changed the message to waiting buyers',
      'Paused admission',
      'Resumed admission',
    ]);
  });

  it('lets a buyer with a presale code past the queue, as many times as the code allows', async () => {
    expect((await act(organiser, 'presale-codes/', { code: 'x', max_uses: '1' })).statusCode).toBe(400);
    expect((await act(organiser, 'presale-codes/', { code: 'fanclub-1', max_uses: '1' })).statusCode).toBe(303);
    const fan = new Visitor(world.app, { accept: 'text/html' }, '10.8.2.1');
    expect((await fan.request({ method: 'GET', url: `/event/${eventId}/` })).headers.location).toBe(
      `/queue/${dateId}/`,
    );
    const wrong = await fan.request({ method: 'POST', url: `/presale/${dateId}/`, body: form({ code: 'NOPE' }) });
    expect(wrong.statusCode).toBe(400);
    expect(words(wrong.body)).toContain(PRESALE_WRONG_MESSAGE);
    const used = await fan.request({ method: 'POST', url: `/presale/${dateId}/`, body: form({ code: 'FanClub-1' }) });
    expect([used.statusCode, used.headers.location]).toEqual([303, `/event/${eventId}/`]);
    expect((await fan.request({ method: 'GET', url: `/event/${eventId}/` })).statusCode).toBe(200);
    await fan.add({ [typeId]: 1 });
    expect(await fan.json('reserveTickets', {})).toMatchObject({ reserved: true });
    // Its one use is spent.
    const second = new Visitor(world.app, {}, '10.8.2.2');
    expect(
      (await second.request({ method: 'POST', url: `/presale/${dateId}/`, body: form({ code: 'FANCLUB-1' }) }))
        .statusCode,
    ).toBe(400);
    expect((await auditActions()).at(-1)).toBe('Added a presale code');
  });

  it('refuses presale codes from an address after a few wrong ones, even the right code, until a quarter of an hour has passed', async () => {
    expect((await act(organiser, 'presale-codes/', { code: 'GUESSME-7', max_uses: '5' })).statusCode).toBe(303);
    const guesser = new Visitor(world.app, { accept: 'text/html' }, '10.8.3.1');
    for (let i = 0; i < PRESALE_WRONG_TRIES; i++) {
      expect(
        (await guesser.request({ method: 'POST', url: `/presale/${dateId}/`, body: form({ code: `GUESS-${i}` }) }))
          .statusCode,
      ).toBe(400);
    }
    const stopped = await guesser.request({
      method: 'POST',
      url: `/presale/${dateId}/`,
      body: form({ code: 'GUESSME-7' }),
    });
    expect(stopped.statusCode).toBe(429);
    expect(words(stopped.body)).toContain(PRESALE_TOO_MANY_MESSAGE);
    // Nothing was spent, and another address is not held back.
    const other = new Visitor(world.app, { accept: 'text/html' }, '10.8.3.2');
    expect(
      (await other.request({ method: 'POST', url: `/presale/${dateId}/`, body: form({ code: 'GUESSME-7' }) }))
        .statusCode,
    ).toBe(303);
    world.clock.advance(15 * 60_000 + 1000);
    expect(
      (await guesser.request({ method: 'POST', url: `/presale/${dateId}/`, body: form({ code: 'GUESSME-7' }) }))
        .statusCode,
    ).toBe(303);
  });

  it('shows, exports, removes and offers by hand the waiting list’s entries', async () => {
    const { db } = world.database;
    const now = world.clock.now;
    const [first] = await db
      .insert(t.waitingListEntries)
      .values({ ticketTypeId: typeId, email: 'first@example.com', qty: 2, joinedAt: now })
      .returning();
    const [second] = await db
      .insert(t.waitingListEntries)
      .values({ ticketTypeId: typeId, email: '=cmd@example.com', qty: 1, joinedAt: now })
      .returning();
    const page = await organiser.request({ method: 'GET', url: `/organiser/dates/${dateId}/` });
    expect(words(page.body)).toContain('Rush ticket 1: 2 waiting');
    const csv = await organiser.request({
      method: 'GET',
      url: `/organiser/dates/${dateId}/waiting-list/${typeId}/export.csv`,
    });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="waiting-list-${dateId}-${typeId}.csv"`);
    expect(csv.body.split('\r\n')).toEqual([
      'position,email,quantity,joined,status,offered,offer ends',
      `1,first@example.com,2,${now.toISOString()},waiting,,`,
      `2,'=cmd@example.com,1,${now.toISOString()},waiting,,`,
      '',
    ]);
    expect(
      (await rival.request({ method: 'GET', url: `/organiser/dates/${dateId}/waiting-list/${typeId}/export.csv` }))
        .statusCode,
    ).toBe(403);
    expect((await act(rival, `waiting-list/${first!.id}/remove/`)).statusCode).toBe(403);
    expect((await act(rival, `waiting-list/${second!.id}/offer/`)).statusCode).toBe(403);

    // Out of turn: the second in line is offered before the first.
    expect((await act(organiser, `waiting-list/${second!.id}/offer/`)).statusCode).toBe(303);
    const [offered] = await db.select().from(t.waitingListEntries).where(eq(t.waitingListEntries.id, second!.id));
    expect(offered!.offeredAt).toEqual(now);
    expect((await act(organiser, `waiting-list/${second!.id}/offer/`)).statusCode).toBe(409);

    expect((await act(organiser, `waiting-list/${first!.id}/remove/`)).statusCode).toBe(303);
    const again = await act(organiser, `waiting-list/${first!.id}/remove/`);
    expect(again.statusCode).toBe(409);
    expect(words(again.body)).toContain('This entry is off the list already.');
    expect((await act(organiser, 'waiting-list/999999/remove/')).statusCode).toBe(404);

    const trail = await db
      .select()
      .from(t.organiserAudit)
      .where(eq(t.organiserAudit.eventDateId, dateId))
      .orderBy(t.organiserAudit.id);
    expect(trail.slice(-2).map((r) => [r.action, r.detail.split(', held')[0]])).toEqual([
      ['Offered tickets by hand', '=cmd@example.com, 1 × Rush ticket 1'],
      ['Removed a waiting-list entry', 'first@example.com, 2 × Rush ticket 1'],
    ]);
    const shown = words((await organiser.request({ method: 'GET', url: `/organiser/dates/${dateId}/` })).body);
    expect(shown).toContain('Removed a waiting-list entry: first@example.com, 2 × Rush ticket 1');
    expect(shown).toContain('Rush ticket 1: 0 waiting');
  });

  it('refuses a change posted from another website', async () => {
    const res = await organiser.request({
      method: 'POST',
      url: `/organiser/dates/${dateId}/pause/`,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: '',
    });
    expect(res.statusCode).toBe(403);
    expect((await queue())!.paused).toBe(false);
  });
});
