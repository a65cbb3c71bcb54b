/**
 * The smart-checkout link on each driver: once a held sale has its buyer, the buyer is e-mailed
 * `/smartcheckout/?session={sale_reference}` with an expiry and a signature, once per hold. The
 * sale's own browser, or one signed in as its buyer, continues at once; a fresh browser continues
 * only after proving the buyer with a one-time code; another account, a guessed or altered
 * reference, an altered signature or expiry, and an expired link are refused in words and change
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, like } from 'drizzle-orm';
import { outbox, sales } from '../db/schema.ts';
import { SMART_LINK_HOURS, SMART_LINK_MESSAGES } from './smartCheckout.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

const HTML = { accept: 'text/html' };
const text = (body: string) =>
  body.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

describe.each(drivers)('the smart-checkout link on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { publicUrl: 'https://tickets.example.com' });
  }, 180_000);
  afterAll(async () => w?.close());

  async function newestCode(email: string): Promise<string> {
    const [mail] = await w.database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, email), like(outbox.subject, '% code')))
      .orderBy(desc(outbox.id))
      .limit(1);
    return /code is (\d{6})/.exec(mail!.body)![1]!;
  }
  const resumeMails = (email: string) =>
    w.database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, email), like(outbox.subject, 'Continue your order%')))
      .orderBy(outbox.id);

  /** A buyer who reserved and signed in with a code on their phone; answers the phone and the e-mailed link's path. */
  async function heldByBuyer(
    email: string,
    address: string,
  ): Promise<{ phone: Visitor; link: string; reference: string }> {
    const phone = new Visitor(w.app, {}, address);
    await phone.add({ [w.demo.tickets.jazzGeneral]: 1 });
    expect(await phone.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await phone.json('updateBasketState', { state: 'login' });
    await phone.json('sendOneTimeCode', { email });
    expect(await phone.json('checkOneTimeCode', { email, code: await newestCode(email) })).toEqual({
      has_account: true,
    });
    const reference = (await phone.checkout()).sale_reference!;
    const mails = (await resumeMails(email)).filter((m) => m.subject === `Continue your order ${reference}`);
    expect(mails).toHaveLength(1);
    const url = /https:\/\/tickets\.example\.com(\/smartcheckout\/\?session=\S+)/.exec(mails[0]!.body)?.[1];
    expect(url).toContain(`session=${reference}&expires=`);
    return { phone, link: url!, reference };
  }

  it('e-mails the buyer the link once a hold, and the sale’s own browser goes straight to its checkout', async () => {
    const email = w.demo.users.notSubscribed.email;
    const { phone, link, reference } = await heldByBuyer(email, '10.9.0.1');
    // Signing in again on the same hold sends no second e-mail.
    await phone.json('sendOneTimeCode', { email });
    await phone.json('checkOneTimeCode', { email, code: await newestCode(email) });
    expect((await resumeMails(email)).filter((m) => m.subject.endsWith(reference))).toHaveLength(1);

    const res = await phone.request({ method: 'GET', url: link, headers: HTML });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/checkout/');
    expect((await phone.checkout()).sale_reference).toBe(reference);
  });

  it('a fresh browser proves the buyer with a one-time code, then continues the same sale, hold and step', async () => {
    const email = w.demo.users.subscribedDark.email;
    const { phone, link, reference } = await heldByBuyer(email, '10.9.0.2');
    await phone.json('updateBasketState', { state: 'marketing_preferences' });

    const laptop = new Visitor(w.app, {}, '10.9.0.3');
    const asked = await laptop.request({ method: 'GET', url: link, headers: HTML });
    expect(asked.statusCode).toBe(200);
    expect(text(asked.body)).toContain(SMART_LINK_MESSAGES.proveBuyer);
    expect(asked.headers['set-cookie']).toBeUndefined();
    // Nothing of the sale reached this browser yet.
    expect((await laptop.checkout()).tickets).toEqual([]);
    const signInHref = /href="(\/signin\/\?next=[^"]+)"/.exec(asked.body)![1]!.replace(/&amp;/g, '&');
    expect(decodeURIComponent(signInHref.slice('/signin/?next='.length))).toBe(link);

    // The sign-in page sends a code to the buyer's address and comes back to the link.
    const sent = await laptop.request({
      method: 'POST',
      url: '/signin/',
      headers: HTML,
      body: new URLSearchParams({ email, next: link }).toString(),
    });
    expect(sent.statusCode).toBe(200);
    const proved = await laptop.request({
      method: 'POST',
      url: '/signin/code/',
      headers: HTML,
      body: new URLSearchParams({ email, code: await newestCode(email), next: link }).toString(),
    });
    expect(proved.statusCode).toBe(303);
    expect(proved.headers.location).toBe(link);
    const resumed = await laptop.request({ method: 'GET', url: link, headers: HTML });
    expect(resumed.statusCode).toBe(303);
    expect(resumed.headers.location).toBe('/checkout/');
    const onLaptop = await laptop.checkout();
    expect(onLaptop.sale_reference).toBe(reference);
    expect(onLaptop.state).toBe('marketing_preferences');
  });

  it('refuses a browser signed in as someone else, and gives it nothing of the sale', async () => {
    const { link } = await heldByBuyer(w.demo.users.notSubscribed.email, '10.9.0.4');
    const stranger = new Visitor(w.app, {}, '10.9.0.5');
    const other = 'someone.else@example.com';
    await stranger.request({
      method: 'POST',
      url: '/signin/',
      headers: HTML,
      body: new URLSearchParams({ email: other }).toString(),
    });
    await stranger.request({
      method: 'POST',
      url: '/signin/code/',
      headers: HTML,
      body: new URLSearchParams({ email: other, code: await newestCode(other) }).toString(),
    });
    await stranger.request({
      method: 'POST',
      url: '/signin/name/',
      headers: HTML,
      body: new URLSearchParams({ email: other, fullname: 'Some Else' }).toString(),
    });
    expect(((await stranger.json('getUser')) as { user: { email: string } | null }).user).toMatchObject({
      email: other,
    });
    const res = await stranger.request({ method: 'GET', url: link, headers: HTML });
    expect(res.statusCode).toBe(403);
    expect(text(res.body)).toContain(SMART_LINK_MESSAGES.otherBuyer);
    expect((await stranger.checkout()).tickets).toEqual([]);
  });

  it('refuses a guessed or altered reference, signature or expiry, and a link past its time, in words', async () => {
    const { link, reference } = await heldByBuyer(w.demo.users.notSubscribed.email, '10.9.0.6');
    const params = new URL(link, 'https://x').searchParams;
    const signature = params.get('signature')!;
    const expires = params.get('expires')!;
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    const [other] = await w.database.db
      .select({ reference: sales.reference })
      .from(sales)
      .where(like(sales.reference, 'HF-%'))
      .limit(1);
    const refused = [
      `/smartcheckout/?session=${reference}`,
      `/smartcheckout/?session=HF-ABCDEFGH&expires=${expires}&signature=${signature}`,
      `/smartcheckout/?session=${other!.reference === reference ? 'HF-ABCDEFGH' : other!.reference}&expires=${expires}&signature=${signature}`,
      `/smartcheckout/?session=${reference}&expires=${expires}&signature=${flip(signature)}`,
      `/smartcheckout/?session=${reference}&expires=${Number(expires) + 3600}&signature=${signature}`,
      `/smartcheckout/?session=${reference}&expires=${expires}&signature=${signature}x`,
      `/smartcheckout/?session=%3Cscript%3E&expires=${expires}&signature=${signature}`,
      '/smartcheckout/',
    ];
    for (const url of refused) {
      const v = new Visitor(w.app);
      const res = await v.request({ method: 'GET', url, headers: HTML });
      expect(res.statusCode, url).toBe(404);
      expect(text(res.body), url).toContain(SMART_LINK_MESSAGES.invalidLink);
      expect(res.body, url).not.toContain('<script>');
      expect(res.headers['set-cookie'], url).toBeUndefined();
      expect((await v.checkout()).tickets, url).toEqual([]);
    }

    w.clock.advance(SMART_LINK_HOURS * 3600_000 + 1000);
    const late = new Visitor(w.app);
    const res = await late.request({ method: 'GET', url: link, headers: HTML });
    expect(res.statusCode).toBe(410);
    expect(text(res.body)).toContain(SMART_LINK_MESSAGES.expiredLink);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
