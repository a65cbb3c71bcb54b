/**
 * Every cookie the server sets is in docs/security.md's table, and each is refused in every other
 * cookie's slot and under another browser's session: a token is worth something only for the
 * purpose, subject and session it was made for.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as t from './db/schema.ts';
import { bindingOf, readToken, signToken, tokenKey, SESSION_COOKIE } from './http/session.ts';
import { referralCode } from './domain/afterSale.ts';
import { hotEvent } from './test/fixtures.ts';
import { drivers, openWorld, solvedChallenge, type TestWorld, Visitor } from './test/harness.ts';
import { testConfig } from './config.ts';
import { queueStatus } from '../contract/waitingRoom.ts';

const HTML = { accept: 'text/html' };

/** Cookies that hold a preference, not a capability: their table row says they grant nothing. */
const PREFERENCES = new Set(['hf_lang']);

/** The table's rows: a token's name, and whether it is a cookie. */
function documented(): { name: string; kind: string; purpose: string; subject: string; lifetime: string; checked: string }[] {
  const text = readFileSync(new URL('../docs/security.md', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => /^\| (`[^`]+`|[a-z][^|]*) \| (cookie|e-mail|link|form|header) \|/.test(line))
    .map((line) => {
      const [name, kind, purpose, subject, lifetime, checked] = line.split('|').slice(1).map((cell) => cell.trim());
      return { name: name!.replace(/`/g, ''), kind: kind!, purpose: purpose!, subject: subject!, lifetime: lifetime!, checked: checked! };
    });
}

/** A cookie's name as the table writes it: a date's cookies with `<date>` for the date. */
const tableName = (cookie: string) => cookie.replace(/_\d+$/, '_<date>');

describe('the table of tokens', () => {
  it('gives every token a purpose, a subject, a lifetime and where it is checked', () => {
    const rows = documented();
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      for (const field of ['purpose', 'subject', 'lifetime', 'checked'] as const) expect(row[field], `${row.name}: ${field}`).not.toBe('');
    }
  });
});

describe('a signed token', () => {
  const key = tokenKey('a-secret-of-enough-length-for-the-session-0123');
  const purposes = ['hf_sale', 'hf_seats', 'hf_ref', 'hf_queue_7', 'hf_admit_7'];
  const binding = bindingOf('a'.repeat(44));

  it('made for one purpose is refused for every other, and under another session, and after its end', () => {
    for (const made of purposes) {
      const token = signToken(key, made, binding, 'value-1', 2000);
      expect(readToken(key, made, binding, token, 1000)?.value, made).toBe('value-1');
      for (const other of purposes.filter((p) => p !== made)) expect(readToken(key, other, binding, token, 1000), `${made} as ${other}`).toBeNull();
      expect(readToken(key, made, bindingOf('b'.repeat(44)), token, 1000), `${made} in another session`).toBeNull();
      expect(readToken(key, made, binding, token, 2000), `${made} at its end`).toBeNull();
      expect(readToken(key, made, binding, token.replace('value-1', 'value-2'), 1000), `${made} with another subject`).toBeNull();
      // The end is inside what is signed: a token given a later end is refused.
      expect(readToken(key, made, binding, token.replace(`.${(2000).toString(36)}.`, `.${(9000).toString(36)}.`), 1000), `${made} with a later end`).toBeNull();
    }
  });
});

describe.each(drivers)('every cookie the server sets, on %s', (driver) => {
  let w: TestWorld;
  let queuedDate: number;
  /** The victim: a browser that went everywhere and holds one of every cookie. */
  let victim: Visitor;
  /** Every cookie the victim was given, by name. */
  const given = new Map<string, string>();
  /** Every cookie name any response set. */
  const names = new Set<string>();

  async function record(v: Visitor, res: Promise<{ cookies: unknown }>) {
    const done = await res;
    for (const c of done.cookies as { name: string; value: string }[]) {
      names.add(c.name);
      if (v === victim && c.value) given.set(c.name, c.value);
    }
    return done;
  }

  beforeAll(async () => {
    w = await openWorld(driver, { maxHeldPerBuyer: 1000, trustProxy: 1 });
    const { db } = w.database;
    const { types } = await hotEvent(db, { capacity: 50, types: 1 });
    queuedDate = types[0]!.eventDateId;
    // A queue whose on-sale has begun and that lets everyone in at once.
    await db.insert(t.eventDateQueues).values({ eventDateId: queuedDate, onSaleAt: new Date(w.clock.now.getTime() - 60_000), maxShoppers: 1000, admitPerMinute: 6000, admissionSeconds: 600, pollSeconds: 2 });

    victim = new Visitor(w.app);
    const buyer = w.demo.users.notSubscribed;
    // A share link from another buyer, then a basket, a seat hold and a place in a queue that admits.
    const [sharer] = await db.select().from(t.users).where(eq(t.users.id, w.demo.users.subscribedDark.id));
    await record(victim, victim.request({ method: 'GET', url: `/event/${w.demo.events.jazz}/?ref=${encodeURIComponent(referralCode(testConfig().sessionSecret, sharer!.id, w.clock.now))}`, headers: HTML }));
    await record(victim, victim.add({ [w.demo.tickets.jazzGeneral]: 1 }));
    const plan = (await victim.call('getSeatingPlan', { event_date_id: w.demo.seated.date })).json() as { seating_plan_layout: { sections: { rows: { seats: { id: number; status: string; ticket_type_id: number | null }[] }[] }[] } };
    const free = plan.seating_plan_layout.sections.flatMap((s) => s.rows.flatMap((r) => r.seats)).find((s) => s.status === 'available' && s.ticket_type_id !== null)!;
    await record(victim, victim.call('holdSeats', { event_date_id: w.demo.seated.date, seats: [free.id] }));
    await record(victim, victim.request({ method: 'POST', url: `/ajax/queue/${queuedDate}/join/`, body: new URLSearchParams({ altcha: await solvedChallenge(victim) }).toString() }));
    for (let i = 0; i < 5 && !given.has(`hf_admit_${queuedDate}`); i++) {
      w.clock.advance(2000);
      await record(victim, victim.request({ method: 'GET', url: `/ajax/queue/${queuedDate}/status/` }));
    }
    // The language picker's choice (English, so the pages read below keep their words).
    await record(victim, victim.request({ method: 'POST', url: '/language/', body: 'language=en-GB' }));
    // Signed in last, so every token above is carried over to the signed-in session.
    await record(victim, victim.request({ method: 'POST', url: '/signin/', body: `user_id=${buyer.id}` }));
    // Over HTTPS too, and signed out.
    const secure = new Visitor(w.app, { 'x-forwarded-proto': 'https' });
    await record(secure, secure.add({ [w.demo.tickets.jazzGeneral]: 1 }));
    await record(secure, secure.request({ method: 'POST', url: '/signout/' }));
  });
  afterAll(async () => w?.close());

  it('is in the table, and the victim holds one of each', () => {
    const listed = new Set(documented().filter((r) => r.kind === 'cookie').map((r) => r.name));
    for (const name of names) expect(listed.has(tableName(name)), `${name} is set but not in docs/security.md`).toBe(true);
    for (const name of ['hf_session', 'hf_sale', 'hf_seats', 'hf_ref', `hf_queue_${queuedDate}`, `hf_admit_${queuedDate}`, 'hf_lang']) expect(given.has(name), name).toBe(true);
    expect(names.has('__Host-hf_session')).toBe(true);
  });

  /**
   * What each slot grants, asked of a browser with the given cookies: null when it grants nothing.
   * Each is what the victim is given with their own cookies (checked first).
   */
  const slots: Record<string, (v: Visitor, cookie: string) => Promise<unknown>> = {
    hf_session: async (v) => /Tickets of [^(]+\(([^)]+)\)/.exec((await v.request({ method: 'GET', url: '/account/wallet/', headers: HTML })).body)?.[1] ?? null,
    hf_sale: async (v) => {
      const tickets = (await v.checkout()).tickets;
      return tickets.length > 0 ? tickets.length : null;
    },
    hf_seats: async (v) => {
      const plan = (await v.call('getSeatingPlan', { event_date_id: w.demo.seated.date })).json() as { seating_plan_event: { hold: { seat_ids: number[] } } };
      return plan.seating_plan_event.hold.seat_ids.length > 0 ? plan.seating_plan_event.hold.seat_ids : null;
    },
    hf_ref: async (v, cookie) => {
      // A basket filled with it records its referrer.
      const added = await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
      const saleCookie = (added.cookies as { name: string; value: string }[]).find((c) => c.name === 'hf_sale')?.value ?? /(?:^|; )hf_sale=([^;]+)/.exec(cookie)?.[1];
      const saleId = saleCookie?.slice(0, 36);
      if (!saleId) return null;
      const [sale] = await w.database.db.select({ referrer: t.sales.referrerUserId }).from(t.sales).where(eq(t.sales.id, saleId));
      return sale?.referrer ?? null;
    },
    hf_queue: async (v) => {
      const state = queueStatus.parse((await v.request({ method: 'GET', url: `/ajax/queue/${queuedDate}/status/` })).json()).state;
      return state === 'no-place' ? null : state;
    },
    hf_admit: async (v) => {
      // The event page lets an admitted browser in and sends any other to the queue.
      const page = await v.request({ method: 'GET', url: `/event/${queuedEvent()}/`, headers: HTML });
      return page.statusCode === 200 ? 'admitted' : null;
    },
  };
  let eventOfQueue: number;
  const queuedEvent = () => eventOfQueue;
  const slotOf = (name: string) => (name.startsWith('hf_queue_') ? 'hf_queue' : name.startsWith('hf_admit_') ? 'hf_admit' : name.replace(/^__Host-/, ''));
  const cookieFor = (slot: string) => (slot === 'hf_queue' ? `hf_queue_${queuedDate}` : slot === 'hf_admit' ? `hf_admit_${queuedDate}` : slot);

  it('grants its purpose to the browser it was given to', async () => {
    const [date] = await w.database.db.select().from(t.eventDates).where(eq(t.eventDates.id, queuedDate));
    eventOfQueue = date!.eventId;
    for (const [slot, grants] of Object.entries(slots)) expect(await grants(new Visitor(w.app, { cookie: victim.cookieHeader }), victim.cookieHeader), slot).not.toBeNull();
  });

  it('is refused in every other cookie’s slot, with the victim’s own session', async () => {
    const session = given.get(SESSION_COOKIE)!;
    for (const [name, value] of given) {
      for (const slot of Object.keys(slots)) {
        if (slot === slotOf(name)) continue;
        // The victim's session, with this token where the slot's cookie goes (and nothing else).
        const cookie = slot === 'hf_session' ? `${SESSION_COOKIE}=${value}` : `${SESSION_COOKIE}=${session}; ${cookieFor(slot)}=${value}`;
        expect(await slots[slot]!(new Visitor(w.app, { cookie }), cookie), `${name} in the ${slot} slot`).toBeNull();
      }
    }
  });

  it('holds no more than a language’s name when it is a preference, which any browser may choose for itself', () => {
    for (const name of PREFERENCES) expect(given.get(name), name).toMatch(/^[a-z]{2}(-[A-Z]{2})?$/);
  });

  it('is refused under another browser’s session, signed in or not', async () => {
    const anonymous = new Visitor(w.app);
    await anonymous.add({ [w.demo.tickets.jazzGeneral]: 1 });
    const someoneElse = new Visitor(w.app);
    expect((await someoneElse.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.subscribedDark.id}` })).statusCode).toBe(303);
    for (const other of [anonymous, someoneElse]) {
      const theirs = /hf_session=([^;]*)/.exec(other.cookieHeader)![1]!;
      for (const [name, value] of given) {
        if (name === SESSION_COOKIE || PREFERENCES.has(name)) continue;
        const slot = slotOf(name);
        const cookie = `${SESSION_COOKIE}=${theirs}; ${cookieFor(slot)}=${value}`;
        expect(await slots[slot]!(new Visitor(w.app, { cookie }), cookie), `${name} under another session`).toBeNull();
      }
    }
  });
});

