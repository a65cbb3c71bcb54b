/**
 * The waiting list through the HTTP app: joining only once a type is sold out and its on-sale has
 * opened, with the proof of work and the type's limits; freed stock offered to the list before any
 * other buyer's claim; entries that cannot be served passed over without holding up those behind;
 * offers held for the event's window (never past its start, no more time added), their deadlines in
 * the event's time zone; a confirmation with the place and a leave link; and an offer's link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { rows, type Database } from '../../db/index.ts';
import * as t from '../../db/schema.ts';
import { hotEvent } from '../../test/fixtures.ts';
import { drivers, openWorld, solvedChallenge, type TestWorld, Visitor } from '../../test/harness.ts';
import { accountFor, codeSentTo, signInAs } from '../../test/accounts.ts';
import {
  OFFER_OTHER_ACCOUNT_MESSAGE,
  OFFER_REPLACE_QUESTION,
  OFFER_SEND_CODE_LABEL,
} from '../../routes/waitingRoom/offer.ts';
import { LEAVE_LABEL, WAITING_LIST_NO_PROOF_MESSAGE } from '../../routes/waitingRoom/waitingList.ts';
import {
  LEFT_MESSAGE,
  offerReleasedTickets,
  OFFER_ENDED_MESSAGE,
  OFFER_TAKEN_MESSAGE,
  OFFER_UNKNOWN_MESSAGE,
  WAITING_LIST_ADDRESS_CAP_MESSAGE,
  waitingListBeforeOnSaleMessage,
  waitingListJoinedMessage,
  waitingListOverCapacityMessage,
  waitingListOverOrderMessage,
  WAITING_LIST_ON_SALE_MESSAGE,
} from './waitingList.ts';
import { formatDeadline } from '../format.ts';
import { latestMail } from '../../mail/index.ts';

const CHECKOUT_SECONDS = 120;
const MAIL = {
  mailer: { transport: null, from: 'tickets@example.test' },
  brandName: 'Holdfast',
  publicUrl: 'http://127.0.0.1:3000',
  secret: 'test-secret',
};

/** Sets the offer window of the event a ticket type belongs to. */
async function offerWindow(db: Database, typeId: number, seconds: number): Promise<void> {
  await db.execute(
    sql`UPDATE events SET waiting_list_offer_seconds = ${seconds} WHERE id = (SELECT d.event_id FROM ticket_types t JOIN event_dates d ON d.id = t.event_date_id WHERE t.id = ${typeId})`,
  );
}

/** The newest sign-in code sent to an address, as its owner reads it. */

/** Joins a type's waiting list as the queue page's script does (JSON), with the proof of work unless told not to. */
async function joinList(v: Visitor, typeId: number, email: string, qty = 1, proof = true) {
  const body = new URLSearchParams({
    ticket_type_id: String(typeId),
    email,
    quantity: String(qty),
    ...(proof ? { altcha: await solvedChallenge(v) } : {}),
  });
  return v.request({
    method: 'POST',
    url: '/ajax/queue/waiting-list/',
    body: body.toString(),
    headers: { accept: 'application/json' },
  });
}

/** A buyer adds and reserves tickets over HTTP; answers what the reservation said. */
async function buy(v: Visitor, typeId: number, qty: number): Promise<{ reserved: boolean; error?: string }> {
  await v.add({ [typeId]: qty });
  return (await v.json('reserveTickets', {})) as { reserved: boolean; error?: string };
}

/** A visitor's cookie jar. */
const jar = (v: Visitor) => (v as unknown as { cookies: Map<string, string> }).cookies;

const offersTo = async (db: Database, email: string) =>
  (await latestMail(db, { recipient: email })).filter((m) => m.subject.startsWith('Tickets for'));

describe.each(drivers)('joining the waiting list on %s', (driver) => {
  let world: TestWorld;
  let ip = 0;
  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: CHECKOUT_SECONDS, maxHeldPerBuyer: 12 });
  });
  afterAll(async () => world?.close());
  const visitor = () => new Visitor(world.app, {}, `10.5.0.${++ip}`);

  it('is refused while tickets are on sale or before a queued on-sale opens, and without the proof of work', async () => {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 3, types: 1 });
    const typeId = types[0]!.id;
    const v = visitor();
    const bare = await joinList(v, typeId, 'early@example.test', 1, false);
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toEqual({ error: WAITING_LIST_NO_PROOF_MESSAGE });
    const onSale = await joinList(v, typeId, 'early@example.test');
    expect(onSale.statusCode).toBe(409);
    expect(onSale.json()).toEqual({ error: WAITING_LIST_ON_SALE_MESSAGE });
    // A queued date before its on-sale: the list is no way round the queue.
    const opens = new Date(world.clock.now.getTime() + 3600_000);
    await db
      .insert(t.eventDateQueues)
      .values({ eventDateId: types[0]!.eventDateId, onSaleAt: opens, maxShoppers: 10, admitPerMinute: 60 });
    const early = await joinList(v, typeId, 'early@example.test');
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ error: waitingListBeforeOnSaleMessage(opens) });
    const [{ n }] = (await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM waiting_list_entries WHERE ticket_type_id = ${typeId}`,
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('holds the type’s own limits and a cap per address, and confirms a join by e-mail with the place and a leave link that works', async () => {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 6, types: 1 });
    const typeId = types[0]!.id;
    await db.update(t.ticketTypes).set({ maxCanReserve: 4 }).where(eq(t.ticketTypes.id, typeId));
    expect((await buy(visitor(), typeId, 4)).reserved).toBe(true);
    expect((await buy(visitor(), typeId, 2)).reserved).toBe(true);
    const v = visitor();
    const tooMany = await joinList(v, typeId, 'many@example.test', 5);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toEqual({ error: waitingListOverOrderMessage('Rush ticket 1', 4) });
    await db.update(t.ticketTypes).set({ maxCanReserve: 10 }).where(eq(t.ticketTypes.id, typeId));
    const never = await joinList(v, typeId, 'many@example.test', 7);
    expect(never.statusCode).toBe(400);
    expect(never.json()).toEqual({ error: waitingListOverCapacityMessage('Rush ticket 1', 6) });

    const first = await joinList(v, typeId, 'first@example.test', 2);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      joined: true,
      position: 1,
      message: waitingListJoinedMessage('Rush ticket 1', 1, 48),
    });
    await joinList(v, typeId, 'second@example.test', 1);
    const third = await joinList(v, typeId, 'third@example.test', 1);
    expect(third.json()).toMatchObject({ position: 3 });
    // One address, a fourth entry on this date's lists: refused in words.
    const fourth = await joinList(v, typeId, 'fourth@example.test', 1);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual({ error: WAITING_LIST_ADDRESS_CAP_MESSAGE });

    const [confirmation] = await latestMail(db, { recipient: 'second@example.test' });
    expect(confirmation?.subject).toBe('You are on the waiting list for Rush Night');
    expect(confirmation?.body).toContain('You are number 2 on the waiting list for 1 × Rush ticket 1 at Rush Night.');
    const leave = /\/waiting-list\/leave\/[\w-]+\//.exec(confirmation!.body)![0];
    const reader = new Visitor(world.app, { accept: 'text/html' }, '10.5.9.9');
    const asked = await reader.request({ method: 'GET', url: leave });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain(LEAVE_LABEL);
    const left = await reader.request({ method: 'POST', url: leave, body: '' });
    expect(left.statusCode).toBe(200);
    expect(left.body).toContain(LEFT_MESSAGE);
    expect((await reader.request({ method: 'POST', url: leave, body: '' })).statusCode).toBe(404);
    expect((await reader.request({ method: 'GET', url: leave.replace(/.\/$/, 'x/') })).statusCode).toBe(404);
    // The third moves up: a newcomer behind them is number 3 (first, third, newcomer).
    const after = await joinList(visitor(), typeId, 'later@example.test', 1);
    expect(after.json()).toMatchObject({ position: 3 });
  });
});

describe.each(drivers)('the waiting list served in turn on %s', (driver) => {
  let world: TestWorld;
  let ip = 0;
  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: CHECKOUT_SECONDS, maxHeldPerBuyer: 12 });
  });
  afterAll(async () => world?.close());
  const visitor = () => new Visitor(world.app, {}, `10.4.0.${++ip}`);

  it('gives tickets an expired hold or offer frees to the next on the list, not to a buyer repeating add-and-reserve', async () => {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 2, types: 1 });
    const typeId = types[0]!.id;
    await offerWindow(db, typeId, 600);
    expect((await buy(visitor(), typeId, 2)).reserved).toBe(true);
    await joinList(visitor(), typeId, 'next1@example.test', 2);
    await joinList(visitor(), typeId, 'next2@example.test', 2);
    const rival = visitor();
    // The hold ends: the rival's add-and-reserve in that same moment finds nothing; the first in line is offered.
    world.clock.advance(CHECKOUT_SECONDS * 1000 + 1);
    expect((await buy(rival, typeId, 2)).reserved).toBe(false);
    expect(await offersTo(db, 'next1@example.test')).toHaveLength(1);
    // The offer ends unused: again the rival finds nothing, and the next in line is offered.
    world.clock.advance(600_000 + 1);
    expect((await buy(rival, typeId, 2)).reserved).toBe(false);
    expect((await buy(rival, typeId, 1)).reserved).toBe(false);
    expect(await offersTo(db, 'next2@example.test')).toHaveLength(1);
  });

  it('passes over an entry it cannot serve without holding up those behind it', async () => {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 4, types: 1 });
    const typeId = types[0]!.id;
    const holders = [visitor(), visitor()];
    expect((await buy(holders[0]!, typeId, 3)).reserved).toBe(true);
    expect((await buy(holders[1]!, typeId, 1)).reserved).toBe(true);
    await joinList(visitor(), typeId, 'wants3@example.test', 3);
    await joinList(visitor(), typeId, 'wants1@example.test', 1);
    // An entry from before the type allowed fewer per order: never served, never in the way.
    await db
      .insert(t.waitingListEntries)
      .values({ ticketTypeId: typeId, email: 'wants9@example.test', qty: 9, joinedAt: world.clock.now });
    await db.update(t.ticketTypes).set({ maxCanReserve: 3 }).where(eq(t.ticketTypes.id, typeId));
    // One ticket comes free: too few for the first in line, so the second is offered it.
    await db.execute(
      sql`UPDATE holds SET deadline = ${world.clock.now.toISOString()}::timestamptz WHERE ticket_type_id = ${typeId} AND qty = 1`,
    );
    expect(await offerReleasedTickets(db, MAIL, world.clock.now)).toBe(1);
    expect(await offersTo(db, 'wants1@example.test')).toHaveLength(1);
    expect(await offersTo(db, 'wants3@example.test')).toHaveLength(0);
    // Three more: the first in line now.
    await db.execute(
      sql`UPDATE holds SET deadline = ${world.clock.now.toISOString()}::timestamptz WHERE ticket_type_id = ${typeId} AND qty = 3`,
    );
    expect(await offerReleasedTickets(db, MAIL, world.clock.now)).toBe(1);
    expect(await offersTo(db, 'wants3@example.test')).toHaveLength(1);
    expect(await offersTo(db, 'wants9@example.test')).toHaveLength(0);
  });

  it('holds an offer for the event’s window, never past its start, says its end in the event’s time zone, adds no more time, and makes none once the event has started', async () => {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 2, types: 1 });
    const typeId = types[0]!.id;
    const dateId = types[0]!.eventDateId;
    await offerWindow(db, typeId, 3 * 3600);
    expect((await buy(visitor(), typeId, 1)).reserved).toBe(true);
    expect((await buy(visitor(), typeId, 1)).reserved).toBe(true);
    await joinList(visitor(), typeId, 'window@example.test', 1);
    await joinList(visitor(), typeId, 'start@example.test', 1);
    await joinList(visitor(), typeId, 'late@example.test', 1);
    // One hold ends now, and the event starts an hour from now: the first offer holds for 1 hour, not 3.
    const holdsEnd = world.clock.now;
    const startsAt = new Date(holdsEnd.getTime() + 3600_000);
    await db.update(t.eventDates).set({ startsAt }).where(eq(t.eventDates.id, dateId));
    await db.execute(
      sql`UPDATE holds SET deadline = ${holdsEnd.toISOString()}::timestamptz WHERE ticket_type_id = ${typeId} AND sale_id IN (SELECT sale_id FROM holds WHERE ticket_type_id = ${typeId} LIMIT 1)`,
    );
    expect(await offerReleasedTickets(db, MAIL, world.clock.now)).toBe(1);
    const [offer] = await offersTo(db, 'window@example.test');
    expect(offer!.body).toContain(`until ${formatDeadline(startsAt)}`);
    expect(formatDeadline(startsAt)).toMatch(/ (GMT|BST)$/);
    // Claimed, its checkout adds no more time: the offer never outlasts what its e-mail said.
    const link = /\/waiting-list\/offer\/[\w-]+\//.exec(offer!.body)![0];
    const buyer = visitor();
    await buyer.request({ method: 'POST', url: `${link}code/`, body: '' });
    expect(
      (
        await buyer.request({
          method: 'POST',
          url: `${link}claim/`,
          body: new URLSearchParams({ code: await codeSentTo(db, 'window@example.test') }).toString(),
        })
      ).statusCode,
    ).toBe(303);
    const checkout = await buyer.checkout();
    expect(checkout.seconds_remaining).toBeLessThanOrEqual(3600);
    const more = await buyer.call('extendHold', {});
    expect(more.statusCode).toBeGreaterThanOrEqual(400);
    expect((await buyer.checkout()).seconds_remaining).toBeLessThanOrEqual(3600);
    // The event starts: the other ticket comes free, but no one is offered it.
    world.clock.now = new Date(startsAt.getTime() + 1000);
    await db.execute(
      sql`UPDATE holds SET deadline = ${startsAt.toISOString()}::timestamptz WHERE ticket_type_id = ${typeId}`,
    );
    expect(await offerReleasedTickets(db, MAIL, world.clock.now)).toBe(0);
    expect(await offersTo(db, 'start@example.test')).toHaveLength(0);
    world.clock.now = new Date('2026-06-01T12:00:00Z');
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
      await db.insert(t.waitingListEntries).values({
        ticketTypeId: typeId,
        email: `line${i}@example.test`,
        qty: 1,
        joinedAt: new Date(now.getTime() + i),
      });
    }
    const made = await Promise.all(Array.from({ length: 4 }, () => offerReleasedTickets(db, MAIL, now)));
    expect(made.reduce((a, b) => a + b, 0)).toBe(3);
    const offered = await rows<{ email: string }>(
      db,
      sql`SELECT email FROM waiting_list_entries WHERE ticket_type_id = ${typeId} AND offered_at IS NOT NULL ORDER BY id`,
    );
    expect(offered.map((r) => r.email)).toEqual(['line0@example.test', 'line1@example.test', 'line2@example.test']);
    const [pool] = await db.select().from(t.capacityPools).where(eq(t.capacityPools.id, poolId));
    expect(pool!.sold + pool!.held).toBe(3);
    for (const i of [0, 1, 2]) expect(await latestMail(db, { recipient: `line${i}@example.test` })).toHaveLength(1);
    expect(await latestMail(db, { recipient: 'line3@example.test' })).toEqual([]);
  });
});

describe.each(drivers)('a waiting list offer link on %s', (driver) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: CHECKOUT_SECONDS });
  });
  afterAll(async () => world?.close());

  let ip = 0;
  const visitor = () => new Visitor(world.app, {}, `10.6.0.${++ip}`);
  /** An offer made to `email`: its link, its ticket type and its sale. */
  async function offerTo(email: string): Promise<{ link: string; typeId: number; saleId: string }> {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 2, types: 1 });
    const typeId = types[0]!.id;
    await offerWindow(db, typeId, CHECKOUT_SECONDS);
    await db.insert(t.waitingListEntries).values({ ticketTypeId: typeId, email, qty: 1, joinedAt: world.clock.now });
    expect(await offerReleasedTickets(db, MAIL, world.clock.now)).toBe(1);
    const [mail] = await latestMail(db, { recipient: email });
    const [entry] = await db.select().from(t.waitingListEntries).where(eq(t.waitingListEntries.ticketTypeId, typeId));
    return { link: /\/waiting-list\/offer\/[\w-]+\//.exec(mail!.body)![0], typeId, saleId: entry!.offerSaleId! };
  }
  const sendCode = (v: Visitor, link: string, replace = false) =>
    v.request({ method: 'POST', url: `${link}code/`, body: replace ? 'replace=1' : '' });
  const claim = (v: Visitor, link: string, code: string, replace = false) =>
    v.request({
      method: 'POST',
      url: `${link}claim/`,
      body: new URLSearchParams({ code, ...(replace ? { replace: '1' } : {}) }).toString(),
    });
  const heldTypes = async (v: Visitor) => (await v.checkout()).tickets.map((line) => line.ticket_id);

  it('asks whoever opens the link for the code sent to the listed address, and hands the sale to no one before it', async () => {
    const email = 'forwarded-from@example.test';
    const { link, typeId } = await offerTo(email);
    const forwarded = visitor();
    const opened = await forwarded.request({ method: 'GET', url: link });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain(OFFER_SEND_CODE_LABEL);
    expect(opened.body).toContain('f••••••••@example.test');
    expect(opened.body).not.toContain(email);
    expect(jar(forwarded).has('hf_sale')).toBe(false);
    // The code goes to the listed address, whatever the opener asks.
    expect((await sendCode(forwarded, link)).statusCode).toBe(200);
    const code = await codeSentTo(world.database.db, email);
    const wrong = await claim(forwarded, link, code === '000000' ? '111111' : '000000');
    expect(wrong.statusCode).toBe(400);
    expect((await claim(forwarded, link, 'abc')).statusCode).toBe(400);
    expect(await heldTypes(forwarded)).not.toContain(typeId);

    // A different buyer, signed in with their own code, is refused the offer, even holding the listed address's code.
    const other = visitor();
    await accountFor(world, 'someone-else@example.test');
    await signInAs(world, other, 'someone-else@example.test');
    const refused = await other.request({ method: 'GET', url: link });
    expect([refused.statusCode, refused.body.includes(OFFER_OTHER_ACCOUNT_MESSAGE)]).toEqual([403, true]);
    expect((await claim(other, link, code)).statusCode).toBe(403);
    expect(await heldTypes(other)).not.toContain(typeId);
    // Not a link at all.
    const unknown = await forwarded.request({
      method: 'GET',
      url: '/waiting-list/offer/not-a-real-offer-token-at-all/',
    });
    expect([unknown.statusCode, unknown.body.includes(OFFER_UNKNOWN_MESSAGE)]).toEqual([404, true]);
  });

  it('hands the sale to the browser that proves the listed address, once: a second browser is refused it, even with a right code', async () => {
    const email = 'no-account@example.test';
    const { link, typeId, saleId } = await offerTo(email);
    const buyer = visitor();
    await sendCode(buyer, link);
    const claimed = await claim(buyer, link, await codeSentTo(world.database.db, email));
    expect([claimed.statusCode, claimed.headers.location]).toEqual([303, '/checkout/']);
    expect(await heldTypes(buyer)).toEqual([typeId]);
    expect((await buyer.checkout()).seconds_remaining).toBeGreaterThan(0);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true, fresh_reservation: false });
    // Without an account the sale carries the proved address, as the checkout's login step leaves it.
    const [sale] = await world.database.db.select().from(t.sales).where(eq(t.sales.id, saleId));
    expect([sale!.userId, sale!.verifiedEmail]).toEqual([null, email]);
    // The same browser opening the link again goes back to its checkout.
    const reopened = await buyer.request({ method: 'GET', url: link });
    expect([reopened.statusCode, reopened.headers.location]).toEqual([303, '/checkout/']);

    const second = visitor();
    await sendCode(second, link);
    const refused = await claim(second, link, await codeSentTo(world.database.db, email));
    expect([refused.statusCode, refused.body.includes(OFFER_TAKEN_MESSAGE)]).toEqual([409, true]);
    expect(await heldTypes(second)).toEqual([]);
  });

  it('signs the listed address’s account in, and lets that account carry on in another browser: the sale follows the account', async () => {
    const email = 'has-account@example.test';
    const userId = await accountFor(world, email);
    const { link, typeId, saleId } = await offerTo(email);
    const phone = visitor();
    await sendCode(phone, link);
    expect((await claim(phone, link, await codeSentTo(world.database.db, email))).statusCode).toBe(303);
    expect(jar(phone).get('hf_session')?.[0]).toBe('s');
    const [sale] = await world.database.db.select().from(t.sales).where(eq(t.sales.id, saleId));
    expect(sale!.userId).toBe(userId);
    const laptop = visitor();
    await sendCode(laptop, link);
    expect((await claim(laptop, link, await codeSentTo(world.database.db, email))).statusCode).toBe(303);
    expect(await heldTypes(laptop)).toEqual([typeId]);
  });

  it('never replaces a basket with tickets in it without asking, and replaces it once the buyer says so', async () => {
    const email = 'has-a-basket@example.test';
    const { link, typeId } = await offerTo(email);
    const { types } = await hotEvent(world.database.db, { capacity: 10, types: 1 });
    const buyer = visitor();
    await buyer.add({ [types[0]!.id]: 1 });
    expect(await heldTypes(buyer)).toEqual([types[0]!.id]);
    const asked = await buyer.request({ method: 'GET', url: link });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain(OFFER_REPLACE_QUESTION);
    expect(asked.body).toContain('Keep my basket');
    // A claim that did not say so is asked again, and the basket is kept.
    await sendCode(buyer, link);
    const code = await codeSentTo(world.database.db, email);
    const notYet = await claim(buyer, link, code);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.body).toContain(OFFER_REPLACE_QUESTION);
    expect(await heldTypes(buyer)).toEqual([types[0]!.id]);
    // Said so: the offer's tickets are the basket now.
    expect((await claim(buyer, link, code, true)).statusCode).toBe(303);
    expect(await heldTypes(buyer)).toEqual([typeId]);
  });

  it('ends when it says it ends: a right code after the offer’s end claims nothing', async () => {
    const email = 'too-late@example.test';
    const { link, typeId } = await offerTo(email);
    const buyer = visitor();
    await sendCode(buyer, link);
    const code = await codeSentTo(world.database.db, email);
    world.clock.advance(CHECKOUT_SECONDS * 1000 + 1000);
    for (const res of [
      await claim(buyer, link, code),
      await buyer.request({ method: 'GET', url: link }),
      await sendCode(buyer, link),
    ]) {
      expect([res.statusCode, res.body.includes(OFFER_ENDED_MESSAGE)]).toEqual([410, true]);
    }
    expect(await heldTypes(buyer)).not.toContain(typeId);
  });
});
