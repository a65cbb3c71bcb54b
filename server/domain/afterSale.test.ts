/**
 * After the sale (spec 001 §2 "Order completed", §7): feedback reaches the organiser by e-mail,
 * subscribing sets the buyer's flag (so the checkout's user says so and the link goes), the
 * referral link is the sale's event page with the buyer's own code, and the accommodation map is
 * what the site configures. Bad or premature requests get a clear 4xx and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { marketingConsents, outbox, sales, users } from '../db/schema.ts';
import { completeSale } from './completeSale.ts';
import {
  FEEDBACK_PER_ORDER,
  isReferralCode,
  NO_ORDER_MESSAGE,
  NOT_PAID_YET_MESSAGE,
  SIGN_IN_MESSAGE,
  TOO_MUCH_FEEDBACK_MESSAGE,
} from './afterSale.ts';
import { feedbackSubject } from '../mail/index.ts';
import { DEV_SESSION_SECRET, parseConfig } from '../config.ts';
import { cspDirectives } from '../plugins/security.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

describe.each(drivers)('after the sale on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  /** A new buyer's account, signed in, with the given tickets reserved (and paid unless told). */
  async function buyer(lines: Record<number, number>, opts: { paid?: boolean; signedIn?: boolean } = {}) {
    const email = `after-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const [user] = await w.database.db
      .insert(users)
      .values({ email, firstName: 'Grace', lastName: 'Hopper' })
      .returning();
    const v = new Visitor(w.app);
    if (opts.signedIn !== false)
      expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${user!.id}` })).statusCode).toBe(303);
    expect((await v.add(lines)).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    if (opts.paid !== false) {
      const result = await w.database.db.transaction((tx) => completeSale(tx, sale!.id, w.clock.now));
      expect(result.booked).toBe(true);
    }
    return { v, user: user!, reference, saleId: sale!.id };
  }

  const mailTo = (email: string) =>
    w.database.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(outbox.id);
  const feedbackTo = async (email: string, reference: string) =>
    (await mailTo(email)).filter((m) => m.subject === feedbackSubject(reference));

  describe('send_customer_feedback', () => {
    it('e-mails the buyer’s message to the organiser, with who sent it and about which order', async () => {
      const { v, reference } = await buyer({ [w.demo.tickets.freeEntry]: 2 });
      const res = await v.call('sendCustomerFeedback', {
        message: 'Lovely gardens.\nMore signposts to the café, please!',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      const mail = await feedbackTo('visits@ashcombe-estate.example', reference);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.body).toContain('Lovely gardens.\nMore signposts to the café, please!');
      expect(mail[0]!.body).toContain('Grace Hopper <after-');
      expect(mail[0]!.body).toContain('Community Open Day (Ashcombe Estate)');
    });

    it('goes to the site’s feedback address when the organiser keeps no contact address', async () => {
      const { v, reference } = await buyer({ [w.demo.tickets.cinema]: 1 });
      expect((await v.call('sendCustomerFeedback', { message: 'Great film' })).statusCode).toBe(200);
      expect(await feedbackTo('feedback@holdfast.localhost', reference)).toHaveLength(1);
    });

    it('refuses an empty, blank, too long or control-character message with 400, sending nothing', async () => {
      const { v, reference } = await buyer({ [w.demo.tickets.freeEntry]: 1 });
      for (const message of ['', '   \n ', 'x'.repeat(2001), 'bell\u0007']) {
        const res = await v.call('sendCustomerFeedback', { message });
        expect(res.statusCode, JSON.stringify(message)).toBe(400);
        expect(res.json().error).toMatch(/^Invalid message: /);
      }
      const missing = await v.request({
        method: 'POST',
        url: '/ajax/checkout/checkout/send_customer_feedback/',
        body: '',
      });
      expect(missing.statusCode).toBe(400);
      expect(await feedbackTo('visits@ashcombe-estate.example', reference)).toEqual([]);
    });

    it('refuses feedback without an order (404) or before it is paid (409)', async () => {
      const none = await new Visitor(w.app).call('sendCustomerFeedback', { message: 'Hello' });
      expect(none.statusCode).toBe(404);
      expect(none.json()).toEqual({ error: NO_ORDER_MESSAGE });
      const { v, reference } = await buyer({ [w.demo.tickets.freeEntry]: 1 }, { paid: false });
      const unpaid = await v.call('sendCustomerFeedback', { message: 'Hello' });
      expect(unpaid.statusCode).toBe(409);
      expect(unpaid.json()).toEqual({ error: NOT_PAID_YET_MESSAGE });
      expect(await feedbackTo('visits@ashcombe-estate.example', reference)).toEqual([]);
    });

    it(`takes at most ${FEEDBACK_PER_ORDER} messages per order`, async () => {
      const { v, reference } = await buyer({ [w.demo.tickets.freeEntry]: 1 });
      for (let i = 0; i < FEEDBACK_PER_ORDER; i++)
        expect((await v.call('sendCustomerFeedback', { message: `Note ${i}` })).statusCode).toBe(200);
      const refused = await v.call('sendCustomerFeedback', { message: 'One more' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ error: TOO_MUCH_FEEDBACK_MESSAGE });
      expect(await feedbackTo('visits@ashcombe-estate.example', reference)).toHaveLength(FEEDBACK_PER_ORDER);
    });
  });

  describe('subscribe_to_events', () => {
    it('subscribes the signed-in buyer once, records the consent, and the user then says so', async () => {
      const { v, user, saleId } = await buyer({ [w.demo.tickets.freeEntry]: 1 });
      expect(((await v.json('getUser')).user as { is_event_subscribed: boolean }).is_event_subscribed).toBe(false);
      for (let i = 0; i < 2; i++) expect(await v.json('subscribeToEvents')).toEqual({ success: true });
      expect(((await v.json('getUser')).user as { is_event_subscribed: boolean }).is_event_subscribed).toBe(true);
      const consents = await w.database.db
        .select()
        .from(marketingConsents)
        .where(and(eq(marketingConsents.userId, user.id), eq(marketingConsents.topic, 'events')));
      expect(consents).toHaveLength(1);
      expect(consents[0]).toMatchObject({ subscribed: true, saleId, source: 'checkout:order_completed' });
    });

    it('refuses a visitor who is not signed in with 403', async () => {
      const res = await new Visitor(w.app).call('subscribeToEvents');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: SIGN_IN_MESSAGE });
    });
  });

  describe('get_reward_referrer_link', () => {
    it('answers the sale’s event page with the buyer’s own referral code, as a JSON string', async () => {
      const a = await buyer({ [w.demo.tickets.freeEntry]: 1 });
      const res = await a.v.call('getRewardReferrerLink');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const link = res.json() as string;
      const url = new URL(link);
      expect(url.pathname).toBe(`/event/${w.demo.events.openDay}/`);
      const code = url.searchParams.get('ref')!;
      expect(isReferralCode(DEV_SESSION_SECRET, code, w.clock.now)).toBe(true);
      expect(
        isReferralCode(
          DEV_SESSION_SECRET,
          code.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
          w.clock.now,
        ),
      ).toBe(false);
      // The same buyer always shares the same code; another buyer has their own.
      expect(await a.v.call('getRewardReferrerLink').then((r) => r.json())).toBe(link);
      const b = await buyer({ [w.demo.tickets.freeEntry]: 1 });
      expect(new URL((await b.v.call('getRewardReferrerLink')).json() as string).searchParams.get('ref')).not.toBe(
        code,
      );
    });

    it('has no link without a paid order (404, 409) or without a buyer (404)', async () => {
      expect((await new Visitor(w.app).call('getRewardReferrerLink')).statusCode).toBe(404);
      const unpaid = await buyer({ [w.demo.tickets.freeEntry]: 1 }, { paid: false });
      expect((await unpaid.v.call('getRewardReferrerLink')).statusCode).toBe(409);
      const guest = await buyer({ [w.demo.tickets.cinema]: 1 }, { signedIn: false });
      expect((await guest.v.call('getRewardReferrerLink')).statusCode).toBe(404);
    });
  });

  describe('the checkout’s events', () => {
    it('carry the venue, the livestream and the referral reward a buyer’s after-sale tiles need', async () => {
      const { v } = await buyer({ [w.demo.tickets.freeEntry]: 1, [w.demo.tickets.jazzGeneral]: 1 }, { paid: false });
      const events = (await v.checkout()).events;
      const openDay = events.find((e) => e.title === 'Community Open Day')!;
      // Seeded 25 days after 2026-06-01 at 10:00 UTC: the map's check-in is that day.
      expect(openDay.venue).toEqual({
        full_address: 'Ashcombe Estate, Ashcombe, Cirencester GL7 5HX',
        map_address: 'Ashcombe, Cirencester GL7 5HX',
        map_checkin: '2026-06-26',
      });
      expect(openDay).toMatchObject({ has_livestream: true, access_online: expect.stringMatching(/^https:\/\//) });
      expect(openDay.reward_referrers?.short_text).toBe('get a free cream tea');
      const jazz = events.find((e) => e.title === 'Summer Jazz on the Quay')!;
      expect(jazz).toMatchObject({ has_livestream: false, access_online: null });
      expect(jazz.reward_referrers?.short_text).toBe('get 10% off your next ticket');
    });
  });

  describe('the organiser’s messages after the sale', () => {
    it('come with a paid order whose event has one: organiser, event, its date and time, and the message', async () => {
      const { v } = await buyer({ [w.demo.questions.improvSeat]: 1, [w.demo.tickets.freeEntry]: 1 });
      const checkout = await v.checkout();
      // Seeded 21 days after 2026-06-01 at 20:00 UTC, 9 pm in London's summer; the Open Day has no message.
      expect(checkout.after_sale_messages).toEqual([
        {
          organiser_name: 'The Lantern Comedy Club',
          event_title: 'The Lantern: Improv Jam',
          date: 'Mon, 22 Jun 2026',
          time: '9:00 pm',
          message: expect.stringMatching(/^Doors open at 7:30 pm/),
        },
      ]);
      expect(checkout.events.find((e) => e.title === 'The Lantern: Improv Jam')).toMatchObject({
        has_livestream: true,
        reward_referrers: null,
      });
    });

    it('wait until the order is paid', async () => {
      const { v } = await buyer({ [w.demo.questions.improvSeat]: 1 }, { paid: false });
      expect((await v.checkout()).after_sale_messages).toEqual([]);
    });
  });

  describe('the accommodation map', () => {
    it('is Stay22’s embed by default, framed by the page’s policy, and can be turned off', async () => {
      const defaults = parseConfig({});
      expect(defaults.accommodationMap).toEqual({ url: 'https://www.stay22.com/embed/gm', affiliateId: 'holdfast' });
      expect(parseConfig({ ACCOMMODATION_MAP_URL: 'none' }).accommodationMap).toBeNull();
      expect(() => parseConfig({ ACCOMMODATION_MAP_URL: 'http://maps.example/embed' })).toThrow(
        /ACCOMMODATION_MAP_URL/,
      );
      expect(() => parseConfig({ ACCOMMODATION_AFFILIATE_ID: 'a b' })).toThrow(/ACCOMMODATION_AFFILIATE_ID/);
      const inline = { styles: [], scripts: [] };
      expect(
        cspDirectives({ hcaptcha: null, accommodationMap: defaults.accommodationMap }, inline)['frame-src'],
      ).toEqual(['https://www.stay22.com']);
      expect(cspDirectives({ hcaptcha: null, accommodationMap: null }, inline)['frame-src']).toEqual(["'none'"]);
    });

    it('is answered to the browser as configured, and framed by the checkout page only then', async () => {
      expect(await new Visitor(w.app).json('getAccommodationMap')).toEqual({ url: null, affiliate_id: null });
      const frameSrc = (header: unknown) => /frame-src ([^;]+)/.exec(String(header))?.[1];
      expect(
        frameSrc(
          (await new Visitor(w.app).request({ method: 'GET', url: '/checkout/' })).headers['content-security-policy'],
        ),
      ).toBe("'none'");
      const { app } = await appOn(w.database, {
        accommodationMap: { url: 'https://maps.example.org/embed/gm', affiliateId: 'ourfestival' },
      });
      try {
        const v = new Visitor(app);
        expect(await v.json('getAccommodationMap')).toEqual({
          url: 'https://maps.example.org/embed/gm',
          affiliate_id: 'ourfestival',
        });
        expect(
          frameSrc((await v.request({ method: 'GET', url: '/checkout/' })).headers['content-security-policy']),
        ).toBe('https://maps.example.org');
      } finally {
        await app.close();
      }
    });
  });
});
