/**
 * The mailing list by double opt-in, over HTTP on each driver: the form only e-mails the address a
 * link; the address joins the list when that link is followed and confirmed, once, within 48 hours.
 * A forged, used or expired link, a bad address and a flood of sign-ups for one address get a clear
 * 4xx and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { mailingList, marketingConsents, outbox, users } from '../db/schema.ts';
import {
  CONFIRMATION_EXPIRED_MESSAGE,
  CONFIRMATION_NOT_FOUND_MESSAGE,
  CONFIRMATION_USED_MESSAGE,
  MAILING_LIST_CONFIRM_HOURS,
  MAILING_LIST_SENDS_PER_DAY,
  TOO_MANY_CONFIRMATIONS_MESSAGE,
} from '../domain/users.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

const PUBLIC_URL = 'https://tickets.example.com';

describe.each(drivers)('the mailing list on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { publicUrl: PUBLIC_URL });
  }, 180_000);
  afterAll(async () => w?.close());

  const db = () => w.database.db;
  const listed = async (email: string) =>
    (await db().select().from(mailingList).where(eq(mailingList.email, email))).length > 0;
  const signUp = (v: Visitor, email: string) =>
    v.request({ method: 'POST', url: '/mailing-list', body: new URLSearchParams({ email }).toString() });
  const mailsTo = (email: string) =>
    db().select().from(outbox).where(eq(outbox.recipient, email)).orderBy(desc(outbox.id));

  /** The confirmation link in the newest e-mail to this address, as its holder would open it. */
  async function linkSentTo(email: string): Promise<URL> {
    const [mail] = await mailsTo(email);
    const found = /https:\/\/tickets\.example\.com\/mailing-list\/confirm\?token=[A-Za-z0-9_-]+/.exec(mail?.body ?? '');
    if (!found) throw new Error(`no confirmation link sent to ${email}`);
    return new URL(found[0]);
  }
  const open = (v: Visitor, link: URL) => v.request({ method: 'GET', url: `${link.pathname}${link.search}` });
  const confirm = (v: Visitor, token: string) =>
    v.request({ method: 'POST', url: '/mailing-list/confirm', body: new URLSearchParams({ token }).toString() });

  it('a sign-up subscribes no one until the e-mailed link is opened and confirmed; the link then works no more', async () => {
    const tom = w.demo.users.notSubscribed;
    const v = new Visitor(w.app);
    const res = await signUp(v, ` ${tom.email.toUpperCase()} `);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('until then you are not on the list');
    expect(await listed(tom.email)).toBe(false);
    const [mail] = await mailsTo(tom.email);
    expect(mail!.subject).toBe('Confirm your Holdfast mailing list sign-up');

    // Opening the link (as a mail scanner would) only asks.
    const link = await linkSentTo(tom.email);
    expect(link.origin).toBe(PUBLIC_URL);
    const page = await open(new Visitor(w.app), link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Subscribe ${tom.email} to event news and discounts?`);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(await listed(tom.email)).toBe(false);

    // Confirming, from any browser, subscribes the address and its account, with the consent kept.
    const done = await confirm(new Visitor(w.app), link.searchParams.get('token')!);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(`${tom.email} is on the list`);
    expect(await listed(tom.email)).toBe(true);
    expect((await db().select().from(users).where(eq(users.id, tom.id)))[0]!.subscribed).toBe(true);
    const consents = (await db().select().from(marketingConsents).where(eq(marketingConsents.email, tom.email))).filter(
      (c) => c.source === 'mailing-list:confirmed',
    );
    expect(consents).toMatchObject([{ userId: tom.id, topic: 'community', subscribed: true }]);

    // The link is spent: opening or confirming again is refused and records nothing more.
    for (const again of [await open(v, link), await confirm(v, link.searchParams.get('token')!)]) {
      expect(again.statusCode).toBe(409);
      expect(again.body).toContain(CONFIRMATION_USED_MESSAGE);
    }
    expect(
      (await db().select().from(marketingConsents).where(eq(marketingConsents.email, tom.email))).filter(
        (c) => c.source === 'mailing-list:confirmed',
      ),
    ).toHaveLength(1);
  });

  it(`a link older than ${MAILING_LIST_CONFIRM_HOURS} hours is refused and subscribes no one`, async () => {
    const email = 'late.reader@example.com';
    const v = new Visitor(w.app);
    expect((await signUp(v, email)).statusCode).toBe(200);
    const link = await linkSentTo(email);
    w.clock.advance(MAILING_LIST_CONFIRM_HOURS * 3600 * 1000 + 1000);
    for (const res of [await open(v, link), await confirm(v, link.searchParams.get('token')!)]) {
      expect(res.statusCode).toBe(409);
      expect(res.body).toContain(CONFIRMATION_EXPIRED_MESSAGE);
    }
    expect(await listed(email)).toBe(false);
  });

  it('a forged, missing or altered token is refused with 404 and subscribes no one', async () => {
    const email = 'altered.link@example.com';
    const v = new Visitor(w.app);
    expect((await signUp(v, email)).statusCode).toBe(200);
    const token = (await linkSentTo(email)).searchParams.get('token')!;
    const altered = token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'));
    for (const bad of [altered, 'A'.repeat(43), '123456', '', `${token}x`]) {
      const opened = await v.request({ method: 'GET', url: `/mailing-list/confirm?token=${encodeURIComponent(bad)}` });
      expect([opened.statusCode, bad]).toEqual([404, bad]);
      expect(opened.body).toContain(CONFIRMATION_NOT_FOUND_MESSAGE);
      const posted = await confirm(v, bad);
      expect([posted.statusCode, bad]).toEqual([404, bad]);
    }
    expect((await v.request({ method: 'GET', url: '/mailing-list/confirm' })).statusCode).toBe(404);
    expect(await listed(email)).toBe(false);
  });

  it(`refuses a bad address with 400, and more than ${MAILING_LIST_SENDS_PER_DAY} confirmation e-mails to one address a day with 429`, async () => {
    const v = new Visitor(w.app);
    const bad = await signUp(v, 'nope');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Please type a valid email address');
    expect(await mailsTo('nope')).toEqual([]);

    const email = 'flooded@example.com';
    for (let i = 0; i < MAILING_LIST_SENDS_PER_DAY; i++) expect((await signUp(v, email)).statusCode).toBe(200);
    const flood = await signUp(v, email);
    expect(flood.statusCode).toBe(429);
    expect(flood.body).toContain(TOO_MANY_CONFIRMATIONS_MESSAGE);
    expect(await mailsTo(email)).toHaveLength(MAILING_LIST_SENDS_PER_DAY);
    expect(await listed(email)).toBe(false);
  });
});
