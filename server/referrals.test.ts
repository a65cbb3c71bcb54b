/**
 * Referral rewards on each driver: a friend who opens a buyer's share link and books records the
 * referrer; once the friend's tickets are delivered the referrer is e-mailed the reward the event
 * states, once: for 'get 10% off your next ticket' a single-use code, 10 % off the organiser's
 * events, redeemed at checkout once and never again; for a reward given in person, a reference.
 * A forged code, a buyer's own link and a sale without a referrer reward no one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { discountCodes, outbox, referralRewards, sales } from './db/schema.ts';
import { completeSale } from './domain/completeSale.ts';
import { referralCode } from './domain/afterSale.ts';
import { drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';

const SECRET = 'referral-test-secret-0123456789abcdef';

describe.each(drivers)('referral rewards on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { sessionSecret: SECRET, publicUrl: 'https://tickets.example.com' });
  }, 180_000);
  afterAll(async () => w?.close());

  const rewardMails = (email: string) =>
    w.database.db.select().from(outbox).where(and(eq(outbox.recipient, email), like(outbox.subject, 'A friend booked %'))).orderBy(outbox.id);

  async function signedIn(userId: number): Promise<Visitor> {
    const v = new Visitor(w.app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    return v;
  }

  /** Adds, reserves, pays (as a processor's settlement does) and delivers; the sale's id. */
  async function buyAndDeliver(v: Visitor, ticket: number, code?: string): Promise<string> {
    expect((await v.add({ [ticket]: 1 })).statusCode).toBe(200);
    if (code) expect(await v.json('setCode', { code })).toEqual({ code_applied: true });
    expect(await v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    expect((await w.database.db.transaction((tx) => completeSale(tx, sale!.id, w.clock.now))).booked).toBe(true);
    expect(await v.json('deliverToBitticket')).toEqual({ delivery_completed: true });
    expect(await v.json('deliverToWallet')).toEqual({ delivery_completed: true });
    return sale!.id;
  }

  it('gives the referrer a single-use 10 % code once their friend’s booking is delivered, and that code takes 10 % off once', async () => {
    const amelia = w.demo.users.subscribedDark;
    const tom = w.demo.users.notSubscribed;
    const friend = await signedIn(tom.id);
    const opened = await friend.request({ method: 'GET', url: `/event/${w.demo.events.jazz}/?ref=${encodeURIComponent(referralCode(SECRET, amelia.id))}`, headers: { accept: 'text/html' } });
    expect(opened.statusCode).toBe(200);
    const before = (await rewardMails(amelia.email)).length;
    const saleId = await buyAndDeliver(friend, w.demo.tickets.jazzGeneral);
    const [recorded] = await w.database.db.select({ referrer: sales.referrerUserId }).from(sales).where(eq(sales.id, saleId));
    expect(recorded!.referrer).toBe(amelia.id);

    const mails = (await rewardMails(amelia.email)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('A friend booked Summer Jazz on the Quay: here is your reward');
    expect(mails[0]!.body).toContain('you get 10% off your next Riverside Arts ticket.');
    const code = /Your code (THANKS-[A-Z2-9]{8}) takes 10% off your next Riverside Arts Collective ticket\./.exec(mails[0]!.body)?.[1];
    expect(code).toBeDefined();
    const [stored] = await w.database.db.select().from(discountCodes).where(eq(discountCodes.code, code!));
    expect(stored).toMatchObject({ kind: 'percent', amount: 1000, organiserId: w.demo.organisers.riverside, eventId: null, usageLimit: 1, used: 0 });

    // Delivering again (a retry) rewards nothing more.
    expect(await friend.json('deliverToWallet')).toEqual({ delivery_completed: true });
    expect((await rewardMails(amelia.email)).slice(before)).toHaveLength(1);
    expect(await w.database.db.select().from(referralRewards).where(eq(referralRewards.saleId, saleId))).toHaveLength(1);

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
    const [ameliaSale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, (await referrer.checkout()).sale_reference!));
    expect((await w.database.db.transaction((tx) => completeSale(tx, ameliaSale!.id, w.clock.now))).booked).toBe(true);
    expect((await w.database.db.select({ used: discountCodes.used }).from(discountCodes).where(eq(discountCodes.code, code!)))[0]!.used).toBe(1);

    // Once used, it takes nothing off anyone's basket again.
    const again = await signedIn(tom.id);
    expect((await again.add({ [w.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    const refused = await again.call('setCode', { code: code! });
    expect(refused.json()).not.toEqual({ code_applied: true });
    expect((await again.checkout()).discounts_applied).toEqual({});
  });

  it('e-mails a reference for a reward given in person, and no discount code', async () => {
    const amelia = w.demo.users.subscribedDark;
    const tom = w.demo.users.notSubscribed;
    const friend = await signedIn(tom.id);
    await friend.request({ method: 'GET', url: `/event/${w.demo.events.openDay}/?ref=${encodeURIComponent(referralCode(SECRET, amelia.id))}` });
    const before = (await rewardMails(amelia.email)).length;
    const saleId = await buyAndDeliver(friend, w.demo.tickets.freeEntry);
    const mails = (await rewardMails(amelia.email)).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain('you get a free cream tea in the walled garden café.');
    expect(mails[0]!.body).toMatch(/Your reward reference is REWARD-[A-Z2-9]{8}\. Show this e-mail to Ashcombe/);
    const [reward] = await w.database.db.select().from(referralRewards).where(eq(referralRewards.saleId, saleId));
    expect(reward).toMatchObject({ referrerUserId: amelia.id, discountCodeId: null });
    expect(reward!.sentAt).not.toBeNull();
  });

  it('rewards no one for a forged code, a buyer’s own link, or a sale opened without a link', async () => {
    const amelia = w.demo.users.subscribedDark;
    const tom = w.demo.users.notSubscribed;
    const forged = `${amelia.id.toString(36)}-AAAAAAAAAAAA`;
    const before = (await rewardMails(amelia.email)).length;

    const stranger = await signedIn(tom.id);
    const page = await stranger.request({ method: 'GET', url: `/event/${w.demo.events.jazz}/?ref=${forged}` });
    expect(page.statusCode).toBe(200);
    expect((page.cookies as { name: string }[]).map((c) => c.name)).not.toContain('hf_ref');
    const strangerSale = await buyAndDeliver(stranger, w.demo.tickets.jazzGeneral);

    const self = await signedIn(amelia.id);
    await self.request({ method: 'GET', url: `/event/${w.demo.events.jazz}/?ref=${encodeURIComponent(referralCode(SECRET, amelia.id))}` });
    const selfSale = await buyAndDeliver(self, w.demo.tickets.jazzGeneral);

    for (const id of [strangerSale, selfSale]) {
      const [row] = await w.database.db.select({ referrer: sales.referrerUserId }).from(sales).where(eq(sales.id, id));
      expect(row!.referrer).toBeNull();
    }
    expect((await rewardMails(amelia.email)).slice(before)).toEqual([]);
  });
});
