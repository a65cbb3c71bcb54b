/**
 * Referral rewards on each driver, over HTTP: a friend who opens a buyer's share link and pays
 * records the referrer; once the friend's tickets are delivered the referrer is e-mailed the reward
 * the event states, once per friend: for 'get 10% off your next ticket' a single-use code, 10 % off
 * the organiser's events, redeemed at checkout once and never again; for a reward given in person,
 * a reference. A forged, expired or foreign code, a buyer's own link, a sale without a referrer,
 * free tickets, a buyer whose address was never proven and a friend's second purchase reward no one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { desc } from 'drizzle-orm';
import {
  discountCodes,
  events,
  organiserPaymentSettings,
  outbox,
  referralRewards,
  sales,
  users,
} from '../db/schema.ts';
import { REFERRER_COOKIE } from '../http/session.ts';
import { completeSale } from './completeSale.ts';
import { referralCode, REFERRAL_LINK_DAYS } from './afterSale.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { SANDBOX_CARDS } from '../../contract/index.ts';

const SECRET = 'referral-test-secret-0123456789abcdef';

describe.each(drivers)('referral rewards on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { sessionSecret: SECRET, publicUrl: 'https://tickets.example.com' });
    // Ashcombe (the free Open Day) and Riverside (Summer Jazz) sell by express checkout too.
    await w.database.db
      .insert(organiserPaymentSettings)
      .values([
        { organiserId: w.demo.organisers.riverside, expressCheckout: true },
        { organiserId: w.demo.organisers.ashcombe, expressCheckout: true },
      ])
      .onConflictDoNothing();
  }, 180_000);

  const shareCode = (userId: number) => referralCode(SECRET, userId, w.clock.now);

  /** The code in the newest e-mail to this address, as its holder reads it. */
  async function codeSentTo(email: string): Promise<string> {
    const [mail] = await w.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.recipient, email))
      .orderBy(desc(outbox.id))
      .limit(1);
    const match = /Your one-time sign in or registration code is (\d{6})/.exec(mail?.body ?? '');
    if (!match) throw new Error(`no code sent to ${email}`);
    return match[1]!;
  }

  /** A visitor who proves a new address with its one-time code on the sign-in page and gives their name: a verified account. */
  async function registered(email: string, fullname: string): Promise<Visitor> {
    const v = new Visitor(w.app);
    expect(
      (await v.request({ method: 'POST', url: '/signin/', body: new URLSearchParams({ email }).toString() }))
        .statusCode,
    ).toBe(200);
    const named = await v.request({
      method: 'POST',
      url: '/signin/code/',
      body: new URLSearchParams({ email, code: await codeSentTo(email) }).toString(),
    });
    expect(named.statusCode).toBe(200);
    expect(
      (
        await v.request({
          method: 'POST',
          url: '/signin/name/',
          body: new URLSearchParams({ email, fullname }).toString(),
        })
      ).statusCode,
    ).toBe(303);
    return v;
  }

  /** Pays the reserved basket by the sandbox card, as the payment step does. */
  async function payByCard(v: Visitor) {
    const token = await v.json('getStripeToken');
    const res = await v.request({
      method: 'POST',
      url: '/sandbox/card/',
      body: new URLSearchParams({
        secret: String(token.client_secret),
        number: SANDBOX_CARDS.success,
        expiry: '12/34',
        cvc: '123',
      }).toString(),
    });
    expect(res.statusCode).toBe(303);
    expect((await v.checkout()).payment_complete).toBe(true);
  }

  /** Adds, reserves, pays by card (or claims, when free) and takes delivery; the sale's id. */
  async function buyThrough(
    v: Visitor,
    ticket: number,
    opts: { express?: { fullname: string; email: string } } = {},
  ): Promise<string> {
    expect((await v.add({ [ticket]: 1 })).statusCode).toBe(200);
    expect(await v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const checkout = await v.checkout();
    if (opts.express)
      expect((await v.call('setAccountDetails', { ...opts.express, ct_subscribed: 'false' } as never)).statusCode).toBe(
        200,
      );
    if (checkout.basket_total === 0) expect(await v.json('claimFreeTickets')).toEqual({ success: true });
    else await payByCard(v);
    await v.call('deliverToBitticket');
    await v.call('deliverToWallet');
    const [sale] = await w.database.db
      .select({ id: sales.id })
      .from(sales)
      .where(eq(sales.reference, checkout.sale_reference!));
    return sale!.id;
  }

  const openLink = (v: Visitor, eventId: number, code: string) =>
    v.request({
      method: 'GET',
      url: `/event/${eventId}/?ref=${encodeURIComponent(code)}`,
      headers: { accept: 'text/html' },
    });
  afterAll(async () => w?.close());

  const rewardMails = (email: string) =>
    w.database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, email), like(outbox.subject, 'A friend booked %')))
      .orderBy(outbox.id);

  async function signedIn(userId: number): Promise<Visitor> {
    const v = new Visitor(w.app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    return v;
  }

  it('gives the referrer a single-use 10 % code once their friend’s paid booking is delivered, and that code takes 10 % off once', async () => {
    const amelia = w.demo.users.subscribedDark;
    const tom = w.demo.users.notSubscribed;
    const friend = await signedIn(tom.id);
    expect((await openLink(friend, w.demo.events.jazz, shareCode(amelia.id))).statusCode).toBe(200);
    const before = (await rewardMails(amelia.email)).length;
    const saleId = await buyThrough(friend, w.demo.tickets.jazzGeneral);
    const [recorded] = await w.database.db
      .select({ referrer: sales.referrerUserId })
      .from(sales)
      .where(eq(sales.id, saleId));
    expect(recorded!.referrer).toBe(amelia.id);

    const mails = (await rewardMails(amelia.email)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('A friend booked Summer Jazz on the Quay: here is your reward');
    expect(mails[0]!.body).toContain('you get 10% off your next Riverside Arts ticket.');
    const code = /Your code (THANKS-[A-Z2-9]{8}) takes 10% off your next Riverside Arts Collective ticket\./.exec(
      mails[0]!.body,
    )?.[1];
    expect(code).toBeDefined();
    const [stored] = await w.database.db.select().from(discountCodes).where(eq(discountCodes.code, code!));
    expect(stored).toMatchObject({
      kind: 'percent',
      amount: 1000,
      organiserId: w.demo.organisers.riverside,
      eventId: null,
      usageLimit: 1,
      used: 0,
    });

    // Delivering again (a retry) rewards nothing more.
    expect(await friend.json('deliverToWallet')).toEqual({ delivery_completed: true });
    expect((await rewardMails(amelia.email)).slice(before)).toHaveLength(1);
    expect(await w.database.db.select().from(referralRewards).where(eq(referralRewards.saleId, saleId))).toHaveLength(
      1,
    );

    // Amelia redeems it on her next Riverside Arts ticket: 10 % of the ticket off, and what is booked is what is paid.
    const referrer = await signedIn(amelia.id);
    expect((await referrer.add({ [w.demo.tickets.jazzGeneral]: 2 })).statusCode).toBe(200);
    const full = await referrer.checkout();
    expect(await referrer.json('setCode', { code: code!.toLowerCase() })).toEqual({ code_applied: true });
    const discounted = await referrer.checkout();
    const ticketsValue = full.tickets.reduce((sum, t) => sum + t.price * t.qty, 0);
    expect(discounted.discounts_applied[code!]).toBe(Math.round(ticketsValue / 10));
    expect(discounted.basket_total).toBe(full.basket_total - Math.round(ticketsValue / 10));
    expect(await referrer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const [ameliaSale] = await w.database.db
      .select({ id: sales.id })
      .from(sales)
      .where(eq(sales.reference, (await referrer.checkout()).sale_reference!));
    expect((await w.database.db.transaction((tx) => completeSale(tx, ameliaSale!.id, w.clock.now))).booked).toBe(true);
    expect(
      (
        await w.database.db
          .select({ used: discountCodes.used })
          .from(discountCodes)
          .where(eq(discountCodes.code, code!))
      )[0]!.used,
    ).toBe(1);

    // Once used, it takes nothing off anyone's basket again.
    const again = await signedIn(tom.id);
    expect((await again.add({ [w.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    const refused = await again.call('setCode', { code: code! });
    expect(refused.json()).not.toEqual({ code_applied: true });
    expect((await again.checkout()).discounts_applied).toEqual({});
  });

  it('e-mails a reference for a reward given in person, and no discount code', async () => {
    const amelia = w.demo.users.subscribedDark;
    await w.database.db
      .update(events)
      .set({
        rewardText: 'Run with friends: for every friend who enters with your link, you get a free finisher’s mug.',
        rewardShortText: 'get a free mug',
        rewardDiscount: null,
      })
      .where(eq(events.id, w.demo.events.trail));
    const friend = await registered('mug.friend@example.com', 'Mo Runner');
    await openLink(friend, w.demo.events.trail, shareCode(amelia.id));
    const before = (await rewardMails(amelia.email)).length;
    const saleId = await buyThrough(friend, w.demo.tickets.trail10k);
    const mails = (await rewardMails(amelia.email)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain('you get a free finisher’s mug.');
    expect(mails[0]!.body).toMatch(/Your reward reference is REWARD-[A-Z2-9]{8}\. Show this e-mail to /);
    const [reward] = await w.database.db.select().from(referralRewards).where(eq(referralRewards.saleId, saleId));
    expect(reward).toMatchObject({
      referrerUserId: amelia.id,
      discountCodeId: null,
      referredEmail: 'mug.friend@example.com',
    });
    expect(reward!.sentAt).not.toBeNull();
  });

  it('rewards nothing for free tickets or for addresses never proven, however many are booked through one’s own link', async () => {
    const amelia = w.demo.users.subscribedDark;
    const before = (await rewardMails(amelia.email)).length;
    const link = shareCode(amelia.id);
    // Three fresh browsers through Amelia's own link, each an express buyer with an address no one proved.
    for (const n of [1, 2, 3]) {
      const v = new Visitor(w.app);
      await openLink(v, w.demo.events.openDay, link);
      await buyThrough(v, w.demo.tickets.freeEntry, {
        express: { fullname: 'Amelia Extra', email: `amelia+free${n}@example.com` },
      });
    }
    // And one paying express buyer whose address was never proven.
    const payer = new Visitor(w.app);
    await openLink(payer, w.demo.events.jazz, link);
    const paidSale = await buyThrough(payer, w.demo.tickets.jazzGeneral, {
      express: { fullname: 'Amelia Extra', email: 'amelia+paid@example.com' },
    });
    expect(
      (await w.database.db.select({ paidAt: sales.paidAt }).from(sales).where(eq(sales.id, paidSale)))[0]!.paidAt,
    ).not.toBeNull();
    // A proven friend who books only free tickets earns nothing either.
    const freeFriend = await registered('free.friend@example.com', 'Fay Free');
    await openLink(freeFriend, w.demo.events.openDay, link);
    await buyThrough(freeFriend, w.demo.tickets.freeEntry);

    expect((await rewardMails(amelia.email)).slice(before)).toEqual([]);
    expect(await w.database.db.select().from(referralRewards).where(eq(referralRewards.saleId, paidSale))).toEqual([]);
  });

  it('an express friend who pays through the link earns the reward only once they prove their address', async () => {
    const amelia = w.demo.users.subscribedDark;
    const email = 'express.friend@example.com';
    const friend = new Visitor(w.app);
    await openLink(friend, w.demo.events.jazz, shareCode(amelia.id));
    const before = (await rewardMails(amelia.email)).length;
    const saleId = await buyThrough(friend, w.demo.tickets.jazzGeneral, {
      express: { fullname: 'Ezra Express', email },
    });
    expect((await rewardMails(amelia.email)).slice(before), 'nothing for an address no one proved').toEqual([]);

    // The friend proves the address with its code, in the browser that bought: now a proven buyer who paid.
    expect((await friend.call('sendOneTimeCode', { email })).statusCode).toBe(200);
    expect(await friend.json('checkOneTimeCode', { email, code: await codeSentTo(email) })).toEqual({
      has_account: true,
    });
    expect((await rewardMails(amelia.email)).slice(before)).toHaveLength(1);
    expect(await w.database.db.select().from(referralRewards).where(eq(referralRewards.saleId, saleId))).toMatchObject([
      { referrerUserId: amelia.id, referredEmail: email },
    ]);
  });

  it('a friend whose account never proved its address (one from before proof was kept) earns nothing until they sign in with its code', async () => {
    const amelia = w.demo.users.subscribedDark;
    const email = 'old.account@example.com';
    const [old] = await w.database.db
      .insert(users)
      .values({ email, firstName: 'Olga', lastName: 'Older', viewType: 'customer' })
      .returning();
    const friend = await signedIn(old!.id);
    const before = (await rewardMails(amelia.email)).length;
    await openLink(friend, w.demo.events.jazz, shareCode(amelia.id));
    await buyThrough(friend, w.demo.tickets.jazzGeneral);
    expect((await rewardMails(amelia.email)).slice(before)).toEqual([]);

    expect((await friend.call('sendOneTimeCode', { email })).statusCode).toBe(200);
    expect(await friend.json('checkOneTimeCode', { email, code: await codeSentTo(email) })).toEqual({
      has_account: true,
    });
    await openLink(friend, w.demo.events.jazz, shareCode(amelia.id));
    await buyThrough(friend, w.demo.tickets.jazzGeneral);
    expect((await rewardMails(amelia.email)).slice(before)).toHaveLength(1);
  });

  it('rewards a friend once, however many times they pay through the link', async () => {
    const amelia = w.demo.users.subscribedDark;
    const friend = await registered('twice.friend@example.com', 'Tess Twice');
    const before = (await rewardMails(amelia.email)).length;
    for (let i = 0; i < 3; i++) {
      await openLink(friend, w.demo.events.jazz, shareCode(amelia.id));
      await buyThrough(friend, w.demo.tickets.jazzGeneral);
    }
    expect((await rewardMails(amelia.email)).slice(before)).toHaveLength(1);
    expect(
      await w.database.db
        .select()
        .from(referralRewards)
        .where(
          and(
            eq(referralRewards.referrerUserId, amelia.id),
            eq(referralRewards.referredEmail, 'twice.friend@example.com'),
          ),
        ),
    ).toHaveLength(1);
  });

  it('rewards no one for a forged, expired or another buyer’s code, a buyer’s own link, or a sale opened without a link', async () => {
    const amelia = w.demo.users.subscribedDark;
    const tom = w.demo.users.notSubscribed;
    const genuine = shareCode(amelia.id);
    const forged = genuine.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const expired = referralCode(
      SECRET,
      amelia.id,
      new Date(w.clock.now.getTime() - (REFERRAL_LINK_DAYS + 1) * 86_400_000),
    );
    const otherSubject = genuine.replace(/^[0-9a-z]+-/, `${tom.id.toString(36)}-`);
    const otherSecret = referralCode('another-secret-0123456789abcdef0123', amelia.id, w.clock.now);
    const before = (await rewardMails(amelia.email)).length;

    for (const code of [forged, expired, otherSubject, otherSecret, `${amelia.id}`, '']) {
      const v = new Visitor(w.app);
      const page = await openLink(v, w.demo.events.jazz, code);
      expect(page.statusCode).toBe(200);
      expect(
        (page.cookies as { name: string }[]).map((c) => c.name),
        code,
      ).not.toContain(REFERRER_COOKIE);
    }
    const stranger = await registered('stranger.friend@example.com', 'Sam Stranger');
    await openLink(stranger, w.demo.events.jazz, forged);
    const strangerSale = await buyThrough(stranger, w.demo.tickets.jazzGeneral);

    const self = await signedIn(amelia.id);
    await openLink(self, w.demo.events.jazz, genuine);
    const selfSale = await buyThrough(self, w.demo.tickets.jazzGeneral);

    for (const id of [strangerSale, selfSale]) {
      const [row] = await w.database.db.select({ referrer: sales.referrerUserId }).from(sales).where(eq(sales.id, id));
      expect(row!.referrer).toBeNull();
    }
    expect((await rewardMails(amelia.email)).slice(before)).toEqual([]);
  });

  it('gives the share link on the site’s own address, whatever Host the request names', async () => {
    const buyer = await registered('host.friend@example.com', 'Hal Host');
    await buyThrough(buyer, w.demo.tickets.jazzGeneral);
    const res = await buyer.call('getRewardReferrerLink', undefined, { host: 'evil.example' });
    expect(res.statusCode).toBe(200);
    const link = new URL(res.json() as string);
    expect(link.origin).toBe('https://tickets.example.com');
    expect(link.pathname).toBe(`/event/${w.demo.events.jazz}/`);
    const [user] = await w.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'host.friend@example.com'));
    expect(link.searchParams.get('ref')).toBe(shareCode(user!.id));
  });
});
