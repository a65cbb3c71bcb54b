/**
 * Signing in by one-time code (spec 000 §4 "Account modes", §9: 6 digits, 15 minutes), the
 * outbox and mailbox, and the sale following the buyer to another browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { rows } from '../db/index.ts';
import { marketingConsents, oneTimeCodes, outbox, users } from '../db/schema.ts';
import {
  checkCode,
  issueCode,
  MAX_WRONG_TRIES,
  TOO_MANY_FOR_EMAIL_MESSAGE,
  TOO_MANY_FOR_IP_MESSAGE,
  EXPIRED_CODE_MESSAGE,
  WRONG_CODE_MESSAGE,
} from './oneTimeCode.ts';
import { buildMessage, sendMail } from '../mail/index.ts';
import { RESERVATION_EXPIRED_MESSAGE, VERIFY_FIRST_MESSAGE } from './account.ts';
import { NOT_IN_BASKET_MESSAGE, CONSENT_SOURCE } from './marketing.ts';
import { openTestDatabase } from '../db/testing.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { ONE_TIME_CODE_LIFETIME_MS } from '../../contract/index.ts';

const SECRET = 'test-secret-test-secret-test-secret';

/** The code in the newest message to this address, read the way a person reads the mailbox page. */
async function codeFromMailbox(visitor: Visitor, email: string): Promise<string> {
  const res = await visitor.request({ method: 'GET', url: `/dev/mailbox?to=${encodeURIComponent(email)}` });
  expect(res.statusCode).toBe(200);
  const match = /Your one-time sign in or registration code is (\d{6})/.exec(res.body);
  if (!match) throw new Error(`no code in the mailbox for ${email}`);
  return match[1]!;
}

describe.each(drivers)('one-time codes on %s', (driver) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await openWorld(driver);
  }, 180_000);
  afterAll(async () => world?.close());

  it('sends a 6-digit code to the outbox, keeps only its hash, and shows it on the mailbox page', async () => {
    const v = new Visitor(world.app);
    expect((await v.call('sendOneTimeCode', { email: ' New.Buyer@Example.com ' })).statusCode).toBe(200);
    const code = await codeFromMailbox(v, 'new.buyer@example.com');
    expect(code).toMatch(/^\d{6}$/);
    const [stored] = await world.database.db
      .select()
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.email, 'new.buyer@example.com'));
    expect(stored!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(code);
    expect(stored!.expiresAt.getTime() - world.clock.now.getTime()).toBe(ONE_TIME_CODE_LIFETIME_MS);
  });

  it('refuses an address that is not an e-mail address with the spec’s message', async () => {
    const res = await new Visitor(world.app).call('sendOneTimeCode', { email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Please type a valid email address');
  });

  it('accepts the right code once, refuses a wrong one inline, and answers has_account', async () => {
    const v = new Visitor(world.app);
    const email = world.demo.users.notSubscribed.email;
    await v.call('sendOneTimeCode', { email });
    const code = await codeFromMailbox(v, email);
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await v.call('checkOneTimeCode', { email, code: wrong });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: WRONG_CODE_MESSAGE, type: 'one_time_code', message: WRONG_CODE_MESSAGE });
    expect(await v.json('checkOneTimeCode', { email, code })).toEqual({ has_account: true });
    expect((await v.json('getUser')).user).toMatchObject({ email });
    const again = await v.call('checkOneTimeCode', { email, code });
    expect(again.json()).toMatchObject({ type: 'one_time_code', message: EXPIRED_CODE_MESSAGE });
  });

  it('lives exactly 15 minutes', async () => {
    const db = world.database.db;
    const start = new Date('2026-06-03T10:00:00Z');
    const code = await issueCode(db, { email: 'clock@example.com', ip: '10.0.0.1', now: start, secret: SECRET });
    const justBefore = new Date(start.getTime() + ONE_TIME_CODE_LIFETIME_MS - 1);
    const atExpiry = new Date(start.getTime() + ONE_TIME_CODE_LIFETIME_MS);
    expect(await checkCode(db, { email: 'clock@example.com', code, now: atExpiry, secret: SECRET })).toBe('expired');
    expect(await checkCode(db, { email: 'clock@example.com', code, now: justBefore, secret: SECRET })).toBe('accepted');
  });

  it('is replaced by a resend: the earlier code stops working', async () => {
    const db = world.database.db;
    const now = new Date('2026-06-03T11:00:00Z');
    const first = await issueCode(db, {
      email: 'resend@example.com',
      ip: '10.0.0.2',
      now,
      secret: SECRET,
      code: '123456',
    });
    await issueCode(db, { email: 'resend@example.com', ip: '10.0.0.2', now, secret: SECRET, code: '654321' });
    expect(await checkCode(db, { email: 'resend@example.com', code: first, now, secret: SECRET })).toBe('wrong');
    expect(await checkCode(db, { email: 'resend@example.com', code: '654321', now, secret: SECRET })).toBe('accepted');
  });

  it('takes five wrong tries, then refuses even the right code until a new one is sent', async () => {
    const db = world.database.db;
    const now = new Date('2026-06-03T12:00:00Z');
    await issueCode(db, { email: 'tries@example.com', ip: '10.0.0.3', now, secret: SECRET, code: '222222' });
    for (let i = 0; i < MAX_WRONG_TRIES; i++)
      expect(await checkCode(db, { email: 'tries@example.com', code: '999999', now, secret: SECRET })).toBe('wrong');
    expect(await checkCode(db, { email: 'tries@example.com', code: '222222', now, secret: SECRET })).toBe('locked');
    await issueCode(db, { email: 'tries@example.com', ip: '10.0.0.3', now, secret: SECRET, code: '333333' });
    expect(await checkCode(db, { email: 'tries@example.com', code: '333333', now, secret: SECRET })).toBe('accepted');
  });

  it('counts at most five of 1,000 parallel wrong guesses, and the right code then fails', async () => {
    const db = world.database.db;
    const now = new Date('2026-06-03T13:00:00Z');
    await issueCode(db, { email: 'race@example.com', ip: '10.0.0.4', now, secret: SECRET, code: '424242' });
    const guesses = Array.from({ length: 1000 }, (_, i) => String(100000 + i));
    const results = await Promise.all(
      guesses.map((code) => checkCode(db, { email: 'race@example.com', code, now, secret: SECRET })),
    );
    expect(results.filter((r) => r === 'wrong')).toHaveLength(MAX_WRONG_TRIES);
    expect(results.filter((r) => r === 'accepted')).toHaveLength(0);
    const [row] = await db.select().from(oneTimeCodes).where(eq(oneTimeCodes.email, 'race@example.com'));
    expect(row!.wrongTries).toBe(MAX_WRONG_TRIES);
    expect(await checkCode(db, { email: 'race@example.com', code: '424242', now, secret: SECRET })).toBe('locked');
  }, 180_000);

  it('limits sends per e-mail address and per client address, with a clear message, even in a burst', async () => {
    const perEmail = new Visitor(world.app, {}, '10.1.0.1');
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => perEmail.call('sendOneTimeCode', { email: 'burst@example.com' })),
    );
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(5);
    for (const r of replies.filter((r) => r.statusCode !== 200)) {
      expect(r.statusCode).toBe(429);
      expect(r.json().error).toBe(TOO_MANY_FOR_EMAIL_MESSAGE);
    }
    const perIp = new Visitor(world.app, {}, '10.1.0.2');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await perIp.call('sendOneTimeCode', { email: `someone${i}@example.com` })).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    const last = await perIp.call('sendOneTimeCode', { email: 'someone-else@example.com' });
    expect(last.statusCode).toBe(429);
    expect(last.json().error).toBe(TOO_MANY_FOR_IP_MESSAGE);
  });
});

describe.each(drivers)('who is buying on %s', (driver) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await openWorld(driver);
  }, 180_000);
  afterAll(async () => world?.close());

  async function reservedVisitor(address: string): Promise<Visitor> {
    const v = new Visitor(world.app, {}, address);
    await v.add({ [world.demo.tickets.jazzGeneral]: 1 });
    expect(await v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await v.json('updateBasketState', { state: 'login' });
    return v;
  }

  async function signIn(v: Visitor, email: string) {
    await v.json('sendOneTimeCode', { email });
    return v.call('checkOneTimeCode', { email, code: await codeFromMailbox(v, email) });
  }

  it('saves a new buyer with a full name: the account is made and they are signed in', async () => {
    const v = await reservedVisitor('10.2.0.1');
    const checked = await signIn(v, 'first.timer@example.com');
    expect(checked.json()).toEqual({ has_account: false });
    expect((await v.json('getUser')).user).toBeNull();
    expect(await v.json('saveGuestToSale', { email: 'first.timer@example.com', fullname: 'Ada  de la Cruz' })).toEqual({
      success: true,
    });
    expect((await v.json('getUser')).user).toMatchObject({
      email: 'first.timer@example.com',
      first_name: 'Ada',
      last_name: 'de la Cruz',
    });
    expect((await v.checkout()).marketing_preferences).not.toBeNull();
  });

  it('refuses to save a guest whose address was not proved by a code, and a one-word name', async () => {
    const v = await reservedVisitor('10.2.0.2');
    const unproved = await v.call('saveGuestToSale', { email: 'stranger@example.com', fullname: 'Some Body' });
    expect(unproved.statusCode).toBe(403);
    expect(unproved.json().error).toBe(VERIFY_FIRST_MESSAGE);
    const oneWord = await v.call('saveGuestToSale', { email: 'stranger@example.com', fullname: 'Madonna' });
    expect(oneWord.statusCode).toBe(400);
    expect(oneWord.json().error).toContain('Please type both your first and last name(s)');
    expect(await world.database.db.select().from(users).where(eq(users.email, 'stranger@example.com'))).toEqual([]);
  });

  it('lets the buyer sign in on a second browser and resume the same sale, hold and step', async () => {
    const email = world.demo.users.notSubscribed.email;
    const phone = await reservedVisitor('10.2.0.3');
    expect((await signIn(phone, email)).json()).toEqual({ has_account: true });
    await phone.json('updateBasketState', { state: 'marketing_preferences' });
    const onPhone = await phone.checkout();

    world.clock.advance(30_000);
    const laptop = new Visitor(world.app, {}, '10.2.0.4');
    expect((await laptop.checkout()).tickets).toEqual([]);
    expect((await signIn(laptop, email)).json()).toEqual({ has_account: true });
    const onLaptop = await laptop.checkout();
    expect(onLaptop.sale_reference).toBe(onPhone.sale_reference);
    expect(onLaptop.state).toBe('marketing_preferences');
    expect(onLaptop.tickets.map((t) => [t.ticket_id, t.qty])).toEqual(onPhone.tickets.map((t) => [t.ticket_id, t.qty]));
    expect(onLaptop.seconds_remaining).toBe(onPhone.seconds_remaining - 30);
  });

  it('answers a code check on an expired hold as a reserving error, for the basket', async () => {
    const v = await reservedVisitor('10.2.0.5');
    await v.json('sendOneTimeCode', { email: 'late@example.com' });
    const code = await codeFromMailbox(v, 'late@example.com');
    world.clock.advance(3600_000);
    const res = await v.call('checkOneTimeCode', { email: 'late@example.com', code });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: RESERVATION_EXPIRED_MESSAGE,
      type: 'reserving',
      message: { error: RESERVATION_EXPIRED_MESSAGE },
    });
  });

  it('signs out of the sale: the buyer is forgotten, the basket and hold stay', async () => {
    const v = await reservedVisitor('10.2.0.6');
    await signIn(v, world.demo.users.subscribedDark.email);
    expect((await v.json('getUser')).user).not.toBeNull();
    expect(await v.json('logoutOfSale', {})).toEqual({ success: true });
    expect((await v.json('getUser')).user).toBeNull();
    const checkout = await v.checkout();
    expect(checkout.sale_reference).not.toBeNull();
    expect(checkout.tickets).toHaveLength(1);
  });

  it('keeps each marketing choice with its time and source, and stops asking for this sale', async () => {
    const v = await reservedVisitor('10.2.0.7');
    await signIn(v, 'keen@example.com');
    await v.json('saveGuestToSale', { email: 'keen@example.com', fullname: 'Keen Buyer' });
    const before = await v.checkout();
    const organiser = before.marketing_preferences!.basket_organisers[0]!.id;
    const stranger = await v.call('setMarketingPreferences', {
      ct_subscribed: 'false',
      event_subscribed: 'true',
      organiser_subscribed_marketing: {
        [world.demo.organisers.docklands === organiser
          ? world.demo.organisers.riverside
          : world.demo.organisers.docklands]: 'true',
      },
    } as never);
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().error).toBe(NOT_IN_BASKET_MESSAGE);
    expect(
      await v.json('setMarketingPreferences', {
        ct_subscribed: 'true',
        event_subscribed: 'false',
        organiser_subscribed_marketing: { [organiser]: 'true' },
      } as never),
    ).toEqual({ success: true });
    const consents = await world.database.db
      .select()
      .from(marketingConsents)
      .where(eq(marketingConsents.email, 'keen@example.com'));
    expect(consents.map((c) => [c.topic, c.organiserId, c.subscribed, c.source]).sort()).toEqual(
      [
        ['community', null, true, CONSENT_SOURCE],
        ['events', null, false, CONSENT_SOURCE],
        ['organiser', organiser, true, CONSENT_SOURCE],
      ].sort(),
    );
    expect(consents.every((c) => c.at.getTime() === world.clock.now.getTime())).toBe(true);
    expect((await v.checkout()).marketing_preferences).toBeNull();
    expect((await v.json('getUser')).user).toMatchObject({ subscribed: true, is_event_subscribed: false });

    // The next basket with that organiser shows the buyer's yes, and a later no as a no.
    const next = await reservedVisitor('10.2.0.8');
    await signIn(next, 'keen@example.com');
    const shown = (await next.checkout()).marketing_preferences!.basket_organisers.find((o) => o.id === organiser);
    expect(shown?.organiser_subscribed).toBe(true);
    await next.json('setMarketingPreferences', {
      ct_subscribed: 'true',
      event_subscribed: 'false',
      organiser_subscribed_marketing: { [organiser]: 'false' },
    } as never);
    const third = await reservedVisitor('10.2.0.9');
    await signIn(third, 'keen@example.com');
    expect(
      (await third.checkout()).marketing_preferences!.basket_organisers.find((o) => o.id === organiser)
        ?.organiser_subscribed,
    ).toBe(false);
  });
});

describe('mail', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  }, 180_000);
  afterAll(async () => database?.close());

  it('builds the message nodemailer sends from the configured sender', async () => {
    const transport = nodemailer.createTransport({ jsonTransport: true });
    const info = (await transport.sendMail(
      buildMessage({ from: 'tickets@holdfast.example' }, 'Holdfast', {
        to: 'buyer@example.com',
        subject: '123456 is your Holdfast code',
        text: 'Your code is 123456',
      }),
    )) as { message: string };
    const sent = JSON.parse(info.message) as {
      from: { address: string; name: string };
      to: { address: string }[];
      subject: string;
      text: string;
    };
    expect(sent.from).toEqual({ address: 'tickets@holdfast.example', name: 'Holdfast' });
    expect(sent.to).toEqual([{ address: 'buyer@example.com', name: '' }]);
    expect(sent.subject).toBe('123456 is your Holdfast code');
    expect(sent.text).toBe('Your code is 123456');
  });

  it('delivers through SMTP when configured and then forgets the body; keeps it in the outbox otherwise', async () => {
    const delivered: string[] = [];
    const stream = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const transport = {
      sendMail: async (message: SendMailOptions) => {
        const info = (await stream.sendMail(message)) as { message: Buffer };
        delivered.push(info.message.toString());
      },
    };
    const now = new Date('2026-06-01T12:00:00Z');
    const sent = await sendMail(
      database.db,
      { transport, from: 'tickets@holdfast.example' },
      'Holdfast',
      { to: 'a@example.com', subject: 'Hi', text: 'code 111111' },
      now,
    );
    expect(delivered[0]).toContain('code 111111');
    expect(delivered[0]).toContain('From: Holdfast <tickets@holdfast.example>');
    expect(sent).toMatchObject({ sentAt: now, body: '' });
    const kept = await sendMail(
      database.db,
      { transport: null, from: 'tickets@holdfast.example' },
      'Holdfast',
      { to: 'b@example.com', subject: 'Hi', text: 'code 222222' },
      now,
    );
    expect(kept).toMatchObject({ sentAt: null, body: 'code 222222' });
    const [{ n }] = (await rows<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM ${outbox}`)) as [
      { n: number },
    ];
    expect(Number(n)).toBe(2);
  });

  it('has no mailbox page outside demo mode', async () => {
    await sendMail(
      database.db,
      { transport: null, from: 'tickets@holdfast.example' },
      'Holdfast',
      { to: 'c@example.com', subject: 'Your code 333333', text: 'code 333333' },
      new Date(),
    );
    const { app } = await appOn(database, { demo: false });
    const res = await app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(res.body).not.toContain('333333');
    expect(res.body).not.toContain('<h1>Mailbox</h1>');
    await app.close();
    const dev = await appOn(database, { demo: true });
    expect((await dev.app.inject({ method: 'GET', url: '/dev/mailbox' })).body).toContain('Your code 333333');
    await dev.app.close();
  });
});
