/**
 * Demo mode over HTTP, on each driver: out of it /dev/* and the sandbox processors' pages and calls
 * answer 404, the sign-in page lists no account and signs no one in without a code, a payment method
 * without its keys is refused in words and starts nothing, and the footer and wallet link no demo
 * page; in it they all work. Beside that: HSTS when the site is served over https, and the links in
 * the wallet e-mail and to the bank on the site's own address, whatever Host a request names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { parseConfig, testConfig } from '../config.ts';
import { outbox, payments, sales } from '../db/schema.ts';
import { sendMail } from '../mail/index.ts';
import { completeSale } from '../domain/completeSale.ts';
import { sandboxBank } from '../domain/payment/bank.ts';
import { bankWiring } from '../providers/bank.ts';
import { UNKEYED_MESSAGES, unkeyedMethods } from './demoMode.ts';
import { paymentWiring } from '../providers/payment.ts';
import { planWiring } from '../providers/plans.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { hotEvent } from '../test/fixtures.ts';
import { SANDBOX_CARDS, WALLET_PATH } from '../../contract/index.ts';

const HTML = { accept: 'text/html' };
const CARD = { number: SANDBOX_CARDS.success, expiry: '12/34', cvc: '123' };

describe.each(drivers)('demo mode on %s', (driver) => {
  /** The demo app (as the README's npm start) and, on the same database, one out of demo mode. */
  let w: TestWorld;
  let live: FastifyInstance;
  /** A ticket type of an organiser that asks no phone number and offers every method. */
  let ticket: number;
  beforeAll(async () => {
    w = await openWorld(driver);
    live = (await appOn(w.database, { demo: false })).app;
    ticket = (await hotEvent(w.database.db, { capacity: 1000, types: 1 })).types[0]!.id;
  });
  afterAll(async () => {
    await live?.close();
    await w?.close();
  });

  /** The same browser (its cookies) on the other app. */
  const onLive = (v: Visitor) => new Visitor(live, v.cookieHeader ? { cookie: v.cookieHeader } : {});

  async function reservedBuyer(app: FastifyInstance, headers: Record<string, string> = {}) {
    const v = new Visitor(app, headers);
    // A buyer the payment step knows: signed in where demo sign-in is served.
    if (app !== live)
      expect(
        (await v.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.notSubscribed.id}` }))
          .statusCode,
      ).toBe(303);
    expect((await v.add({ [ticket]: 1 })).statusCode).toBe(200);
    expect(await v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await v.json('updateBasketState', { state: 'payment' });
    await v.json('setBillingAddress', { address: { postcode: 'BS1 4QH' } });
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    return { v, saleId: sale!.id };
  }
  const paymentsOf = (saleId: string) => w.database.db.select().from(payments).where(eq(payments.saleId, saleId));

  it('out of demo mode /signin/ lists no account, and a POST naming an account signs no one in', async () => {
    const tom = w.demo.users.notSubscribed;
    const v = new Visitor(live);
    const page = await v.request({ method: 'GET', url: '/signin/', headers: HTML });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(tom.email);
    expect(page.body).not.toContain(`${tom.firstName} ${tom.lastName}`);
    expect(page.body).not.toContain('Continue as');
    expect(page.body).not.toContain('name="user_id"');
    for (const body of [`user_id=${tom.id}`, `user_id=${tom.id}&next=%2Fcheckout%2F`]) {
      const res = await v.request({ method: 'POST', url: '/signin/', body });
      expect(res.statusCode, body).toBe(400);
      expect(res.body, body).not.toContain(tom.email);
      expect(res.headers['set-cookie'], body).toBeUndefined();
      expect(await v.json('getUser')).toEqual({ user: null });
    }
    // An e-mail address only gets a code sent to it: no one is signed in without it.
    const named = await v.request({ method: 'POST', url: '/signin/', body: `email=${encodeURIComponent(tom.email)}` });
    expect(named.statusCode).toBe(200);
    expect(named.headers['set-cookie']).toBeUndefined();
    expect(await v.json('getUser')).toEqual({ user: null });
  });

  it('in demo mode /signin/ lists the demo accounts and signs in as one', async () => {
    const tom = w.demo.users.notSubscribed;
    const v = new Visitor(w.app);
    const page = await v.request({ method: 'GET', url: '/signin/', headers: HTML });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(tom.email);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${tom.id}` })).statusCode).toBe(303);
    expect(await v.json('getUser')).toMatchObject({ user: { email: tom.email } });
  });

  it('out of demo mode /dev/mailbox and /dev/instalments/run answer 404 and show or run nothing', async () => {
    await sendMail(
      w.database.db,
      { transport: null, from: 'tickets@holdfast.example' },
      'Holdfast',
      { to: 'dev@example.com', subject: 'Your code 918273', text: 'code 918273' },
      w.clock.now,
    );
    const v = new Visitor(live);
    for (const headers of [HTML, {}]) {
      const mailbox = await v.request({ method: 'GET', url: '/dev/mailbox?to=dev@example.com', headers });
      expect(mailbox.statusCode).toBe(404);
      expect(mailbox.body).not.toContain('918273');
    }
    const run = await v.request({ method: 'POST', url: '/dev/instalments/run?as_of=2099-01-01T00:00:00Z', body: '' });
    expect(run.statusCode).toBe(404);
    expect(run.json()).toEqual({ error: 'Nothing is served at POST /dev/instalments/run' });

    const dev = new Visitor(w.app);
    expect((await dev.request({ method: 'GET', url: '/dev/mailbox?to=dev@example.com' })).body).toContain(
      'Your code 918273',
    );
    expect(
      (await dev.request({ method: 'POST', url: '/dev/instalments/run?as_of=2026-06-01T12:00:00Z', body: '' }))
        .statusCode,
    ).toBe(200);
  });

  it('out of demo mode the sandbox card and bank pages answer 404 and take no payment; in demo mode they serve it', async () => {
    const { v, saleId } = await reservedBuyer(w.app);
    const elsewhere = onLive(v);
    const notPaid = async () => {
      expect((await paymentsOf(saleId)).filter((p) => p.status === 'succeeded')).toEqual([]);
      expect((await v.checkout()).payment_complete).toBe(false);
    };

    const { auth_url } = (await v.json('payWithTruelayer', { contact_number: '07700 900123' })) as { auth_url: string };
    const bankToken = new URL(auth_url, 'http://x').searchParams.get('token')!;
    expect((await elsewhere.request({ method: 'GET', url: auth_url, headers: HTML })).statusCode).toBe(404);
    expect(
      (await elsewhere.request({ method: 'POST', url: '/sandbox/bank/', body: `token=${bankToken}&decision=approve` }))
        .statusCode,
    ).toBe(404);
    await notPaid();
    expect((await v.request({ method: 'GET', url: auth_url })).statusCode).toBe(200);

    const { client_secret } = (await v.json('getStripeToken')) as { client_secret: string };
    const card = `/sandbox/card/?secret=${encodeURIComponent(client_secret)}`;
    const cardForm = new URLSearchParams({ secret: client_secret, ...CARD }).toString();
    expect((await elsewhere.request({ method: 'GET', url: card, headers: HTML })).statusCode).toBe(404);
    expect((await elsewhere.request({ method: 'POST', url: '/sandbox/card/', body: cardForm })).statusCode).toBe(404);
    expect(
      (
        await elsewhere.request({
          method: 'GET',
          url: `/sandbox/card/challenge/?secret=${encodeURIComponent(client_secret)}`,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await elsewhere.request({ method: 'GET', url: '/sandbox/plan/authenticate/', headers: HTML })).statusCode,
    ).toBe(404);
    await notPaid();

    expect((await v.request({ method: 'GET', url: card })).statusCode).toBe(200);
    expect((await v.request({ method: 'POST', url: '/sandbox/card/', body: cardForm })).statusCode).toBe(303);
    expect((await v.checkout()).payment_complete).toBe(true);
  });

  it('out of demo mode the sandboxes’ card calls (Square’s tokenising, plans’ card saving) answer 404', async () => {
    const v = new Visitor(live);
    for (const name of ['tokeniseSandboxSquareCard', 'saveSandboxCard'] as const) {
      const res = await v.call(name, CARD);
      expect(res.statusCode, name).toBe(404);
    }
    // Spelt another way, the path reaches the same route and the same answer.
    const form = new URLSearchParams(CARD).toString();
    expect((await v.request({ method: 'POST', url: '/%73andbox/payment_methods/', body: form })).statusCode).toBe(404);
    const dev = new Visitor(w.app);
    expect(await dev.json('tokeniseSandboxSquareCard', CARD)).toMatchObject({ token: expect.any(String) });
    expect(await dev.json('saveSandboxCard', CARD)).toMatchObject({ last4: '4242' });
  });

  it('out of demo mode a method without its keys is refused in words and starts no payment', async () => {
    const { v, saleId } = await reservedBuyer(live);
    const refusals = [
      ['getStripeToken', UNKEYED_MESSAGES.card],
      ['createTruelayerPayment', UNKEYED_MESSAGES.bank],
      ['payWithTruelayer', UNKEYED_MESSAGES.bank],
      ['getSquareCredentials', UNKEYED_MESSAGES.card],
      ['payWithSquare', UNKEYED_MESSAGES.card],
      ['payWithInstalment', UNKEYED_MESSAGES.plan],
    ] as const;
    for (const [name, message] of refusals) {
      const res = await v.call(name, {} as never);
      expect(res.statusCode, name).toBe(409);
      expect(res.json(), name).toEqual({ error: message });
    }
    const spelt = await v.request({ method: 'POST', url: '/ajax/checkout/%73tripe/get_token/', body: '' });
    expect(spelt.statusCode).toBe(409);
    expect(spelt.json()).toEqual({ error: UNKEYED_MESSAGES.card });
    expect(await paymentsOf(saleId)).toEqual([]);
    // Still held, and free to pay once a processor is keyed.
    expect((await v.checkout()).payment_complete).toBe(false);
  });

  it('offers every method whose processor is keyed, and names the keys of those that are not', () => {
    const keyed = {
      STRIPE_PUBLISHABLE_KEY: 'pk_test_holdfast',
      STRIPE_SECRET_KEY: 'sk_test_holdfast',
      SQUARE_APPLICATION_ID: 'sandbox-sq0idb-holdfast',
      SQUARE_ACCESS_TOKEN: 'EAAA-holdfast-test-access-token',
      SQUARE_LOCATION_ID: 'LHOLDFAST1',
    };
    const bank = { ...bankWiring(parseConfig({})), bank: { ...sandboxBank(), name: 'truelayer' as const } };
    expect(
      unkeyedMethods({
        payment: paymentWiring(parseConfig(keyed)),
        bank,
        plans: planWiring(w.database.db, parseConfig(keyed)),
      }),
    ).toEqual([]);
    const none = unkeyedMethods({
      payment: paymentWiring(parseConfig({})),
      bank: bankWiring(parseConfig({})),
      plans: planWiring(w.database.db, parseConfig({})),
    });
    expect(none.map((m) => [m.name, m.keys])).toEqual([
      ['card', 'STRIPE_PUBLISHABLE_KEY and STRIPE_SECRET_KEY'],
      ['instant bank transfer', 'the TRUELAYER_* keys'],
      ['Square', 'SQUARE_APPLICATION_ID, SQUARE_ACCESS_TOKEN and SQUARE_LOCATION_ID'],
      ['payment plans', 'STRIPE_PUBLISHABLE_KEY and STRIPE_SECRET_KEY'],
    ]);
  });

  it('links the sign-in page from the footer and the wallet in and out of demo mode; out of it the page lists no account', async () => {
    for (const url of ['/all-events/', '/refund-policy/', WALLET_PATH]) {
      for (const app of [live, w.app]) {
        const res = await new Visitor(app).request({ method: 'GET', url, headers: HTML });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toContain('href="/signin/');
      }
    }
    const wallet = await new Visitor(live).request({ method: 'GET', url: WALLET_PATH, headers: HTML });
    expect(wallet.body).toContain('Sign in to see your tickets');
    const signin = await new Visitor(live).request({ method: 'GET', url: '/signin/', headers: HTML });
    expect(signin.body).not.toContain(w.demo.users.subscribedDark.email);
  });

  it('sends HSTS when the site is served over https, never over plain http', async () => {
    const plain = await w.app.inject({ method: 'GET', url: '/all-events/' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();

    const proxied = await appOn(w.database, { trustProxy: 1 });
    const publicHttps = await appOn(w.database, { publicUrl: 'https://tickets.example.com' });
    try {
      const https = await proxied.app.inject({
        method: 'GET',
        url: '/all-events/',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(https.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const http = await proxied.app.inject({
        method: 'GET',
        url: '/all-events/',
        headers: { 'x-forwarded-proto': 'http' },
      });
      expect(http.headers['strict-transport-security']).toBeUndefined();
      // Behind a proxy that is not trusted, PUBLIC_URL says the site is https.
      for (const url of ['/all-events/', '/ajax/checkout/checkout/get/']) {
        const res = await publicHttps.app.inject({ method: 'GET', url });
        expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      }
    } finally {
      await proxied.app.close();
      await publicHttps.app.close();
    }
  });

  describe('links on the site’s own address', () => {
    const PUBLIC_URL = 'https://tickets.example.com';
    const EVIL = { host: 'evil.example' };
    let app: FastifyInstance;
    beforeAll(async () => {
      // The bank's page is given the return link as TrueLayer's hosted page is (in its address).
      const wiring = bankWiring(parseConfig({}));
      const bank = {
        ...sandboxBank(),
        paymentPageUrl: (p: { returnUri: string }) =>
          `https://bank.example/pay#${new URLSearchParams({ return_uri: p.returnUri }).toString()}`,
      };
      app = await buildApp({
        db: w.database.db,
        config: testConfig({ publicUrl: PUBLIC_URL }),
        clock: () => w.clock.now,
        logger: false,
        bank: { ...wiring, bank },
      });
      await app.ready();
    });
    afterAll(async () => app?.close());

    it('the wallet e-mail links PUBLIC_URL even when the request names another Host', async () => {
      const tom = w.demo.users.notSubscribed;
      const v = new Visitor(app, EVIL);
      expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${tom.id}` })).statusCode).toBe(303);
      expect((await v.add({ [ticket]: 1 })).statusCode).toBe(200);
      expect(await v.json('reserveTickets', {})).toMatchObject({ reserved: true });
      const reference = (await v.checkout()).sale_reference!;
      const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
      expect((await w.database.db.transaction((tx) => completeSale(tx, sale!.id, w.clock.now))).booked).toBe(true);
      expect(await v.json('deliverToBitticket')).toEqual({ delivery_completed: true });
      expect(await v.json('deliverToWallet')).toEqual({ delivery_completed: true });
      const mails = (await w.database.db.select().from(outbox).where(eq(outbox.recipient, tom.email))).filter((m) =>
        m.subject.includes(reference),
      );
      const mail = mails.find((m) => m.subject === `Your tickets (${reference})`);
      expect(mail?.body).toContain(`${PUBLIC_URL}${WALLET_PATH}`);
      // The continue-your-order e-mail sent at the reservation links the same site.
      expect(mails.find((m) => m.subject === `Continue your order ${reference}`)?.body).toContain(
        `${PUBLIC_URL}/smartcheckout/?session=${reference}&`,
      );
      for (const m of mails) expect(m.body).not.toContain('evil.example');
    });

    it('the bank returns the buyer to PUBLIC_URL even when the request names another Host', async () => {
      const { v } = await reservedBuyer(app, EVIL);
      const { auth_url } = (await v.json('payWithTruelayer', { contact_number: '07700 900123' })) as {
        auth_url: string;
      };
      const returnUri = new URLSearchParams(new URL(auth_url).hash.slice(1)).get('return_uri');
      expect(returnUri).toBe(`${PUBLIC_URL}/do/checkout/truelayer_return/`);
    });
  });
});
