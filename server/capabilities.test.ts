/**
 * Every cookie, link, e-mail and form token the server issues is in docs/security.md's table, and
 * each is refused in every other token's slot and under another browser's session or another
 * subject: a token is worth something only for the purpose, subject and session it was made for.
 */
import { createHmac, generateKeyPairSync, sign, type JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as t from './db/schema.ts';
import { bindingOf, readToken, signToken, tokenKey, SESSION_COOKIE } from './http/session.ts';
import { referralCode } from './domain/afterSale.ts';
import { completeSale } from './domain/completeSale.ts';
import { smartCheckoutPath } from './domain/smartCheckout.ts';
import { offerReleasedTickets } from './domain/waitingRoom/waitingList.ts';
import { waitingListMailOf } from './domain/waitingRoom/start.ts';
import { latestMail } from './mail/index.ts';
import { accountFor, codeSentTo } from './test/accounts.ts';
import { hotEvent, signedInVisitor } from './test/fixtures.ts';
import { appOn, drivers, openWorld, solvedChallenge, type TestWorld, Visitor } from './test/harness.ts';
import { startFakeStripe, type FakeStripe } from '../e2e/fakeStripe.ts';
import { bankSettings, paymentSettings, testConfig } from './config.ts';
import { signWebhook, WEBHOOK_MESSAGES } from './providers/stripe.ts';
import { TRUELAYER_WEBHOOK_MESSAGES } from './providers/truelayer.ts';
import { queueStatus } from '../contract/waitingRoom.ts';
import { SANDBOX_CARDS } from '../contract/index.ts';

const HTML = { accept: 'text/html' };

/** Cookies that hold a preference, not a capability: their table row says they grant nothing. */
const PREFERENCES = new Set(['hf_lang']);

/** The table's rows: a token's name, and whether it is a cookie. */
function documented(): {
  name: string;
  kind: string;
  purpose: string;
  subject: string;
  lifetime: string;
  checked: string;
}[] {
  const text = readFileSync(new URL('../docs/security.md', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => /^\| [^|]+ \| (cookie|e-mail|link|form|header) \|/.test(line))
    .map((line) => {
      const [name, kind, purpose, subject, lifetime, checked] = line
        .split('|')
        .slice(1)
        .map((cell) => cell.trim());
      return {
        name: name!.replace(/`/g, ''),
        kind: kind!,
        purpose: purpose!,
        subject: subject!,
        lifetime: lifetime!,
        checked: checked!,
      };
    });
}

/** A cookie's name as the table writes it: a date's cookies with `<date>` for the date. */
const tableName = (cookie: string) => cookie.replace(/_\d+$/, '_<date>');

/** The table's cookies, each with the slot the cookie tests below take it from and present it in. */
const COOKIE_ROWS: Record<string, string> = {
  hf_session: 'hf_session',
  '__Host-hf_session': 'hf_session',
  hf_sale: 'hf_sale',
  hf_seats: 'hf_seats',
  hf_ref: 'hf_ref',
  'hf_queue_<date>': 'hf_queue',
  'hf_admit_<date>': 'hf_admit',
  hf_lang: 'a preference',
};

/** The table's links, e-mails and forms: the link tests below present each, by this name. */
const LINK_ROWS = [
  'presale code',
  'one-time code',
  'referral code (?ref=)',
  'smart-checkout link',
  'transfer link',
  'waiting-list offer link',
  'waiting-list leave link',
  'waiver link',
  'bank return',
  'card return',
  'Gift Aid download token',
  'wallet link',
  'Apple Wallet pass link',
  'Google Wallet save link',
  'account-settings link',
  "'your turn' e-mail link",
  'mailing-list confirmation link',
  'proof of work',
] as const;
type LinkRow = (typeof LINK_ROWS)[number];

/** The processors' signatures on their webhooks: made by Stripe and TrueLayer, checked here, presented below. */
const HEADER_ROWS = ["Stripe's webhook signature", "TrueLayer's webhook signature"] as const;

describe('the table of tokens', () => {
  it('gives every token a purpose, a subject, a lifetime and where it is checked', () => {
    const rows = documented();
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      for (const field of ['purpose', 'subject', 'lifetime', 'checked'] as const)
        expect(row[field], `${row.name}: ${field}`).not.toBe('');
    }
  });

  it('has every row presented by name by a test below, and no test presents a token it does not list', () => {
    const rows = documented();
    const byKind = (kinds: string[]) =>
      rows
        .filter((r) => kinds.includes(r.kind))
        .map((r) => r.name)
        .sort();
    expect(byKind(['cookie']), 'the cookies').toEqual(Object.keys(COOKIE_ROWS).sort());
    expect(byKind(['link', 'e-mail', 'form']), 'the links, e-mails and forms').toEqual([...LINK_ROWS].sort());
    expect(byKind(['header']), 'the headers').toEqual([...HEADER_ROWS].sort());
    expect(rows).toHaveLength(Object.keys(COOKIE_ROWS).length + LINK_ROWS.length + HEADER_ROWS.length);
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
      for (const other of purposes.filter((p) => p !== made))
        expect(readToken(key, other, binding, token, 1000), `${made} as ${other}`).toBeNull();
      expect(readToken(key, made, bindingOf('b'.repeat(44)), token, 1000), `${made} in another session`).toBeNull();
      expect(readToken(key, made, binding, token, 2000), `${made} at its end`).toBeNull();
      expect(
        readToken(key, made, binding, token.replace('value-1', 'value-2'), 1000),
        `${made} with another subject`,
      ).toBeNull();
      // The end is inside what is signed: a token given a later end is refused.
      expect(
        readToken(key, made, binding, token.replace(`.${(2000).toString(36)}.`, `.${(9000).toString(36)}.`), 1000),
        `${made} with a later end`,
      ).toBeNull();
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
  /** The browser that came over HTTPS, and the cookies it was given. */
  let secure: Visitor;
  const givenOverHttps = new Map<string, string>();

  async function record(v: Visitor, res: Promise<{ cookies: unknown }>) {
    const done = await res;
    for (const c of done.cookies as { name: string; value: string }[]) {
      names.add(c.name);
      if (v === victim && c.value) given.set(c.name, c.value);
      if (v === secure && c.value) givenOverHttps.set(c.name, c.value);
    }
    return done;
  }

  beforeAll(async () => {
    w = await openWorld(driver, { maxHeldPerBuyer: 1000, trustProxy: 1 });
    const { db } = w.database;
    const { types } = await hotEvent(db, { capacity: 50, types: 1 });
    queuedDate = types[0]!.eventDateId;
    // A queue whose on-sale has begun and that lets everyone in at once.
    await db.insert(t.eventDateQueues).values({
      eventDateId: queuedDate,
      onSaleAt: new Date(w.clock.now.getTime() - 60_000),
      maxShoppers: 1000,
      admitPerMinute: 6000,
      admissionSeconds: 600,
      pollSeconds: 2,
    });

    victim = new Visitor(w.app);
    const buyer = w.demo.users.notSubscribed;
    // A share link from another buyer, then a basket, a seat hold and a place in a queue that admits.
    const [sharer] = await db.select().from(t.users).where(eq(t.users.id, w.demo.users.subscribedDark.id));
    await record(
      victim,
      victim.request({
        method: 'GET',
        url: `/event/${w.demo.events.jazz}/?ref=${encodeURIComponent(referralCode(testConfig().sessionSecret, sharer!.id, w.clock.now))}`,
        headers: HTML,
      }),
    );
    await record(victim, victim.add({ [w.demo.tickets.jazzGeneral]: 1 }));
    const plan = (await victim.call('getSeatingPlan', { event_date_id: w.demo.seated.date })).json() as {
      seating_plan_layout: {
        sections: { rows: { seats: { id: number; status: string; ticket_type_id: number | null }[] }[] }[];
      };
    };
    const free = plan.seating_plan_layout.sections
      .flatMap((s) => s.rows.flatMap((r) => r.seats))
      .find((s) => s.status === 'available' && s.ticket_type_id !== null)!;
    await record(victim, victim.call('holdSeats', { event_date_id: w.demo.seated.date, seats: [free.id] }));
    await record(
      victim,
      victim.request({
        method: 'POST',
        url: `/ajax/queue/${queuedDate}/join/`,
        body: new URLSearchParams({ altcha: await solvedChallenge(victim) }).toString(),
      }),
    );
    for (let i = 0; i < 5 && !given.has(`hf_admit_${queuedDate}`); i++) {
      w.clock.advance(2000);
      await record(victim, victim.request({ method: 'GET', url: `/ajax/queue/${queuedDate}/status/` }));
    }
    // The language picker's choice (English, so the pages read below keep their words).
    await record(victim, victim.request({ method: 'POST', url: '/language/', body: 'language=en-GB' }));
    // Signed in last, so every token above is carried over to the signed-in session.
    await record(victim, victim.request({ method: 'POST', url: '/signin/', body: `user_id=${buyer.id}` }));
    // Over HTTPS too, and signed out.
    secure = new Visitor(w.app, { 'x-forwarded-proto': 'https' });
    await record(secure, secure.add({ [w.demo.tickets.jazzGeneral]: 1 }));
    await record(secure, secure.request({ method: 'POST', url: '/signout/' }));
  });
  afterAll(async () => w?.close());

  it('is in the table, and the victim holds one of each', () => {
    const listed = new Set(
      documented()
        .filter((r) => r.kind === 'cookie')
        .map((r) => r.name),
    );
    for (const name of names)
      expect(listed.has(tableName(name)), `${name} is set but not in docs/security.md`).toBe(true);
    for (const name of [
      'hf_session',
      'hf_sale',
      'hf_seats',
      'hf_ref',
      `hf_queue_${queuedDate}`,
      `hf_admit_${queuedDate}`,
      'hf_lang',
    ])
      expect(given.has(name), name).toBe(true);
    expect(names.has('__Host-hf_session')).toBe(true);
  });

  /**
   * What each slot grants, asked of a browser with the given cookies: null when it grants nothing.
   * Each is what the victim is given with their own cookies (checked first).
   */
  const slots: Record<string, (v: Visitor, cookie: string) => Promise<unknown>> = {
    hf_session: async (v) =>
      /Tickets of [^(]+\(([^)]+)\)/.exec(
        (await v.request({ method: 'GET', url: '/account/wallet/', headers: HTML })).body,
      )?.[1] ?? null,
    hf_sale: async (v) => {
      const tickets = (await v.checkout()).tickets;
      return tickets.length > 0 ? tickets.length : null;
    },
    hf_seats: async (v) => {
      const plan = (await v.call('getSeatingPlan', { event_date_id: w.demo.seated.date })).json() as {
        seating_plan_event: { hold: { seat_ids: number[] } };
      };
      return plan.seating_plan_event.hold.seat_ids.length > 0 ? plan.seating_plan_event.hold.seat_ids : null;
    },
    hf_ref: async (v, cookie) => {
      // A basket filled with it records its referrer.
      const added = await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
      const saleCookie =
        (added.cookies as { name: string; value: string }[]).find((c) => c.name === 'hf_sale')?.value ??
        /(?:^|; )hf_sale=([^;]+)/.exec(cookie)?.[1];
      const saleId = saleCookie?.slice(0, 36);
      if (!saleId) return null;
      const [sale] = await w.database.db
        .select({ referrer: t.sales.referrerUserId })
        .from(t.sales)
        .where(eq(t.sales.id, saleId));
      return sale?.referrer ?? null;
    },
    hf_queue: async (v) => {
      const state = queueStatus.parse(
        (await v.request({ method: 'GET', url: `/ajax/queue/${queuedDate}/status/` })).json(),
      ).state;
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
  const slotOf = (name: string) =>
    name.startsWith('hf_queue_')
      ? 'hf_queue'
      : name.startsWith('hf_admit_')
        ? 'hf_admit'
        : name.replace(/^__Host-/, '');
  const cookieFor = (slot: string) =>
    slot === 'hf_queue' ? `hf_queue_${queuedDate}` : slot === 'hf_admit' ? `hf_admit_${queuedDate}` : slot;

  it('grants its purpose to the browser it was given to', async () => {
    const [date] = await w.database.db.select().from(t.eventDates).where(eq(t.eventDates.id, queuedDate));
    eventOfQueue = date!.eventId;
    for (const [slot, grants] of Object.entries(slots))
      expect(
        await grants(new Visitor(w.app, { cookie: victim.cookieHeader }), victim.cookieHeader),
        slot,
      ).not.toBeNull();
  });

  it('is refused in every other cookie’s slot, with the victim’s own session', async () => {
    const session = given.get(SESSION_COOKIE)!;
    for (const [name, value] of given) {
      for (const slot of Object.keys(slots)) {
        if (slot === slotOf(name)) continue;
        // The victim's session, with this token where the slot's cookie goes (and nothing else).
        const cookie =
          slot === 'hf_session'
            ? `${SESSION_COOKIE}=${value}`
            : `${SESSION_COOKIE}=${session}; ${cookieFor(slot)}=${value}`;
        expect(await slots[slot]!(new Visitor(w.app, { cookie }), cookie), `${name} in the ${slot} slot`).toBeNull();
      }
    }
  });

  /**
   * Tokens of one purpose whose value is exactly what another slot reads, made with the server's
   * keys as the server would sign them: the victim's sale id signed as a seat hold or a referrer,
   * their hold signed as a sale, a user id signed as a sale or a hold, a place signed with an
   * admission's fields, each bound to the victim's own session and not ended. Only the purpose
   * inside what is signed refuses them, so a check that left the purpose out would let each through;
   * each slot is first shown to grant what a token made the same way for its own purpose carries.
   */
  it('is refused in another signed cookie’s slot when made for its own purpose with the very value that slot reads', async () => {
    const secret = testConfig().sessionSecret;
    const key = tokenKey(secret);
    const session = given.get(SESSION_COOKIE)!;
    const binding = bindingOf(session);
    const now = Math.floor(w.clock.now.getTime() / 1000);
    const end = now + 3600;
    /** The signed value of a token `value.end.signature`. */
    const valueOf = (token: string) => token.slice(0, token.lastIndexOf('.', token.lastIndexOf('.') - 1));
    // The place `q2.<date>.<place>.<number>.<started>.<admitted until>.<end>.<sig>` and the admission `a2.<date>.<place>.<end>.<sig>`.
    const place = given.get(`hf_queue_${queuedDate}`)!.split('.');
    const admission = given.get(`hf_admit_${queuedDate}`)!.split('.');
    expect([place[0], place[1], admission[0], admission[1], admission[2]]).toEqual([
      'q2',
      String(queuedDate),
      'a2',
      String(queuedDate),
      place[2],
    ]);
    // The waiting room's tokens, as server/domain/waitingRoom/tokens.ts signs them under its own key.
    const roomKey = createHmac('sha256', secret).update('holdfast waiting room').digest();
    const roomToken = (body: string) =>
      `${body}.${createHmac('sha256', roomKey).update(`${body}\n${binding}`).digest('base64url')}`;
    expect(roomToken(admission.slice(0, 4).join('.'))).toBe(given.get(`hf_admit_${queuedDate}`));

    /** What each slot reads, as the victim's own cookie carries it: without the kind for a place or admission. */
    const read: Record<string, string> = {
      hf_sale: valueOf(given.get('hf_sale')!),
      hf_seats: valueOf(given.get('hf_seats')!),
      hf_ref: valueOf(given.get('hf_ref')!),
      hf_queue: place.slice(1, 7).join('.'),
      hf_admit: admission.slice(1, 4).join('.'),
    };
    expect(read.hf_sale).toMatch(/^[0-9a-f-]{36}$/);
    expect(read.hf_seats).toMatch(/^[0-9a-f]{32}$/);
    expect(read.hf_ref).toBe(String(w.demo.users.subscribedDark.id));
    const SIGNED = new Set(['hf_sale', 'hf_seats', 'hf_ref']);
    const KIND: Record<string, string> = { hf_queue: 'q2', hf_admit: 'a2' };
    /** A token of `purpose` carrying what `slot` reads, or null where the purpose's tokens cannot take that shape. */
    function forge(purpose: string, slot: string): string | null {
      if (SIGNED.has(purpose)) {
        if (SIGNED.has(slot)) return signToken(key, purpose, binding, read[slot]!, end);
        // The place's or admission's fields, with its kind and its end where they stand, under the cookies' key.
        const fields = read[slot]!.split('.');
        return signToken(
          key,
          purpose,
          binding,
          `${KIND[slot]}.${fields.slice(0, -1).join('.')}`,
          Number(fields.at(-1)),
        );
      }
      // A place or admission names its kind in its text, so it never has the shape of a sale, hold or referrer cookie.
      if (SIGNED.has(slot)) return null;
      return roomToken(`${KIND[purpose]}.${read[slot]}`);
    }

    const present = (slot: string, token: string) => {
      const cookie = `${SESSION_COOKIE}=${session}; ${cookieFor(slot)}=${token}`;
      return slots[slot]!(new Visitor(w.app, { cookie }), cookie);
    };
    const purposes = Object.keys(read);
    let tried = 0;
    for (const slot of purposes) {
      // Made for the slot's own purpose the same way, the token grants it: the forgery is well made.
      expect(await present(slot, forge(slot, slot)!), `${slot} made for itself`).not.toBeNull();
      for (const purpose of purposes.filter((p) => p !== slot)) {
        const token = forge(purpose, slot);
        if (token === null) continue;
        tried++;
        // Soft, so that every pair a missing check lets through is named.
        expect.soft(await present(slot, token), `${purpose} carrying ${slot}’s value, in the ${slot} slot`).toBeNull();
      }
    }
    expect(tried).toBe(14);
  });

  it('over HTTPS is the session’s __Host-hf_session, which is refused in every other cookie’s slot', async () => {
    const value = givenOverHttps.get('__Host-hf_session')!;
    expect(value).toMatch(/^a[A-Za-z0-9_-]{43}$/);
    expect(givenOverHttps.has(SESSION_COOKIE)).toBe(false);
    const session = given.get(SESSION_COOKIE)!;
    for (const slot of Object.keys(slots).filter((s) => s !== 'hf_session')) {
      const cookie = `${SESSION_COOKIE}=${session}; ${cookieFor(slot)}=${value}`;
      expect(
        await slots[slot]!(new Visitor(w.app, { cookie }), cookie),
        `__Host-hf_session in the ${slot} slot`,
      ).toBeNull();
    }
  });

  it('holds no more than a language’s name when it is a preference, which any browser may choose for itself', () => {
    for (const name of PREFERENCES) expect(given.get(name), name).toMatch(/^[a-z]{2}(-[A-Z]{2})?$/);
  });

  it('is refused under another browser’s session, signed in or not', async () => {
    const anonymous = new Visitor(w.app);
    await anonymous.add({ [w.demo.tickets.jazzGeneral]: 1 });
    const someoneElse = new Visitor(w.app);
    expect(
      (
        await someoneElse.request({
          method: 'POST',
          url: '/signin/',
          body: `user_id=${w.demo.users.subscribedDark.id}`,
        })
      ).statusCode,
    ).toBe(303);
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

/**
 * Every link, e-mail and form token the table lists, as the server gives it: each presented in the
 * slot of every other (where a link, form or page takes a token of its own) and under another
 * subject (another buyer, sale, entry, date or address), refused each time with nothing changed.
 */
describe.each(drivers)('every link, e-mail and form token, on %s', (driver) => {
  const config = testConfig({ publicUrl: 'https://tickets.example.com', maxHeldPerBuyer: 1000 });
  let w: TestWorld;
  let n = 0;
  /** A browser of its own, from an address of its own: the presale's and the codes' limits count by address. */
  const browser = (headers: Record<string, string> = {}) =>
    new Visitor(w.app, headers, `10.77.${Math.floor(++n / 250) % 250}.${(n % 250) + 1}`);
  const cookieOf = (v: Visitor, name: string) => new RegExp(`(?:^|; )${name}=([^;]*)`).exec(v.cookieHeader)?.[1];
  const db = () => w.database.db;
  const enc = encodeURIComponent;
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const saleOf = async (v: Visitor) =>
    (
      await db()
        .select()
        .from(t.sales)
        .where(eq(t.sales.reference, (await v.checkout()).sale_reference!))
    )[0]!;
  const entry = async (id: number) =>
    (await db().select().from(t.waitingListEntries).where(eq(t.waitingListEntries.id, id)))[0]!;
  const presaleUses = async () =>
    (await db().select().from(t.presaleCodes).where(eq(t.presaleCodes.eventDateId, presaleDate)))[0]!.uses;

  /** Each token as the server gave it: for a link, the part of it that is the token; null for an address that carries none. */
  const token = {} as Record<LinkRow, string | null>;
  /** Tom: a paid order (its share link, a transfer, its wallet passes and a smart-checkout link) and the offer of a waiting list. */
  let tom: Visitor;
  /** Amelia: another buyer, with an order of her own and a later entry on the same waiting list. */
  let amelia: Visitor;
  /** A buyer at the bank, whose sale waits for the bank's return. */
  let bankPayer: Visitor;
  /** A buyer paying by plan, whose plan's card the account-settings link changes. */
  let planPayer: Visitor;
  /** Stripe's local stand-in (it sends no webhook), and an app on the same database that takes cards through it. */
  let stripe: FakeStripe;
  let keyed: Awaited<ReturnType<typeof appOn>>;
  /** A buyer whose card Stripe has taken, before the browser comes back from it: its sale, and the pool it sells from. */
  let cardPayer: Visitor;
  let cardSale: string;
  let cardPool: number;
  /** A browser with a place in the queue of the presale's date. */
  let queuer: Visitor;
  let tomId: number;
  let smart: { session: string; expires: string };
  let ameliaSale: { id: string; reference: string };
  let ameliaTicket: string;
  let tomEntry: number;
  let ameliaEntry: number;
  let transferId: number;
  let presaleDate: number;
  let otherDate: number;
  let bankSale: string;
  let plan: { saleId: string; paymentMethodId: number };
  let mailingAddress: string;
  /** The one-time code's address, and another address with a live code of its own. */
  let codeAddress: string;
  let otherAddress: string;

  beforeAll(async () => {
    w = await openWorld(driver, config);
    const { users, tickets } = w.demo;
    tomId = users.notSubscribed.id;
    tom = browser();
    amelia = browser();
    for (const [v, id] of [
      [tom, tomId],
      [amelia, users.subscribedDark.id],
    ] as const)
      expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${id}` })).statusCode).toBe(303);

    // A sold-out type with Tom's and then Amelia's address on its list; the one ticket is freed and offered to Tom.
    const { types } = await hotEvent(db(), { capacity: 1, types: 1 });
    const listed = types[0]!.id;
    const holder = browser();
    expect((await holder.add({ [listed]: 1 })).statusCode).toBe(200);
    expect(await holder.json('reserveTickets', {})).toMatchObject({ reserved: true });
    for (const email of [users.notSubscribed.email, users.subscribedDark.email]) {
      const v = browser();
      const joined = await v.request({
        method: 'POST',
        url: '/ajax/queue/waiting-list/',
        body: form({ ticket_type_id: String(listed), email, quantity: '1', altcha: await solvedChallenge(v) }),
        headers: { accept: 'application/json' },
      });
      expect(joined.statusCode, joined.body).toBe(200);
    }
    const entries = await db().select().from(t.waitingListEntries).where(eq(t.waitingListEntries.ticketTypeId, listed));
    tomEntry = entries.find((e) => e.email === users.notSubscribed.email)!.id;
    ameliaEntry = entries.find((e) => e.email === users.subscribedDark.email)!.id;
    const joinedMail = (await latestMail(db(), { recipient: users.notSubscribed.email })).find((m) =>
      m.subject.startsWith('You are on the waiting list'),
    );
    token['waiting-list leave link'] = /\/waiting-list\/leave\/([\w-]+)\//.exec(joinedMail!.body)![1]!;
    w.clock.advance((config.checkoutTimeSeconds + 60) * 1000);
    expect(
      await offerReleasedTickets(
        db(),
        waitingListMailOf(config, { transport: null, from: config.mailFrom }),
        w.clock.now,
      ),
    ).toBe(1);
    const offerMail = (await latestMail(db(), { recipient: users.notSubscribed.email })).find((m) =>
      m.subject.startsWith('Tickets for'),
    );
    token['waiting-list offer link'] = /\/waiting-list\/offer\/([\w-]+)\//.exec(offerMail!.body)![1]!;

    // Two queued dates whose on-sale has begun; the first has a presale code, and a browser holds a place in its queue.
    const dates = [];
    for (let i = 0; i < 2; i++) {
      const { types: queued } = await hotEvent(db(), { capacity: 50, types: 1 });
      dates.push(queued[0]!.eventDateId);
      await db()
        .insert(t.eventDateQueues)
        .values({
          eventDateId: queued[0]!.eventDateId,
          onSaleAt: new Date(w.clock.now.getTime() - 60_000),
          maxShoppers: 1000,
          admitPerMinute: 6000,
          admissionSeconds: 600,
          pollSeconds: 2,
        });
    }
    [presaleDate, otherDate] = dates as [number, number];
    await db()
      .insert(t.presaleCodes)
      .values({ eventDateId: presaleDate, code: 'FANSFIRST', maxUses: 100, createdAt: w.clock.now });
    token['presale code'] = 'FANSFIRST';
    // The server reads its queues once a second.
    w.clock.advance(1000);
    queuer = browser();
    const joined = await queuer.request({
      method: 'POST',
      url: `/ajax/queue/${presaleDate}/join/`,
      body: form({ altcha: await solvedChallenge(queuer) }),
    });
    expect(joined.statusCode, joined.body).toBe(200);
    token["'your turn' e-mail link"] = null;
    token['proof of work'] = await solvedChallenge(browser());

    // Tom's paid order of two tickets: his share link, one ticket sent to a friend, the other's wallet passes.
    expect((await tom.add({ [tickets.jazzGeneral]: 2 })).statusCode).toBe(200);
    expect(await tom.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const tomSale = await saleOf(tom);
    expect((await db().transaction((tx) => completeSale(tx, tomSale.id, w.clock.now))).booked).toBe(true);
    expect(await tom.json('deliverToBitticket')).toEqual({ delivery_completed: true });
    token['referral code (?ref=)'] = new URL(
      (await tom.call('getRewardReferrerLink')).json() as string,
    ).searchParams.get('ref');
    const friend = `friend-${driver}@example.test`;
    const sent = await tom.call('setTransfers', {
      transfers: [
        {
          ticket_id: tickets.jazzGeneral,
          name: 'Grace Hopper',
          email: friend,
          qty: 1,
          is_gift: false,
          send_gift: 'Schedule',
          delivery_date: '',
          delivery_time: '',
          message: '',
        },
      ],
    });
    expect(sent.statusCode, sent.body).toBe(200);
    token['transfer link'] = /\/transfers\/accept\/([\w-]+)\//.exec(
      (await latestMail(db(), { recipient: friend }))[0]!.body,
    )![1]!;
    transferId = (await db().select().from(t.transfers).where(eq(t.transfers.token, token['transfer link'])))[0]!.id;
    const codes = (
      await db().select().from(t.tickets).where(eq(t.tickets.saleId, tomSale.id)).orderBy(t.tickets.id)
    ).map((ticket) => ticket.code);
    token['Apple Wallet pass link'] = codes[0]!;
    const wallet = await tom.request({ method: 'GET', url: '/account/wallet/', headers: HTML });
    token['Google Wallet save link'] = new RegExp(
      `href="/sandbox/google-wallet/save/([^"]+)"[^>]*>Save to Google Wallet<span class="visually-hidden">: ticket ${codes[0]}`,
    ).exec(wallet.body)![1]!;
    token['wallet link'] = null;
    // The link that continues Tom's order on another device, as its e-mail carries it.
    const link = new URLSearchParams(
      smartCheckoutPath(
        config.sessionSecret,
        { id: tomSale.id, reference: tomSale.reference!, userId: tomId },
        w.clock.now,
      ).split('?')[1],
    );
    smart = { session: link.get('session')!, expires: link.get('expires')! };
    token['smart-checkout link'] = link.get('signature');

    // Amelia's paid order, and someone's order of an activity whose organiser sets terms.
    expect((await amelia.add({ [tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    expect(await amelia.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const hers = await saleOf(amelia);
    ameliaSale = { id: hers.id, reference: hers.reference! };
    expect((await db().transaction((tx) => completeSale(tx, ameliaSale.id, w.clock.now))).booked).toBe(true);
    expect(await amelia.json('deliverToBitticket')).toEqual({ delivery_completed: true });
    ameliaTicket = (await db().select().from(t.tickets).where(eq(t.tickets.saleId, ameliaSale.id)))[0]!.code;
    const climber = browser();
    expect((await climber.add({ [tickets.ropesTaster]: 1 })).statusCode).toBe(200);
    expect(await climber.json('reserveTickets', {})).toMatchObject({ reserved: true });
    token['waiver link'] = (await climber.checkout()).sale_reference!;

    // A buyer gone to the bank; a buyer paying by plan.
    bankPayer = await signedInVisitor(w.app, db());
    const { types: banked } = await hotEvent(db(), { capacity: 10, types: 1 });
    expect((await bankPayer.add({ [banked[0]!.id]: 1 })).statusCode).toBe(200);
    expect(await bankPayer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await bankPayer.json('updateBasketState', { state: 'payment' });
    await bankPayer.json('setBillingAddress', { address: { postcode: 'BS1 4QH' } });
    await bankPayer.json('payWithTruelayer', { contact_number: '07700 900123' });
    bankSale = (await saleOf(bankPayer)).id;
    token['bank return'] = (
      await db().select().from(t.payments).where(eq(t.payments.saleId, bankSale))
    )[0]!.providerPaymentId;
    // A buyer paying by card at Stripe: the card is taken there, and Stripe's webhook has not arrived.
    stripe = await startFakeStripe({ secretKey: 'sk_test_capabilities' });
    keyed = await appOn(w.database, {
      ...config,
      payment: paymentSettings({
        STRIPE_PUBLISHABLE_KEY: 'pk_test_capabilities',
        STRIPE_SECRET_KEY: 'sk_test_capabilities',
        STRIPE_API_BASE: stripe.url,
      }),
    });
    keyed.clock.now = w.clock.now;
    cardPayer = await signedInVisitor(keyed.app, db());
    const carded = await hotEvent(db(), { capacity: 10, types: 1 });
    cardPool = carded.poolId;
    expect((await cardPayer.add({ [carded.types[0]!.id]: 1 })).statusCode).toBe(200);
    expect(await cardPayer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await cardPayer.json('updateBasketState', { state: 'payment' });
    await cardPayer.json('setBillingAddress', { address: { postcode: 'BS1 4QH' } });
    const secret = (await cardPayer.json('getStripeToken')).client_secret;
    const intent = [...stripe.intents.values()].find((i) => i.client_secret === secret)!;
    expect(await stripe.confirm(intent.id, SANDBOX_CARDS.success, { deliver: false })).toMatchObject({
      status: 'succeeded',
    });
    token['card return'] = intent.id;
    cardSale = (await saleOf(cardPayer)).id;
    planPayer = await signedInVisitor(w.app, db());
    expect((await planPayer.add({ [w.demo.plans.weekend]: 1 })).statusCode).toBe(200);
    expect(await planPayer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await planPayer.json('updateBasketState', { state: 'payment' });
    const card = (
      await planPayer.call('saveSandboxCard', { number: SANDBOX_CARDS.success, expiry: '12/34', cvc: '123' })
    ).json();
    expect(
      (
        await planPayer.call('payWithInstalment', {
          instalment_option: '2',
          contact_number: '07700 900123',
          new_payment_method: card,
        } as never)
      ).json(),
    ).toEqual({ status: 'success', url: null });
    const planSale = await saleOf(planPayer);
    token['account-settings link'] = planSale.reference!;
    plan = (await db().select().from(t.instalmentPlans).where(eq(t.instalmentPlans.saleId, planSale.id)))[0]!;

    token['Gift Aid download token'] = w.demo.charity.downloadToken;
    mailingAddress = `list-${driver}@example.test`;
    expect(
      (await browser().request({ method: 'POST', url: '/mailing-list', body: form({ email: mailingAddress }) }))
        .statusCode,
    ).toBe(200);
    token['mailing-list confirmation link'] = /confirm\?token=([\w-]+)/.exec(
      (await latestMail(db(), { recipient: mailingAddress }))[0]!.body,
    )![1]!;
    codeAddress = `code-${driver}@example.test`;
    otherAddress = `other-code-${driver}@example.test`;
    for (const email of [codeAddress, otherAddress]) {
      await accountFor(w, email);
      expect((await browser().request({ method: 'POST', url: '/signin/', body: form({ email }) })).statusCode).toBe(
        200,
      );
    }
    token['one-time code'] = await codeSentTo(db(), codeAddress);
  }, 120_000);
  afterAll(async () => {
    await keyed?.app.close();
    await stripe?.close();
    await w?.close();
  });
  const cardSold = async () =>
    (
      await db().select({ sold: t.capacityPools.sold }).from(t.capacityPools).where(eq(t.capacityPools.id, cardPool))
    )[0]!.sold;

  interface Answer {
    /** Every status the slot's pages and forms answered. */
    statuses: number[];
    /** What the token gave the browser that presented it, or null. */
    granted: unknown;
  }
  interface Slot {
    /** Presents a value where this token goes: its link, its form, or its page's query. */
    present(value: string): Promise<Answer>;
    /** A refusal's status: a 4xx, or where the token only rides along on a page, the page as anyone sees it. */
    refused: (status: number) => boolean;
    /** Presenting the token itself here spends it, so that is done last. */
    spends: boolean;
  }
  const is4xx = (status: number) => status >= 400 && status < 500;
  const shown = (status: number) => status < 400;

  /** The slot of each token; null for a link that is an address of the site and carries no token. */
  const slotOf: Record<LinkRow, Slot | null> = {
    'presale code': {
      async present(value) {
        const v = browser();
        const res = await v.request({ method: 'POST', url: `/presale/${presaleDate}/`, body: form({ code: value }) });
        return { statuses: [res.statusCode], granted: cookieOf(v, `hf_admit_${presaleDate}`) ?? null };
      },
      refused: is4xx,
      spends: true,
    },
    'one-time code': {
      async present(value) {
        const v = browser();
        const res = await v.request({
          method: 'POST',
          url: '/signin/code/',
          body: form({ email: codeAddress, code: value }),
        });
        return { statuses: [res.statusCode], granted: (await v.json('getUser')).user };
      },
      refused: is4xx,
      spends: true,
    },
    'referral code (?ref=)': {
      async present(value) {
        const v = browser();
        const res = await v.request({
          method: 'GET',
          url: `/event/${w.demo.events.jazz}/?ref=${enc(value)}`,
          headers: HTML,
        });
        return { statuses: [res.statusCode], granted: cookieOf(v, 'hf_ref') ?? null };
      },
      // The event page is shown as to anyone; the code is not taken.
      refused: (status) => status === 200,
      spends: false,
    },
    'smart-checkout link': {
      async present(value) {
        const res = await browser().request({
          method: 'GET',
          url: `/smartcheckout/?session=${smart.session}&expires=${smart.expires}&signature=${enc(value)}`,
          headers: HTML,
        });
        return { statuses: [res.statusCode], granted: shown(res.statusCode) ? `answered ${res.statusCode}` : null };
      },
      refused: is4xx,
      spends: false,
    },
    'transfer link': {
      async present(value) {
        const page = await browser().request({ method: 'GET', url: `/transfers/accept/${enc(value)}/`, headers: HTML });
        const accepted = await browser().request({
          method: 'POST',
          url: `/transfers/accept/${enc(value)}/`,
          body: '',
          headers: HTML,
        });
        const statuses = [page.statusCode, accepted.statusCode];
        return { statuses, granted: statuses.some(shown) ? statuses : null };
      },
      refused: is4xx,
      spends: true,
    },
    'waiting-list offer link': {
      async present(value) {
        const path = `/waiting-list/offer/${enc(value)}/`;
        const page = await browser().request({ method: 'GET', url: path, headers: HTML });
        const code = await browser().request({ method: 'POST', url: `${path}code/`, body: '', headers: HTML });
        const v = browser();
        const claim = await v.request({
          method: 'POST',
          url: `${path}claim/`,
          body: form({ code: '000000' }),
          headers: HTML,
        });
        const statuses = [page.statusCode, code.statusCode, claim.statusCode];
        return {
          statuses,
          granted: shown(page.statusCode) || shown(code.statusCode) || cookieOf(v, 'hf_sale') ? statuses : null,
        };
      },
      refused: is4xx,
      spends: false,
    },
    'waiting-list leave link': {
      async present(value) {
        const page = await browser().request({
          method: 'GET',
          url: `/waiting-list/leave/${enc(value)}/`,
          headers: HTML,
        });
        const left = await browser().request({
          method: 'POST',
          url: `/waiting-list/leave/${enc(value)}/`,
          body: '',
          headers: HTML,
        });
        const statuses = [page.statusCode, left.statusCode];
        return { statuses, granted: statuses.some(shown) ? statuses : null };
      },
      refused: is4xx,
      spends: true,
    },
    'waiver link': {
      async present(value) {
        const res = await browser().request({
          method: 'GET',
          url: `/activity-terms-and-conditions/${enc(value)}/`,
          headers: HTML,
        });
        return { statuses: [res.statusCode], granted: shown(res.statusCode) ? `answered ${res.statusCode}` : null };
      },
      refused: is4xx,
      spends: false,
    },
    'bank return': {
      async present(value) {
        const res = await bankPayer.request({
          method: 'GET',
          url: `/do/checkout/truelayer_return/?payment_id=${enc(value)}`,
        });
        const { state } = await bankPayer.checkout();
        return { statuses: [res.statusCode], granted: state === 'awaiting_truelayer' ? state : null };
      },
      // The bank sends the browser back to its checkout whatever it carries; only its own payment moves its sale.
      refused: (status) => status === 303,
      spends: true,
    },
    'card return': {
      async present(value) {
        const res = await cardPayer.request({
          method: 'GET',
          url: `/do/checkout/stripe_auth/?payment_intent=${enc(value)}&redirect_status=succeeded`,
        });
        expect(res.headers.location).toBe('/checkout/');
        const { payment_complete } = await cardPayer.checkout();
        return { statuses: [res.statusCode], granted: payment_complete ? 'paid' : null };
      },
      // The browser is sent back to its checkout whatever it carries; only the payment it names, as Stripe records it, is settled.
      refused: (status) => status === 303,
      spends: true,
    },
    'Gift Aid download token': {
      async present(value) {
        const posted = await browser().request({
          method: 'POST',
          url: '/charity/gift-aid/declarations.csv',
          body: form({ token: value }),
        });
        const bearer = await browser().request({
          method: 'GET',
          url: '/charity/gift-aid/declarations.csv',
          headers: { authorization: `Bearer ${value}` },
        });
        const statuses = [posted.statusCode, bearer.statusCode];
        return { statuses, granted: statuses.some(shown) ? statuses : null };
      },
      refused: is4xx,
      spends: false,
    },
    'wallet link': null,
    'Apple Wallet pass link': {
      async present(value) {
        const res = await tom.request({ method: 'GET', url: `/account/wallet/passes/${enc(value)}.pkpass` });
        return { statuses: [res.statusCode], granted: shown(res.statusCode) ? `answered ${res.statusCode}` : null };
      },
      refused: is4xx,
      spends: false,
    },
    'Google Wallet save link': {
      async present(value) {
        const res = await browser().request({
          method: 'GET',
          url: `/sandbox/google-wallet/save/${enc(value)}`,
          headers: HTML,
        });
        return { statuses: [res.statusCode], granted: shown(res.statusCode) ? `answered ${res.statusCode}` : null };
      },
      refused: is4xx,
      spends: false,
    },
    'account-settings link': {
      async present(value) {
        const res = await planPayer.request({
          method: 'GET',
          url: `/account/plans/${enc(value)}/card/`,
          headers: HTML,
        });
        return { statuses: [res.statusCode], granted: shown(res.statusCode) ? `answered ${res.statusCode}` : null };
      },
      refused: is4xx,
      spends: false,
    },
    "'your turn' e-mail link": null,
    'mailing-list confirmation link': {
      async present(value) {
        const page = await browser().request({
          method: 'GET',
          url: `/mailing-list/confirm?token=${enc(value)}`,
          headers: HTML,
        });
        const confirmed = await browser().request({
          method: 'POST',
          url: '/mailing-list/confirm',
          body: form({ token: value }),
          headers: HTML,
        });
        const statuses = [page.statusCode, confirmed.statusCode];
        return { statuses, granted: statuses.some(shown) ? statuses : null };
      },
      refused: is4xx,
      spends: true,
    },
    'proof of work': {
      async present(value) {
        const res = await browser().request({
          method: 'POST',
          url: `/ajax/queue/${presaleDate}/join/`,
          body: form({ altcha: value }),
        });
        return { statuses: [res.statusCode], granted: shown(res.statusCode) ? res.json() : null };
      },
      refused: is4xx,
      spends: true,
    },
  };

  it('grants its purpose in its own slot, where presenting it spends nothing', async () => {
    for (const row of LINK_ROWS) {
      const slot = slotOf[row];
      if (!slot || slot.spends) continue;
      expect(token[row], row).toBeTruthy();
      expect((await slot.present(token[row]!)).granted, row).not.toBeNull();
    }
  });

  it('is refused in the slot of every other token, and changes nothing', async () => {
    let tried = 0;
    for (const row of LINK_ROWS) {
      const slot = slotOf[row];
      if (!slot) continue;
      for (const other of LINK_ROWS) {
        const value = token[other];
        if (other === row || value === null) continue;
        tried++;
        const answer = await slot.present(value);
        expect.soft(answer.granted, `the ${other} in the ${row}'s slot`).toBeNull();
        for (const status of answer.statuses)
          expect.soft(slot.refused(status), `the ${other} in the ${row}'s slot answered ${status}`).toBe(true);
      }
    }
    expect(tried).toBe(16 * 15);
    // Nothing was taken, left, accepted, confirmed or moved.
    expect(await presaleUses()).toBe(0);
    expect(await entry(tomEntry)).toMatchObject({ leftAt: null, claimedAt: null });
    expect((await db().select().from(t.transfers).where(eq(t.transfers.id, transferId)))[0]!.acceptedAt).toBeNull();
    expect(await db().select().from(t.mailingList).where(eq(t.mailingList.email, mailingAddress))).toEqual([]);
    expect((await db().select().from(t.sales).where(eq(t.sales.id, bankSale)))[0]!.state).toBe('payment');
    expect((await db().select().from(t.payments).where(eq(t.payments.saleId, cardSale)))[0]!.status).toBe(
      'requires_payment_method',
    );
    expect(await cardSold()).toBe(0);
    expect(
      await db()
        .select()
        .from(t.sessions)
        .where(eq(t.sessions.userId, (await db().select().from(t.users).where(eq(t.users.email, codeAddress)))[0]!.id)),
    ).toEqual([]);
  });

  /** Each token presented under another subject, refused with nothing changed; or why its request carries no subject but the token. */
  const anotherSubject: Record<LinkRow, (() => Promise<void>) | string> = {
    'presale code': async () => {
      // The code of one date, at another date's presale.
      const v = browser();
      const res = await v.request({
        method: 'POST',
        url: `/presale/${otherDate}/`,
        body: form({ code: token['presale code']! }),
      });
      expect(res.statusCode).toBe(400);
      expect(cookieOf(v, `hf_admit_${otherDate}`)).toBeUndefined();
      expect(await presaleUses()).toBe(0);
    },
    'one-time code': async () => {
      // One address's code, for another address that has a live code of its own.
      const v = browser();
      const res = await v.request({
        method: 'POST',
        url: '/signin/code/',
        body: form({ email: otherAddress, code: token['one-time code']! }),
      });
      expect(res.statusCode).toBe(400);
      expect(await v.json('getUser')).toEqual({ user: null });
    },
    'referral code (?ref=)': async () => {
      // Tom's signature over Amelia's account, and over a later last day.
      const [, lastDay, mac] = token['referral code (?ref=)']!.split('-');
      for (const forged of [
        `${w.demo.users.subscribedDark.id.toString(36)}-${lastDay}-${mac}`,
        `${tomId.toString(36)}-${(parseInt(lastDay!, 36) + 30).toString(36)}-${mac}`,
      ]) {
        const v = browser();
        expect(
          (await v.request({ method: 'GET', url: `/event/${w.demo.events.jazz}/?ref=${enc(forged)}`, headers: HTML }))
            .statusCode,
        ).toBe(200);
        expect(cookieOf(v, 'hf_ref'), forged).toBeUndefined();
      }
    },
    'smart-checkout link': async () => {
      // Tom's signature over Amelia's order, and Tom's link opened by Amelia.
      const res = await browser().request({
        method: 'GET',
        url: `/smartcheckout/?session=${ameliaSale.reference}&expires=${smart.expires}&signature=${token['smart-checkout link']}`,
        headers: HTML,
      });
      expect(res.statusCode).toBe(404);
      const before = cookieOf(amelia, 'hf_sale');
      const opened = await amelia.request({
        method: 'GET',
        url: `/smartcheckout/?session=${smart.session}&expires=${smart.expires}&signature=${token['smart-checkout link']}`,
        headers: HTML,
      });
      expect(opened.statusCode).toBe(403);
      expect(cookieOf(amelia, 'hf_sale')).toBe(before);
      expect((await amelia.checkout()).sale_reference).toBe(ameliaSale.reference);
    },
    'transfer link':
      'its subject is the transfer its 32 random bytes find, and accepting gives that transfer’s tickets to its own recipient only',
    'waiting-list offer link': async () => {
      // Amelia, signed in, is refused Tom's offer; a browser holding Amelia's code cannot claim it for Tom's address.
      expect(
        (
          await amelia.request({
            method: 'GET',
            url: `/waiting-list/offer/${token['waiting-list offer link']}/`,
            headers: HTML,
          })
        ).statusCode,
      ).toBe(403);
      const v = browser();
      expect(
        (await v.request({ method: 'POST', url: '/signin/', body: form({ email: w.demo.users.subscribedDark.email }) }))
          .statusCode,
      ).toBe(200);
      const code = await codeSentTo(db(), w.demo.users.subscribedDark.email);
      const claim = await v.request({
        method: 'POST',
        url: `/waiting-list/offer/${token['waiting-list offer link']}/claim/`,
        body: form({ code }),
        headers: HTML,
      });
      expect(claim.statusCode).toBe(400);
      expect(cookieOf(v, 'hf_sale')).toBeUndefined();
      expect((await entry(tomEntry)).claimedAt).toBeNull();
    },
    'waiting-list leave link': async () => {
      // Tom's signature over Amelia's entry.
      const [, end, mac] = token['waiting-list leave link']!.split('-');
      const forged = `${ameliaEntry.toString(36)}-${end}-${mac}`;
      expect(
        (await browser().request({ method: 'GET', url: `/waiting-list/leave/${forged}/`, headers: HTML })).statusCode,
      ).toBe(404);
      expect(
        (await browser().request({ method: 'POST', url: `/waiting-list/leave/${forged}/`, body: '', headers: HTML }))
          .statusCode,
      ).toBe(404);
      expect((await entry(ameliaEntry)).leftAt).toBeNull();
    },
    'waiver link': async () => {
      // Another order's reference, whose events set no terms.
      expect(
        (
          await browser().request({
            method: 'GET',
            url: `/activity-terms-and-conditions/${ameliaSale.reference}/`,
            headers: HTML,
          })
        ).statusCode,
      ).toBe(404);
    },
    'bank return': async () => {
      // The buyer's payment, brought back by Amelia's browser (with an order of its own) and by one with none.
      for (const v of [amelia, browser()]) {
        expect(
          (
            await v.request({
              method: 'GET',
              url: `/do/checkout/truelayer_return/?payment_id=${enc(token['bank return']!)}`,
            })
          ).statusCode,
        ).toBe(303);
      }
      expect((await db().select().from(t.sales).where(eq(t.sales.id, bankSale)))[0]!.state).toBe('payment');
      expect((await db().select().from(t.sales).where(eq(t.sales.id, ameliaSale.id)))[0]!.state).not.toBe(
        'awaiting_truelayer',
      );
    },
    'card return': async () => {
      const cardPayment = async () => (await db().select().from(t.payments).where(eq(t.payments.saleId, cardSale)))[0]!;
      const hers = async () => ({
        sale: (await db().select().from(t.sales).where(eq(t.sales.id, ameliaSale.id)))[0]!,
        payments: await db().select().from(t.payments).where(eq(t.payments.saleId, ameliaSale.id)),
      });
      const before = await hers();
      const reference = (await db().select().from(t.sales).where(eq(t.sales.id, cardSale)))[0]!.reference;
      // Amelia's browser (with an order of its own) and one with none, at the app that takes cards through Stripe.
      const others = [new Visitor(keyed.app, { cookie: amelia.cookieHeader }), new Visitor(keyed.app)];
      const back = (v: Visitor, id: string) =>
        v.request({
          method: 'GET',
          url: `/do/checkout/stripe_auth/?payment_intent=${enc(id)}&redirect_status=succeeded`,
        });
      // A payment id Stripe does not know moves nothing.
      for (const v of others) expect((await back(v, 'pi_madeUp0000000000000000')).statusCode).toBe(303);
      expect(await cardPayment()).toMatchObject({ status: 'requires_payment_method', outcome: null });
      expect(await cardSold()).toBe(0);
      // The buyer's payment id, brought back by each twice: that payment is settled as Stripe records it, once, and nothing else moves.
      for (const v of [...others, ...others]) {
        const res = await back(v, token['card return']!);
        expect([res.statusCode, res.headers.location]).toEqual([303, '/checkout/']);
      }
      expect(await cardPayment()).toMatchObject({ status: 'succeeded', outcome: 'booked' });
      expect(await cardSold()).toBe(1);
      expect(stripe.refunds).toEqual([]);
      expect(await hers()).toEqual(before);
      // Neither browser is given the buyer's order.
      for (const v of others) expect((await v.checkout()).sale_reference).not.toBe(reference);
    },
    'Gift Aid download token': 'the token alone names its charity: the download asks for no other',
    'wallet link': async () => {
      // Tom's wallet link opened by Amelia shows hers, and by a browser signed in as no one, nobody's.
      const owner = async (v: Visitor) =>
        /Tickets of [^(]+\(([^)]+)\)/.exec(
          (await v.request({ method: 'GET', url: '/account/wallet/', headers: HTML })).body,
        )?.[1] ?? null;
      expect(await owner(tom)).toBe(w.demo.users.notSubscribed.email);
      expect(await owner(amelia)).toBe(w.demo.users.subscribedDark.email);
      const stranger = await browser().request({ method: 'GET', url: '/account/wallet/', headers: HTML });
      expect(stranger.body).toContain('Sign in to see your tickets');
      expect(stranger.body).not.toContain(token['Apple Wallet pass link']);
    },
    'Apple Wallet pass link': async () => {
      // Tom's ticket's pass, asked for by Amelia and by a browser signed in as no one.
      for (const v of [amelia, browser()])
        expect(
          (await v.request({ method: 'GET', url: `/account/wallet/passes/${token['Apple Wallet pass link']}.pkpass` }))
            .statusCode,
        ).toBe(404);
    },
    'Google Wallet save link': async () => {
      // Tom's save link with Amelia's ticket put in its claims.
      const [header, payload, signature] = token['Google Wallet save link']!.split('.');
      const claims = Buffer.from(payload!, 'base64url').toString('utf8');
      expect(claims).toContain(token['Apple Wallet pass link']);
      const swapped = Buffer.from(claims.split(token['Apple Wallet pass link']!).join(ameliaTicket)).toString(
        'base64url',
      );
      const res = await browser().request({
        method: 'GET',
        url: `/sandbox/google-wallet/save/${header}.${swapped}.${signature}`,
        headers: HTML,
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).not.toContain(ameliaTicket);
    },
    'account-settings link': async () => {
      // The plan payer’s card page, opened and posted to by Amelia.
      const path = `/account/plans/${token['account-settings link']}/card/`;
      expect((await amelia.request({ method: 'GET', url: path, headers: HTML })).statusCode).toBe(404);
      const posted = await amelia.request({
        method: 'POST',
        url: path,
        body: form({ number: SANDBOX_CARDS.success, expiry: '12/34', cvc: '123', make_default: 'true' }),
        headers: HTML,
      });
      expect(posted.statusCode).toBe(404);
      expect(
        (await db().select().from(t.instalmentPlans).where(eq(t.instalmentPlans.saleId, plan.saleId)))[0]!
          .paymentMethodId,
      ).toBe(plan.paymentMethodId);
    },
    "'your turn' e-mail link": async () => {
      // The queue page's address, opened by another browser, signed in or not: no place, and none given.
      const state = async (v: Visitor) =>
        queueStatus.parse((await v.request({ method: 'GET', url: `/ajax/queue/${presaleDate}/status/` })).json()).state;
      expect(await state(queuer)).not.toBe('no-place');
      for (const v of [browser(), amelia]) {
        expect((await v.request({ method: 'GET', url: `/queue/${presaleDate}/`, headers: HTML })).statusCode).toBe(200);
        expect(cookieOf(v, `hf_queue_${presaleDate}`)).toBeUndefined();
        expect(await state(v)).toBe('no-place');
      }
    },
    'mailing-list confirmation link': 'the token is all the confirmation reads: it names the one address it subscribes',
    'proof of work': async () => {
      // A solution taken for one queue, presented again for another.
      const solved = await solvedChallenge(browser());
      expect(
        (
          await browser().request({
            method: 'POST',
            url: `/ajax/queue/${presaleDate}/join/`,
            body: form({ altcha: solved }),
          })
        ).statusCode,
      ).toBe(200);
      const again = browser();
      expect(
        (await again.request({ method: 'POST', url: `/ajax/queue/${otherDate}/join/`, body: form({ altcha: solved }) }))
          .statusCode,
      ).toBe(403);
      expect(cookieOf(again, `hf_queue_${otherDate}`)).toBeUndefined();
    },
  };

  for (const row of LINK_ROWS) {
    const check = anotherSubject[row];
    if (typeof check === 'function') it(`${row}: is refused under another subject`, check);
  }

  it('is a token or an address presented somewhere by name, every row of the table', () => {
    for (const row of LINK_ROWS) {
      expect(slotOf[row] !== null || typeof anotherSubject[row] === 'function', row).toBe(true);
      expect(slotOf[row] === null ? token[row] : typeof token[row], row).toBe(slotOf[row] === null ? null : 'string');
    }
  });

  it("is, for Stripe's and TrueLayer's webhook signatures, refused in each other's header and over another body", async () => {
    // TrueLayer's webhook key, published at its sandbox's address, and the key we sign our requests to it with.
    const truelayer = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
    const ours = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
    const jku = 'https://webhooks.truelayer-sandbox.com/.well-known/jwks';
    const jwks = JSON.stringify({
      keys: [{ ...(truelayer.publicKey.export({ format: 'jwk' }) as JsonWebKey), kid: 'tl-capabilities' }],
    });
    const published = (async (input: string | URL | Request) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      return url === jku
        ? new Response(jwks, { headers: { 'content-type': 'application/json' } })
        : new Response('{}', { status: 404 });
    }) as typeof fetch;
    const stripeSecret = 'whsec_capabilities';
    const keyed = await appOn(
      w.database,
      {
        publicUrl: config.publicUrl,
        payment: paymentSettings({
          STRIPE_PUBLISHABLE_KEY: 'pk_test_capabilities',
          STRIPE_SECRET_KEY: 'sk_test_capabilities',
          STRIPE_WEBHOOK_SECRET: stripeSecret,
        }),
        bank: bankSettings({
          TRUELAYER_CLIENT_ID: 'sandbox-capabilities',
          TRUELAYER_CLIENT_SECRET: 'secret-capabilities',
          TRUELAYER_SIGNING_KEY_ID: 'key-capabilities',
          TRUELAYER_SIGNING_PRIVATE_KEY: ours.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          TRUELAYER_MERCHANT_ACCOUNT_ID: 'merchant-capabilities',
        }),
      },
      { fetch: published },
    );
    try {
      const now = keyed.clock.now;
      const timestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
      const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');
      /** Stripe's signature (t=…,v1=…) over a body, and TrueLayer's (a detached ES512 JWS over the path, its signed time and the body). */
      const signedBy = {
        stripe: (body: string) => signWebhook(body, stripeSecret, Math.floor(now.getTime() / 1000)),
        truelayer: (body: string) => {
          const header = b64url(
            JSON.stringify({
              alg: 'ES512',
              kid: 'tl-capabilities',
              tl_version: '2',
              tl_headers: 'X-Tl-Webhook-Timestamp',
              jku,
            }),
          );
          const payload = b64url(
            `POST /ajax/checkout/truelayer/webhook\nX-Tl-Webhook-Timestamp: ${timestamp}\n${body}`,
          );
          return `${header}..${b64url(sign('sha512', Buffer.from(`${header}.${payload}`), { key: truelayer.privateKey, dsaEncoding: 'ieee-p1363' }))}`;
        },
      };
      const bodies = {
        stripe: JSON.stringify({
          id: 'evt_capabilities',
          object: 'event',
          type: 'payment_intent.created',
          data: { object: { id: 'pi_capabilities', object: 'payment_intent', amount: 1000, currency: 'gbp' } },
        }),
        truelayer: JSON.stringify({
          type: 'payment_creditable',
          event_id: 'ev-capabilities',
          payment_id: 'tl-capabilities',
        }),
      };
      const deliver = (to: 'stripe' | 'truelayer', body: string, signature: string) =>
        keyed.app.inject({
          method: 'POST',
          url: `/ajax/checkout/${to}/webhook/`,
          payload: body,
          headers: {
            'content-type': 'application/json',
            ...(to === 'stripe'
              ? { 'stripe-signature': signature }
              : { 'tl-signature': signature, 'x-tl-webhook-timestamp': timestamp }),
          },
        });
      const refusal = { stripe: WEBHOOK_MESSAGES.signature, truelayer: TRUELAYER_WEBHOOK_MESSAGES.signature };
      for (const to of ['stripe', 'truelayer'] as const) {
        const other = to === 'stripe' ? 'truelayer' : 'stripe';
        // Its own signature over its own body is taken: the slot is the processor's.
        expect((await deliver(to, bodies[to], signedBy[to](bodies[to]))).statusCode, to).toBe(200);
        // The other processor's signature, over the body it signs or over this one.
        for (const body of [bodies[other], bodies[to]]) {
          const res = await deliver(to, body, signedBy[other](body));
          expect([res.statusCode, res.json()], `${other}'s signature in ${to}'s header`).toEqual([
            400,
            { error: refusal[to] },
          ]);
        }
        // Its own signature over another event's body.
        const another = bodies[to].replace('capabilities', 'another');
        const res = await deliver(to, another, signedBy[to](bodies[to]));
        expect([res.statusCode, res.json()], `${to}'s signature over another body`).toEqual([
          400,
          { error: refusal[to] },
        ]);
      }
    } finally {
      await keyed.app.close();
    }
  });

  it('is taken in its own slot, and then once only, where presenting it spends it', async () => {
    for (const row of LINK_ROWS) {
      const slot = slotOf[row];
      if (!slot?.spends) continue;
      expect((await slot.present(token[row]!)).granted, row).not.toBeNull();
    }
    // Spent: the code, the confirmation, the leave link and the solution are refused the second time.
    for (const row of [
      'one-time code',
      'mailing-list confirmation link',
      'waiting-list leave link',
      'proof of work',
    ] as const) {
      const again = await slotOf[row]!.present(token[row]!);
      expect(again.granted, `${row}, again`).toBeNull();
      for (const status of again.statuses) expect(is4xx(status), `${row}, again, answered ${status}`).toBe(true);
    }
    expect(await presaleUses()).toBe(1);
    // The card return settled its payment once, whichever browser brought it back first.
    expect(await cardSold()).toBe(1);
    expect((await entry(tomEntry)).leftAt).not.toBeNull();
    expect(await db().select().from(t.mailingList).where(eq(t.mailingList.email, mailingAddress))).toHaveLength(1);
  });
});
