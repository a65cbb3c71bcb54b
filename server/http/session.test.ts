/**
 * The session over HTTP: an opaque id, replaced at every sign-in and sign-out, ended by its idle
 * and absolute lifetimes and by signing out everywhere; every other cookie bound to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sessions } from '../db/schema.ts';
import {
  hashOf,
  SALE_COOKIE,
  SECURE_SESSION_COOKIE,
  SESSION_ABSOLUTE_SECONDS,
  SESSION_COOKIE,
  SESSION_IDLE_SECONDS,
} from './session.ts';
import { SIGN_OUT_EVERYWHERE_PATH } from '../routes/pages/signOutEverywhere.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

const HTML = { accept: 'text/html' };
const DAY_MS = 24 * 3600 * 1000;

describe.each(drivers)('the session on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { trustProxy: 1 });
  });
  afterAll(async () => w?.close());

  const cookieOf = (v: Visitor, name: string) => new RegExp(`(?:^|; )${name}=([^;]*)`).exec(v.cookieHeader)?.[1] ?? '';
  const signInAs = async (v: Visitor, userId: number) =>
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
  /** Who the wallet says the visitor is: their address, or null when it asks them to sign in. */
  const walletOwner = async (v: Visitor) => {
    const page = (await v.request({ method: 'GET', url: '/account/wallet/', headers: HTML })).body;
    return /Tickets of [^(]+\(([^)]+)\)/.exec(page)?.[1] ?? null;
  };

  it('is made with the first basket: an opaque id, HttpOnly and SameSite=Lax, a __Host- cookie and Secure over HTTPS', async () => {
    const v = new Visitor(w.app);
    const read = await v.call('getCheckout');
    expect(read.headers['set-cookie']).toBeUndefined();

    const plain = await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
    const cookies = [plain.headers['set-cookie']].flat().map(String);
    const session = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(session).toMatch(/^hf_session=a[A-Za-z0-9_-]{43}; /);
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).not.toMatch(/Secure/);
    const sale = cookies.find((c) => c.startsWith(`${SALE_COOKIE}=`))!;
    expect(sale).toMatch(/^hf_sale=[0-9a-f-]{36}\.[0-9a-z]+\.[A-Za-z0-9_-]{43}; /);
    expect(sale).toMatch(/HttpOnly/);

    const https = await new Visitor(w.app, { 'x-forwarded-proto': 'https' }).add({ [w.demo.tickets.jazzGeneral]: 1 });
    const secure = [https.headers['set-cookie']].flat().map(String);
    expect(secure.find((c) => c.startsWith(`${SECURE_SESSION_COOKIE}=`))).toMatch(/Secure/);
    expect(secure.find((c) => c.startsWith(`${SALE_COOKIE}=`))).toMatch(/Secure/);
    expect(secure.some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });

  it('refuses a forged sale cookie, one copied into another browser, and one signed by another site’s secret', async () => {
    const owner = new Visitor(w.app);
    await owner.add({ [w.demo.tickets.jazzGeneral]: 3 });
    expect((await owner.checkout()).tickets).toHaveLength(1);
    const signed = cookieOf(owner, SALE_COOKIE);
    const saleId = signed.slice(0, 36);
    const read = (cookie: string) =>
      w.app
        .inject({ method: 'GET', url: '/ajax/checkout/checkout/get/', headers: { cookie } })
        .then((r) => r.json().tickets);
    expect(await read(`${SALE_COOKIE}=${saleId}`)).toEqual([]);
    const tampered = `${signed.slice(0, -2)}${signed.endsWith('A') ? 'BB' : 'AA'}`;
    expect(await read(`${SESSION_COOKIE}=${cookieOf(owner, SESSION_COOKIE)}; ${SALE_COOKIE}=${tampered}`)).toEqual([]);
    // The sale cookie alone, in a browser with a session of its own: bound to the owner's session, it is not this one's.
    const copier = new Visitor(w.app);
    await copier.add({ [w.demo.tickets.jazzGeneral]: 1 });
    expect(await read(`${SESSION_COOKIE}=${cookieOf(copier, SESSION_COOKIE)}; ${SALE_COOKIE}=${signed}`)).toEqual([]);
    // Another app on the same database with its own secret does not take it.
    const other = await appOn(w.database, { sessionSecret: 'another-site-secret-of-enough-length-0123456789' });
    try {
      const there = await other.app.inject({
        method: 'GET',
        url: '/ajax/checkout/checkout/get/',
        headers: { cookie: owner.cookieHeader },
      });
      expect(there.json().tickets).toEqual([]);
    } finally {
      await other.app.close();
    }
  });

  it('is replaced at sign-in, keeping the basket: the id a browser had before signs no one in', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzGeneral]: 2 });
    const before = cookieOf(v, SESSION_COOKIE);
    await signInAs(v, w.demo.users.notSubscribed.id);
    const after = cookieOf(v, SESSION_COOKIE);
    expect(after).toMatch(/^s/);
    expect(after).not.toBe(before);
    expect((await v.checkout()).tickets).toHaveLength(1);
    expect(await walletOwner(v)).toBe(w.demo.users.notSubscribed.email);
    // Someone who planted or copied the id before sign-in has nothing.
    expect(await walletOwner(new Visitor(w.app, { cookie: `${SESSION_COOKIE}=${before}` }))).toBeNull();
    // Only the hash of the id is kept.
    const [row] = await w.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, hashOf(after)));
    expect(row?.userId).toBe(w.demo.users.notSubscribed.id);
    expect(JSON.stringify(row)).not.toContain(after);
  });

  it('ends at sign-out: the old id, replayed, signs no one in', async () => {
    const v = new Visitor(w.app);
    await signInAs(v, w.demo.users.notSubscribed.id);
    const signedIn = cookieOf(v, SESSION_COOKIE);
    expect((await v.request({ method: 'POST', url: '/signout/' })).statusCode).toBe(303);
    expect(await walletOwner(v)).toBeNull();
    expect(await walletOwner(new Visitor(w.app, { cookie: `${SESSION_COOKIE}=${signedIn}` }))).toBeNull();
  });

  it('signing out everywhere ends the buyer’s other browsers at their next request, and no one else’s', async () => {
    const phone = new Visitor(w.app);
    const laptop = new Visitor(w.app);
    const someoneElse = new Visitor(w.app);
    await signInAs(phone, w.demo.users.notSubscribed.id);
    await signInAs(laptop, w.demo.users.notSubscribed.id);
    await signInAs(someoneElse, w.demo.users.subscribedDark.id);
    expect(await walletOwner(laptop)).toBe(w.demo.users.notSubscribed.email);

    const done = await phone.request({ method: 'POST', url: SIGN_OUT_EVERYWHERE_PATH, headers: HTML });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You are signed out on every device.');
    expect(await walletOwner(phone)).toBeNull();
    expect(await walletOwner(laptop)).toBeNull();
    expect(cookieOf(laptop, SESSION_COOKIE)).toBe('');
    expect(await walletOwner(someoneElse)).toBe(w.demo.users.subscribedDark.email);
  });

  it('over HTTPS clears an ended session with a Secure __Host- cookie, which a browser takes', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const phone = new Visitor(w.app, https);
    const laptop = new Visitor(w.app, https);
    await signInAs(phone, w.demo.users.notSubscribed.id);
    await signInAs(laptop, w.demo.users.notSubscribed.id);
    await phone.request({ method: 'POST', url: SIGN_OUT_EVERYWHERE_PATH, headers: HTML });
    const next = await laptop.request({ method: 'GET', url: '/account/wallet/', headers: HTML });
    const cleared = [next.headers['set-cookie']]
      .flat()
      .map(String)
      .find((c) => c.startsWith(`${SECURE_SESSION_COOKIE}=;`));
    expect(cleared).toMatch(/Secure/);
    expect(cleared).toMatch(/Path=\//);
    expect(next.body).toContain('Sign in to see your tickets.');
  });

  it('ends after a week unused, and a month after sign-in however often it is used', async () => {
    const idle = new Visitor(w.app);
    await signInAs(idle, w.demo.users.notSubscribed.id);
    w.clock.advance(SESSION_IDLE_SECONDS * 1000 - DAY_MS);
    expect(await walletOwner(idle)).toBe(w.demo.users.notSubscribed.email);
    w.clock.advance(SESSION_IDLE_SECONDS * 1000 + 1000);
    expect(await walletOwner(idle)).toBeNull();

    const daily = new Visitor(w.app);
    await signInAs(daily, w.demo.users.notSubscribed.id);
    for (let day = 1; day < SESSION_ABSOLUTE_SECONDS / 86400; day++) {
      w.clock.advance(DAY_MS);
      expect(await walletOwner(daily), `day ${day}`).toBe(w.demo.users.notSubscribed.email);
    }
    w.clock.advance(DAY_MS);
    expect(await walletOwner(daily)).toBeNull();
  });
});
