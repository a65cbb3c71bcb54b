/**
 * The sign-in page over HTTP, on each driver, in and out of demo mode: an e-mail address gets a
 * one-time code (the checkout's, with its limits), the right code signs the buyer in and goes on
 * to a page of this site only, a wrong one signs no one in and five lock the code, an address
 * without an account gets one once its code is proved and a full name given; only in demo mode
 * does the page list the demo accounts and sign one in without a code.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { outbox, saleLines, sales, users } from '../../db/schema.ts';
import {
  LOCKED_CODE_MESSAGE,
  MAX_WRONG_TRIES,
  SEND_LIMITS,
  TOO_MANY_FOR_EMAIL_MESSAGE,
  WRONG_CODE_MESSAGE,
} from '../../domain/oneTimeCode.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../../test/harness.ts';
import { hotEvent } from '../../test/fixtures.ts';
import { WALLET_PATH } from '../../../contract/index.ts';
import { ACCOUNT_MESSAGES } from '../../../contract/messages/account.ts';

const HTML = { accept: 'text/html' };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
/** What the page's HTML says, with its entities read (an apostrophe is written &#39;). */
const text = (body: string) => body.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));

describe.each(drivers)('the sign-in page on %s', (driver) => {
  let w: TestWorld;
  let demo: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { demo: false });
    demo = await openWorld(driver, { demo: true });
  }, 180_000);
  afterAll(async () => {
    await w?.close();
    await demo?.close();
  });
  /** Each test starts a sending window of its own: the per-address limits count within one. */
  const nextWindow = () => {
    w.clock.advance(SEND_LIMITS.windowMs);
    demo.clock.advance(SEND_LIMITS.windowMs);
  };
  beforeEach(nextWindow);

  /** The code in the newest message to this address, read from the outbox. */
  async function codeSentTo(world: TestWorld, email: string): Promise<string> {
    const [mail] = await world.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.recipient, email))
      .orderBy(desc(outbox.id))
      .limit(1);
    const code = /code is (\d{6})/.exec(mail?.body ?? '')?.[1];
    if (!code) throw new Error(`no code in the outbox for ${email}`);
    return code;
  }
  const mailsTo = async (world: TestWorld, email: string) =>
    (await world.database.db.select().from(outbox).where(eq(outbox.recipient, email))).length;
  const userOf = async (v: Visitor) => ((await v.json('getUser')) as { user: { email: string } | null }).user;
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

  async function askForCode(v: Visitor, email: string, next?: string) {
    const res = await v.request({
      method: 'POST',
      url: '/signin/',
      body: form({ email, ...(next === undefined ? {} : { next }) }),
      headers: HTML,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(text(res.body)).toContain(`Code sent to inbox ${email}`);
    return res;
  }
  const sendCode = (v: Visitor, email: string, code: string, next?: string) =>
    v.request({
      method: 'POST',
      url: '/signin/code/',
      body: form({ email, code, ...(next === undefined ? {} : { next }) }),
      headers: HTML,
    });

  it('out of demo mode shows the e-mail form in the checkout’s words, and no account’s name or e-mail', async () => {
    const res = await new Visitor(w.app).request({ method: 'GET', url: '/signin/', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(text(res.body)).toContain("We'll email you a one-time sign in or registration code.");
    expect(res.body).toContain('<form method="post" action="/signin/"');
    expect(res.body).toContain('name="email"');
    expect(res.body).not.toContain('Continue as');
    expect(res.body).not.toContain('name="user_id"');
    for (const u of await w.database.db.select().from(users)) {
      expect(res.body).not.toContain(u.email);
      expect(res.body).not.toContain(`${u.firstName} ${u.lastName}`);
    }
  });

  it('sends a code, and the right code signs the buyer in and goes on to next', async () => {
    const tom = w.demo.users.notSubscribed;
    const v = new Visitor(w.app);
    const page = await askForCode(v, tom.email, '/checkout/?step=login');
    expect(page.body).toContain('action="/signin/code/"');
    expect(page.body).toContain('value="/checkout/?step=login"');
    expect(await userOf(v)).toBeNull();
    const res = await sendCode(v, tom.email, await codeSentTo(w, tom.email), '/checkout/?step=login');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/checkout/?step=login');
    expect(await userOf(v)).toMatchObject({ email: tom.email });
    // Signed in, the wallet shows the buyer's own page.
    const wallet = await v.request({ method: 'GET', url: WALLET_PATH, headers: HTML });
    expect(wallet.body).toContain(`Tickets of ${tom.firstName} ${tom.lastName}`);
  });

  it('goes to the wallet when next is missing or not a page of this site', async () => {
    const tom = w.demo.users.notSubscribed;
    for (const next of [
      undefined,
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/ok\nLocation: x',
    ]) {
      nextWindow();
      const v = new Visitor(w.app);
      const page = await askForCode(v, tom.email, next);
      expect(page.body, String(next)).not.toContain('evil.example');
      const res = await sendCode(v, tom.email, await codeSentTo(w, tom.email), next);
      expect(res.statusCode, String(next)).toBe(303);
      expect(res.headers.location, String(next)).toBe(WALLET_PATH);
      expect(await userOf(v)).toMatchObject({ email: tom.email });
    }
    // The next of the page's own address is carried into its form.
    const shown = await new Visitor(w.app).request({
      method: 'GET',
      url: '/signin/?next=%2F%2Fevil.example',
      headers: HTML,
    });
    expect(shown.body).not.toContain('evil.example');
  });

  it('a wrong code shows the checkout’s message and signs no one in; the code works once', async () => {
    const email = w.demo.users.subscribedDark.email;
    const v = new Visitor(w.app);
    await askForCode(v, email);
    const code = await codeSentTo(w, email);
    const wrong = await sendCode(v, email, wrongFor(code));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.headers['content-type']).toMatch(/text\/html/);
    expect(text(wrong.body)).toContain(WRONG_CODE_MESSAGE);
    expect(wrong.body).toContain('name="code"');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(await userOf(v)).toBeNull();
    // Not six digits: refused in the same words, no account touched.
    for (const typed of ['12345', 'abcdef', '1234567', '']) {
      const res = await sendCode(v, email, typed);
      expect(res.statusCode, typed).toBe(400);
      expect(text(res.body), typed).toContain(WRONG_CODE_MESSAGE);
    }
    // The right code still works (the malformed ones counted no try), once.
    expect((await sendCode(v, email, code)).statusCode).toBe(303);
    expect(await userOf(v)).toMatchObject({ email });
    const other = new Visitor(w.app);
    const again = await sendCode(other, email, code);
    expect(again.statusCode).toBe(400);
    expect(await userOf(other)).toBeNull();
  });

  it(`locks the code after ${MAX_WRONG_TRIES} wrong tries, even against the right one`, async () => {
    const email = w.demo.users.notSubscribed.email;
    const v = new Visitor(w.app);
    await askForCode(v, email);
    const code = await codeSentTo(w, email);
    for (let i = 0; i < MAX_WRONG_TRIES; i++) {
      const res = await sendCode(v, email, wrongFor(code));
      expect(res.statusCode).toBe(400);
      expect(text(res.body)).toContain(WRONG_CODE_MESSAGE);
    }
    const locked = await sendCode(v, email, code);
    expect(locked.statusCode).toBe(429);
    expect(text(locked.body)).toContain(LOCKED_CODE_MESSAGE);
    expect(await userOf(v)).toBeNull();
    // A new code works again.
    await askForCode(v, email);
    expect((await sendCode(v, email, await codeSentTo(w, email))).statusCode).toBe(303);
    expect(await userOf(v)).toMatchObject({ email });
  });

  it('keeps the checkout’s per-address limit on codes sent, and refuses in words', async () => {
    const email = 'limit.me@example.org';
    const v = new Visitor(w.app, {}, '198.51.100.7');
    for (let i = 0; i < 5; i++) await askForCode(v, email);
    const refused = await v.request({
      method: 'POST',
      url: '/signin/',
      body: form({ email, resend: '1' }),
      headers: HTML,
    });
    expect(refused.statusCode).toBe(429);
    expect(text(refused.body)).toContain(TOO_MANY_FOR_EMAIL_MESSAGE);
    expect(await mailsTo(w, email)).toBe(5);
  });

  it('refuses what is not an e-mail address in the checkout’s words, and sends nothing', async () => {
    const v = new Visitor(w.app);
    for (const body of ['email=not-an-email', 'email=a%00%40example.com', '', 'email[a]=b', 'code=123456']) {
      const res = await v.request({ method: 'POST', url: '/signin/', body, headers: HTML });
      expect(res.statusCode, body).toBe(400);
      expect(res.headers['content-type'], body).toMatch(/text\/html/);
      expect(res.body, body).toContain(ACCOUNT_MESSAGES.invalidEmail);
    }
    const code = await v.request({
      method: 'POST',
      url: '/signin/code/',
      body: 'email=nope&code=123456',
      headers: HTML,
    });
    expect(code.statusCode).toBe(400);
    expect(code.body).toContain(ACCOUNT_MESSAGES.invalidEmail);
    expect(await mailsTo(w, 'not-an-email')).toBe(0);
  });

  it('out of demo mode a POST naming an account or its e-mail signs no one in', async () => {
    const tom = w.demo.users.notSubscribed;
    const v = new Visitor(w.app);
    for (const body of [`user_id=${tom.id}`, `user_id=${tom.id}&next=%2Faccount%2Fwallet%2F`]) {
      const res = await v.request({ method: 'POST', url: '/signin/', body, headers: HTML });
      expect(res.statusCode, body).toBe(400);
      expect(res.headers['set-cookie'], body).toBeUndefined();
      expect(res.body).not.toContain(tom.email);
      expect(await userOf(v)).toBeNull();
    }
    const named = await v.request({ method: 'POST', url: '/signin/', body: form({ email: tom.email }) });
    expect(named.statusCode).toBe(200);
    expect(named.headers['set-cookie']).toBeUndefined();
    expect(await userOf(v)).toBeNull();
  });

  it('an address without an account gets one once its code is proved and a full name given', async () => {
    const email = 'new.fan@example.org';
    const v = new Visitor(w.app);
    await askForCode(v, email, '/all-events/');
    const asked = await sendCode(v, email, await codeSentTo(w, email), '/all-events/');
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('action="/signin/name/"');
    expect(await userOf(v)).toBeNull();
    expect(await w.database.db.select().from(users).where(eq(users.email, email))).toEqual([]);

    const oneWord = await v.request({
      method: 'POST',
      url: '/signin/name/',
      body: form({ email, fullname: 'Fan', next: '/all-events/' }),
      headers: HTML,
    });
    expect(oneWord.statusCode).toBe(400);
    expect(oneWord.body).toContain(ACCOUNT_MESSAGES.fullName);
    // Another browser, and another address on this one, cannot use the proof.
    const stranger = await new Visitor(w.app).request({
      method: 'POST',
      url: '/signin/name/',
      body: form({ email, fullname: 'Not Them' }),
      headers: HTML,
    });
    expect(stranger.statusCode).toBe(403);
    const otherAddress = await v.request({
      method: 'POST',
      url: '/signin/name/',
      body: form({ email: 'other@example.org', fullname: 'Not Them' }),
      headers: HTML,
    });
    expect(otherAddress.statusCode).toBe(403);
    expect(await w.database.db.select().from(users).where(eq(users.email, 'other@example.org'))).toEqual([]);

    const made = await v.request({
      method: 'POST',
      url: '/signin/name/',
      body: form({ email, fullname: 'New Fan', next: '/all-events/' }),
      headers: HTML,
    });
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe('/all-events/');
    expect(await userOf(v)).toMatchObject({ email, first_name: 'New', last_name: 'Fan' });
  });

  it('an address with an account takes this browser’s basket with it, as the checkout’s login does', async () => {
    const amelia = w.demo.users.subscribedDark;
    const ticket = (await hotEvent(w.database.db, { capacity: 100, types: 1 })).types[0]!.id;
    const v = new Visitor(w.app);
    expect((await v.add({ [ticket]: 1 })).statusCode).toBe(200);
    const [line] = await w.database.db.select().from(saleLines).where(eq(saleLines.ticketTypeId, ticket));
    const ownerOf = async () => (await w.database.db.select().from(sales).where(eq(sales.id, line!.saleId)))[0]?.userId;
    expect(await ownerOf()).toBeNull();
    await askForCode(v, amelia.email);
    expect((await sendCode(v, amelia.email, await codeSentTo(w, amelia.email))).statusCode).toBe(303);
    expect(await ownerOf()).toBe(amelia.id);
    expect((await v.checkout()).tickets).toHaveLength(1);
  });

  it('in demo mode also lists the demo accounts, each signed in with one click', async () => {
    const tom = demo.demo.users.notSubscribed;
    const v = new Visitor(demo.app);
    const page = await v.request({ method: 'GET', url: '/signin/', headers: HTML });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(tom.email);
    expect(page.body).toContain(`Continue as ${tom.firstName} ${tom.lastName}`);
    expect(text(page.body)).toContain("We'll email you a one-time sign in or registration code.");
    const res = await v.request({ method: 'POST', url: '/signin/', body: `user_id=${tom.id}` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/checkout/');
    expect(await userOf(v)).toMatchObject({ email: tom.email });
    // With a next, the button goes there.
    const other = new Visitor(demo.app);
    const onward = await other.request({
      method: 'POST',
      url: '/signin/',
      body: form({ user_id: String(tom.id), next: WALLET_PATH }),
    });
    expect(onward.headers.location).toBe(WALLET_PATH);
    // And the code works there too.
    const code = new Visitor(demo.app);
    await askForCode(code, tom.email);
    expect((await sendCode(code, tom.email, await codeSentTo(demo, tom.email))).statusCode).toBe(303);
    expect(await userOf(code)).toMatchObject({ email: tom.email });
  });

  it('in demo mode refuses an unknown or malformed demo account in words', async () => {
    const v = new Visitor(demo.app);
    for (const body of ['user_id=999999', 'user_id=abc', 'user_id=0']) {
      const res = await v.request({ method: 'POST', url: '/signin/', body, headers: HTML });
      expect(res.statusCode, body).toBe(400);
      expect(res.body, body).toContain('notice error');
      expect(await userOf(v)).toBeNull();
    }
  });
});
