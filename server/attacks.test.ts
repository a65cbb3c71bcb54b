/**
 * The attacks on who a browser is and what its cookies, links and tokens give, replayed from
 * outside as an attacker would: over HTTP only, with what a browser or a forwarded e-mail hands
 * them. Each runs against a demo server (DEMO=1, as npm start asks for it) and against a
 * production-configured one: NODE_ENV=prod, HOST=127.0.0.1 behind one trusted proxy (nginx on the
 * same host), PUBLIC_URL on https and no DEMO, with Stripe and TrueLayer keyed against local
 * stand-ins. Every attack is refused in words a buyer would see, and leaves the victim's tickets,
 * rewards, accounts and money as they were.
 */
import { randomUUID, generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import * as t from './db/schema.ts';
import { demoModeLine, parseConfig, testConfig, type Config } from './config.ts';
import { appOn, drivers, openWorld, solvedChallenge, Visitor, type TestWorld } from './test/harness.ts';
import { accountFor, codeSentTo, signInAs } from './test/accounts.ts';
import { hotEvent } from './test/fixtures.ts';
import { sendMail, latestMail } from './mail/index.ts';
import { TRANSFER_REFUSALS } from './domain/transfers.ts';
import { PROVE_ADDRESS_FIRST_MESSAGE } from './domain/payment/details.ts';
import { BASKET_CHANGED_MESSAGE } from './domain/payment/payments.ts';
import { TRUELAYER_WEBHOOK_MESSAGES } from './providers/truelayer.ts';
import { UNKEYED_MESSAGES } from './http/demoMode.ts';
import { offerReleasedTickets, OFFER_BOUGHT_MESSAGE } from './domain/waitingRoom/waitingList.ts';
import { waitingListMailOf } from './domain/waitingRoom/start.ts';
import { OFFER_OTHER_ACCOUNT_MESSAGE, OFFER_SEND_CODE_LABEL } from './routes/waitingRoom/offer.ts';
import { QUEUE_FIRST_MESSAGE } from './routes/waitingRoom/gates.ts';
import { admissionEndedMessage } from '../contract/queuePage.ts';
import { queueStatus } from '../contract/waitingRoom.ts';
import { SANDBOX_CARDS } from '../contract/index.ts';
import { PAYMENT_MESSAGES } from '../contract/messages/payment.ts';
import { INSTALMENT_MESSAGES } from '../contract/messages/instalment.ts';
import { startFakeStripe, type FakeStripe } from '../e2e/fakeStripe.ts';

const HTML = { accept: 'text/html' };
const PUBLIC_URL = 'https://tickets.example.com';
const PHONE = '07700 900123';
const CARD = { number: SANDBOX_CARDS.success, expiry: '12/34', cvc: '123' };

/** The deployment the production server copies: nginx on the same host, in front of a server on loopback. */
const BEHIND_PROXY = { NODE_ENV: 'prod', HOST: '127.0.0.1', TRUST_PROXY: '1', PUBLIC_URL };
/** What a test run needs of every server: quiet logs, no rate limit in the way, and a cheap proof of work (the captcha is not what is attacked). */
const QUIET = {
  CAPTCHA: 'never',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '100000',
  ALTCHA_MAX_NUMBER: '1000',
  ACCOMMODATION_MAP_URL: 'none',
};

const STRIPE_KEYS = {
  STRIPE_PUBLISHABLE_KEY: 'pk_test_attacks',
  STRIPE_SECRET_KEY: 'sk_test_attacks',
  STRIPE_WEBHOOK_SECRET: 'whsec_attacks',
};

/** TrueLayer's side: our signing key, its webhook key and the replies its API gives. */
const ours = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
const theirs = generateKeyPairSync('ec', { namedCurve: 'secp521r1' });
const JKU = 'https://webhooks.truelayer-sandbox.com/.well-known/jwks';
const TRUELAYER_KEYS = {
  TRUELAYER_CLIENT_ID: 'sandbox-attacks-1a2b3c',
  TRUELAYER_CLIENT_SECRET: 'secret-attacks',
  TRUELAYER_SIGNING_KEY_ID: '9f2b7bd6-c055-40b5-b616-120ccfd33c49',
  TRUELAYER_SIGNING_PRIVATE_KEY: ours.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  TRUELAYER_MERCHANT_ACCOUNT_ID: 'a2dcee6d-7a00-414d-a1e6-8a2b23169e00',
};
const WEBHOOK_PATH = '/ajax/checkout/truelayer/webhook';

/** TrueLayer's API as the server reaches it; every other address goes out as it would. */
function truelayerFetch(): typeof fetch {
  const jwk = { ...(theirs.publicKey.export({ format: 'jwk' }) as JsonWebKey), kid: 'tl-key-1' };
  let created = 0;
  const reply = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!/truelayer/.test(url)) return fetch(input, init);
    if (url.endsWith('/connect/token'))
      return reply({ access_token: 'tl-token', expires_in: 3600, token_type: 'Bearer', scope: 'payments' });
    if (url === JKU) return reply({ keys: [jwk] });
    if (url.endsWith('/v3/payments') && init?.method === 'POST') {
      const id = `tl-attack-${++created}`;
      return reply({ id, user: { id: 'u' }, resource_token: `rt-${id}`, status: 'authorization_required' }, 201);
    }
    const status = /\/v3\/payments\/([^/]+)$/.exec(url);
    if (status) return reply({ id: status[1], status: 'authorization_required' });
    return reply({ error: 'unexpected' }, 404);
  }) as typeof fetch;
}

/** TrueLayer's signature of a webhook (Tl-Signature v2, ES512, detached), over its path, its signed time and its body. */
function signAsTruelayer(key: KeyObject, timestamp: string, body: string): string {
  const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');
  const header = b64url(
    JSON.stringify({ alg: 'ES512', kid: 'tl-key-1', tl_version: '2', tl_headers: 'X-Tl-Webhook-Timestamp', jku: JKU }),
  );
  const payload = b64url(`POST ${WEBHOOK_PATH}\nX-Tl-Webhook-Timestamp: ${timestamp}\n${body}`);
  return `${header}..${b64url(sign('sha512', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }))}`;
}

type Kind = 'demo' | 'production';
const KINDS: Kind[] = ['demo', 'production'];

/** The organisers of the seeded catalogue that sell by express checkout here (the referral and account attacks use it). */
const cases = drivers.flatMap((driver) => KINDS.map((kind) => [driver, kind] as const));

describe.each(cases)('attacks from outside on %s, on a %s server', (driver, kind) => {
  let w: TestWorld;
  let config: Config;
  /** Stripe's stand-in, for the production server (the demo server takes cards in its own sandbox). */
  let stripe: FakeStripe | null = null;
  const production = kind === 'production';
  let n = 0;

  beforeAll(async () => {
    if (production) {
      stripe = await startFakeStripe({
        secretKey: STRIPE_KEYS.STRIPE_SECRET_KEY,
        publishableKey: STRIPE_KEYS.STRIPE_PUBLISHABLE_KEY,
        clock: () => (w ? w.clock.now.getTime() : Date.now()),
        webhook: {
          secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET,
          deliver: async (payload, signature) =>
            (
              await w.app.inject({
                method: 'POST',
                url: '/ajax/checkout/stripe/webhook/',
                payload,
                headers: {
                  'content-type': 'application/json',
                  'stripe-signature': signature,
                  'x-forwarded-proto': 'https',
                },
              })
            ).statusCode,
        },
      });
    }
    config = production
      ? parseConfig({
          ...BEHIND_PROXY,
          ...QUIET,
          ...STRIPE_KEYS,
          STRIPE_API_BASE: stripe!.url,
          ...TRUELAYER_KEYS,
          SESSION_SECRET: `production-${randomUUID()}-secret`,
        })
      : { ...testConfig(), bank: parseConfig(TRUELAYER_KEYS).bank };
    w = await openWorld(driver, config, { fetch: truelayerFetch() });
    // The seeded organisers whose events these attacks use sell by express checkout.
    await w.database.db
      .insert(t.organiserPaymentSettings)
      .values([
        { organiserId: w.demo.organisers.riverside, expressCheckout: true },
        { organiserId: w.demo.organisers.ashcombe, expressCheckout: true },
      ])
      .onConflictDoNothing();
  }, 120_000);
  afterAll(async () => {
    await w?.close();
    await stripe?.close();
  });

  const db = () => w.database.db;
  /** A browser of its own: behind the proxy, on https from an address of its own. */
  const browser = (headers: Record<string, string> = {}) =>
    new Visitor(
      w.app,
      production
        ? { 'x-forwarded-proto': 'https', 'x-forwarded-for': `203.0.113.${(++n % 250) + 1}`, ...headers }
        : headers,
      production ? '127.0.0.1' : `10.41.0.${(++n % 250) + 1}`,
    );
  const address = (label: string) => `${label}-${kind}-${driver}-${++n}@example.test`;
  /** A buyer with an account and a name, signed in with the code e-mailed to them. */
  async function signedInBuyer(label: string) {
    const email = address(label);
    const id = await accountFor(w, email);
    const v = browser();
    await signInAs(w, v, email);
    return { v, id, email };
  }
  const saleOf = async (v: Visitor) => {
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await db().select().from(t.sales).where(eq(t.sales.reference, reference));
    return sale!;
  };

  /** Pays the held basket by card as the payment step does: the sandbox's card page, or Stripe's confirmation and its signed webhook. */
  async function payByCard(v: Visitor) {
    const token = await v.json('getStripeToken');
    if (stripe) {
      const intent = [...stripe.intents.values()].find((i) => i.client_secret === token.client_secret)!;
      expect(await stripe.confirm(intent.id)).toMatchObject({ status: 'succeeded' });
    } else {
      const paid = await v.request({
        method: 'POST',
        url: '/sandbox/card/',
        body: new URLSearchParams({ secret: String(token.client_secret), ...CARD }).toString(),
      });
      expect(paid.statusCode).toBe(303);
    }
    expect((await v.checkout()).payment_complete).toBe(true);
  }

  /** Adds, reserves, pays by card (or claims, when free) and takes delivery; the sale. */
  async function buy(v: Visitor, lines: Record<number, number>) {
    expect((await v.add(lines)).statusCode).toBe(200);
    expect(await v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    if ((await v.checkout()).basket_total === 0) expect(await v.json('claimFreeTickets')).toEqual({ success: true });
    else await payByCard(v);
    expect(await v.json('deliverToBitticket')).toEqual({ delivery_completed: true });
    expect(await v.json('deliverToWallet')).toEqual({ delivery_completed: true });
    return saleOf(v);
  }

  /** Who the wallet says the browser is: the address, or null when it asks to sign in. */
  const walletOwner = async (v: Visitor) => {
    const page = await v.request({ method: 'GET', url: '/account/wallet/', headers: HTML });
    expect(page.statusCode).toBe(200);
    return (
      /Tickets of [^(]+\(([^)]+)\)/.exec(page.body)?.[1] ??
      (page.body.includes('Sign in to see your tickets') ? null : 'unknown')
    );
  };
  const ticketsOf = (saleId: string) =>
    db().select().from(t.tickets).where(eq(t.tickets.saleId, saleId)).orderBy(t.tickets.id);
  const cookieOf = (v: Visitor, name: string) => new RegExp(`(?:^|; )${name}=([^;]*)`).exec(v.cookieHeader)?.[1];
  const transferTo = (email: string, ticketId: number) => ({
    ticket_id: ticketId,
    name: 'Mallory',
    email,
    qty: 1,
    is_gift: false,
    send_gift: 'Schedule' as const,
    delivery_date: '',
    delivery_time: '',
    message: '',
  });
  const sessionCookie = production ? '__Host-hf_session' : 'hf_session';

  it('1. a share link’s referral cookie presented as the session signs no one in as the sharer', async () => {
    const victim = await signedInBuyer('sharer');
    const sale = await buy(victim.v, { [w.demo.tickets.jazzGeneral]: 1 });
    const link = new URL((await victim.v.call('getRewardReferrerLink')).json() as string);
    const before = await ticketsOf(sale.id);
    expect(before.length).toBe(1);
    expect(before.every((ticket) => ticket.userId === victim.id)).toBe(true);

    // The attacker opens the victim's public share link and keeps the referral cookie it sets.
    const opener = browser(HTML);
    expect((await opener.request({ method: 'GET', url: `${link.pathname}${link.search}` })).statusCode).toBe(200);
    const ref = cookieOf(opener, 'hf_ref');
    expect(ref).toBeTruthy();

    // Presented in every slot a session has had, alone or beside the opener's own session.
    const own = cookieOf(opener, sessionCookie);
    const forged = [
      `hf_session=${ref}`,
      `__Host-hf_session=${ref}`,
      `hf_user=${ref}`,
      `hf_session=${ref}; __Host-hf_session=${ref}; hf_user=${ref}; hf_ref=${ref}`,
      `${sessionCookie}=${own}; hf_user=${ref}; hf_ref=${ref}`,
      // The victim's id as the referral code names it, bare, and ids of a session's shape that no one was given.
      `hf_session=${victim.id}; hf_user=${victim.id}`,
      `hf_session=s${'A'.repeat(43)}; __Host-hf_session=s${'A'.repeat(43)}`,
      `hf_session=${'s'.repeat(5000)}; hf_ref=${'x.'.repeat(2000)}`,
      `hf_session=%00%ff; __Host-hf_session=%E0%A4%A; hf_ref=..`,
    ];
    for (const cookie of forged) {
      // Each request carries the forged cookies as they were typed in.
      const attacker = () => browser({ cookie });
      expect(await attacker().json('getUser'), cookie).toEqual({ user: null });
      expect(await walletOwner(attacker()), cookie).toBeNull();
      // Nothing of the victim's to move: there is no order in this browser.
      const moved = await attacker().call('setTransfers', {
        transfers: [transferTo('mallory@example.test', w.demo.tickets.jazzGeneral)],
      });
      expect([moved.statusCode, moved.json()], cookie).toEqual([404, { error: TRANSFER_REFUSALS.noOrder }]);
      expect((await attacker().json('getSavedPaymentMethods')).payment_methods, cookie).toEqual([]);
    }
    // The victim's tickets are still theirs, nothing was sent on, and no session was made for them.
    expect(await ticketsOf(sale.id)).toEqual(before);
    expect(await db().select().from(t.transfers).where(eq(t.transfers.saleId, sale.id))).toEqual([]);
    expect(await db().select().from(t.sessions).where(eq(t.sessions.userId, victim.id))).toHaveLength(1);
    expect(await walletOwner(victim.v)).toBe(victim.email);
  });

  it('2. a waiting-list offer link opened in another browser, or claimed by another account, gives it neither the sale nor the paid tickets', async () => {
    const { types } = await hotEvent(db(), { capacity: 1, types: 1 });
    const typeId = types[0]!.id;
    // Sold out: someone holds the one ticket; the listed buyer joins the waiting list.
    const holder = browser();
    expect((await holder.add({ [typeId]: 1 })).statusCode).toBe(200);
    expect(await holder.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const listed = { email: address('listed'), id: 0 };
    listed.id = await accountFor(w, listed.email);
    const joiner = browser({ accept: 'application/json' });
    const joined = await joiner.request({
      method: 'POST',
      url: '/ajax/queue/waiting-list/',
      body: new URLSearchParams({
        ticket_type_id: String(typeId),
        email: listed.email,
        quantity: '1',
        altcha: await solvedChallenge(joiner),
      }).toString(),
    });
    expect([joined.statusCode, joined.json()]).toMatchObject([200, { joined: true }]);
    // The hold lapses, and the waiting list's job offers the ticket to the listed address.
    w.clock.advance((config.checkoutTimeSeconds + 60) * 1000);
    expect(
      await offerReleasedTickets(
        db(),
        waitingListMailOf(config, { transport: null, from: config.mailFrom }),
        w.clock.now,
      ),
    ).toBe(1);
    const [offerMail] = (await latestMail(db(), { recipient: listed.email })).filter((m) =>
      m.subject.startsWith('Tickets for'),
    );
    const link = /\/waiting-list\/offer\/[\w-]+\//.exec(offerMail!.body)![0];

    // The forwarded link, opened first by someone else: a masked address, and no sale in their browser.
    const forwarded = browser(HTML);
    const opened = await forwarded.request({ method: 'GET', url: link });
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain(OFFER_SEND_CODE_LABEL);
    expect(opened.body).not.toContain(listed.email);
    expect(cookieOf(forwarded, 'hf_sale')).toBeUndefined();
    // Asking for a code sends it to the listed address only; a guess claims nothing.
    expect((await forwarded.request({ method: 'POST', url: `${link}code/`, body: '' })).statusCode).toBe(200);
    const code = await codeSentTo(db(), listed.email);
    for (const guess of [code === '000000' ? '111111' : '000000', 'abc']) {
      const claimed = await forwarded.request({
        method: 'POST',
        url: `${link}claim/`,
        body: new URLSearchParams({ code: guess }).toString(),
      });
      expect(claimed.statusCode, guess).toBe(400);
      expect(cookieOf(forwarded, 'hf_sale'), guess).toBeUndefined();
    }
    // Links that are no offer at all, or the offer's with its token altered, answer 404.
    for (const bad of [
      '/waiting-list/offer/not-a-real-offer-token-at-all/',
      `${link.slice(0, -3)}xx/`,
      `/waiting-list/offer/${'%00'.repeat(50)}/`,
    ]) {
      for (const [method, url] of [
        ['GET', bad],
        ['POST', `${bad}code/`],
        ['POST', `${bad}claim/`],
      ] as const) {
        const res = await forwarded.request({
          method,
          url,
          ...(method === 'POST' ? { body: new URLSearchParams({ code }).toString() } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    // Another buyer, signed in with their own code, is refused it, even holding the listed address's code.
    const other = await signedInBuyer('other-account');
    const refusedPage = await other.v.request({ method: 'GET', url: link, headers: HTML });
    expect([refusedPage.statusCode, refusedPage.body.includes(OFFER_OTHER_ACCOUNT_MESSAGE)]).toEqual([403, true]);
    const refusedClaim = await other.v.request({
      method: 'POST',
      url: `${link}claim/`,
      body: new URLSearchParams({ code }).toString(),
      headers: HTML,
    });
    expect([refusedClaim.statusCode, refusedClaim.body.includes(OFFER_OTHER_ACCOUNT_MESSAGE)]).toEqual([403, true]);
    expect((await other.v.checkout()).tickets).toEqual([]);

    // The listed buyer claims it with the code, pays and takes delivery.
    const buyer = browser(HTML);
    await buyer.request({ method: 'POST', url: `${link}code/`, body: '' });
    const claimed = await buyer.request({
      method: 'POST',
      url: `${link}claim/`,
      body: new URLSearchParams({ code: await codeSentTo(db(), listed.email) }).toString(),
    });
    expect([claimed.statusCode, claimed.headers.location]).toEqual([303, '/checkout/']);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await payByCard(buyer);
    expect(await buyer.json('deliverToBitticket')).toEqual({ delivery_completed: true });
    const sale = await saleOf(buyer);
    const paid = await ticketsOf(sale.id);
    expect(paid.map((ticket) => ticket.userId)).toEqual([listed.id]);

    // The other browsers come back to the link and to the transfers: the offer is bought, and there is nothing of theirs to move.
    for (const v of [forwarded, other.v]) {
      const again = await v.request({ method: 'GET', url: link, headers: HTML });
      expect([again.statusCode, again.body.includes(OFFER_BOUGHT_MESSAGE)]).toEqual([410, true]);
      expect((await v.checkout()).tickets).toEqual([]);
      const moved = await v.call('setTransfers', { transfers: [transferTo('mallory@example.test', typeId)] });
      expect([moved.statusCode, moved.json()]).toEqual([404, { error: TRANSFER_REFUSALS.noOrder }]);
    }
    expect(await ticketsOf(sale.id)).toEqual(paid);
    expect(await db().select().from(t.transfers).where(eq(t.transfers.saleId, sale.id))).toEqual([]);
    expect(
      (await db().select().from(t.payments).where(eq(t.payments.saleId, sale.id))).filter(
        (p) => p.status === 'succeeded',
      ),
    ).toHaveLength(1);
  });

  it('3. a queue place or admission cookie copied into other browsers gives them no turn, and an ended turn is not handed out again', async () => {
    const ADMISSION_SECONDS = 300;
    const { types, poolId } = await hotEvent(db(), { capacity: 20, types: 1 });
    const typeId = types[0]!.id;
    const dateId = types[0]!.eventDateId;
    const [date] = await db().select().from(t.eventDates).where(eq(t.eventDates.id, dateId));
    await db()
      .insert(t.eventDateQueues)
      .values({
        eventDateId: dateId,
        onSaleAt: new Date(w.clock.now.getTime() - 1000),
        maxShoppers: 100,
        admitPerMinute: 60,
        admissionSeconds: ADMISSION_SECONDS,
        pollSeconds: 2,
      });
    // The server reads its queues once a second.
    w.clock.advance(1000);
    const queued = () => browser({ accept: 'application/json' });
    const status = async (v: Visitor) =>
      queueStatus.parse((await v.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` })).json()).state;
    const join = async (v: Visitor) => {
      const joined = await v.request({
        method: 'POST',
        url: `/ajax/queue/${dateId}/join/`,
        body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
      });
      expect(joined.statusCode, joined.body).toBe(200);
    };
    const letIn = async (v: Visitor) => {
      for (let i = 0; i < 60 && (await status(v)) !== 'admitted'; i++) w.clock.advance(1000);
      expect(await status(v)).toBe('admitted');
    };
    const eventPage = (v: Visitor) => v.request({ method: 'GET', url: `/event/${date!.eventId}/`, headers: HTML });
    /** Another browser with the victim's cookies of this queue typed into its own jar, with a session of its own or none. */
    const thief = async (from: Visitor, names: string[], ownSession: boolean) => {
      const v = queued();
      if (ownSession) expect((await v.add({ [w.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
      const copied = names.map((name) => `${name}=${cookieOf(from, name)}`).join('; ');
      return {
        v,
        asked: () =>
          browser({ accept: 'application/json', cookie: [v.cookieHeader, copied].filter(Boolean).join('; ') }),
      };
    };

    const buyer = queued();
    await join(buyer);
    // A place copied before its turn: the copies are told they have no place, before and after the turn comes.
    const early = [await thief(buyer, [`hf_queue_${dateId}`], false), await thief(buyer, [`hf_queue_${dateId}`], true)];
    for (const copy of early) expect(await status(copy.asked())).toBe('no-place');
    await letIn(buyer);
    // Coming back to the queue page within the turn gives an admission that ends when the turn does, not later.
    w.clock.advance(60_000);
    const back = await buyer.request({ method: 'GET', url: `/queue/${dateId}/`, headers: HTML });
    expect(back.statusCode).toBeLessThan(400);
    for (const c of back.cookies as { name: string; maxAge?: number }[])
      if (c.name === `hf_admit_${dateId}`) expect(c.maxAge).toBeLessThanOrEqual(ADMISSION_SECONDS - 60);
    for (const copy of early) {
      const asked = copy.asked();
      expect(await status(asked)).toBe('no-place');
      expect(cookieOf(asked, `hf_admit_${dateId}`)).toBeUndefined();
    }
    // The admission and the place copied once the turn came, into any number of browsers: sent to the queue, refused the tickets.
    for (const own of [false, true, true]) {
      const copy = await thief(buyer, [`hf_queue_${dateId}`, `hf_admit_${dateId}`], own);
      const page = await eventPage(copy.asked());
      expect([page.statusCode, page.headers.location]).toEqual([303, `/queue/${dateId}/`]);
      const added = await copy.asked().add({ [typeId]: 1 });
      expect([added.statusCode, added.json()]).toEqual([
        403,
        { error: QUEUE_FIRST_MESSAGE, redirect: `/queue/${dateId}/` },
      ]);
      expect(await status(copy.asked())).toBe('no-place');
    }
    // The buyer whose turn it is reserves with it.
    expect((await buyer.add({ [typeId]: 1 })).statusCode).toBe(200);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true });

    // Another buyer's turn runs out: coming back to the queue page hands out no admission again.
    const late = queued();
    await join(late);
    await letIn(late);
    w.clock.advance(ADMISSION_SECONDS * 1000);
    const queuePage = await late.request({ method: 'GET', url: `/queue/${dateId}/`, headers: HTML });
    expect(queuePage.statusCode).toBe(200);
    expect(queuePage.body).toContain(admissionEndedMessage(ADMISSION_SECONDS / 60));
    expect((queuePage.cookies as { name: string }[]).map((c) => c.name)).not.toContain(`hf_admit_${dateId}`);
    expect(await status(late)).toBe('ended');
    const lateAdd = await late.add({ [typeId]: 1 });
    expect([lateAdd.statusCode, lateAdd.json()]).toEqual([
      403,
      { error: admissionEndedMessage(ADMISSION_SECONDS / 60), redirect: `/queue/${dateId}/` },
    ]);

    // Only the buyer's one ticket is held, and only their place reserved a sale.
    const places = await db().select().from(t.queuePlaces).where(eq(t.queuePlaces.eventDateId, dateId));
    expect(places.filter((p) => p.saleId !== null)).toHaveLength(1);
    const held = await db().select().from(t.holds).where(eq(t.holds.poolId, poolId));
    expect(held.reduce((sum, h) => sum + h.qty, 0)).toBe(1);
  });

  it('4. demo sign-in, the mailbox, the instalment run and test cards answer only a server started with DEMO=1, whatever NODE_ENV, HOST, proxy or URL', async () => {
    const target = await signedInBuyer('demo-target');
    await sendMail(
      db(),
      { transport: null, from: config.mailFrom },
      'Holdfast',
      { to: target.email, subject: 'Your code 918273', text: 'code 918273' },
      w.clock.now,
    );
    const sessionsBefore = await db().select().from(t.sessions).where(eq(t.sessions.userId, target.id));
    /** What each demo door answers on a server, from outside, through the proxy and as if from the proxy's own host. */
    async function doors(app: typeof w.app, demo: boolean) {
      const proxied: Record<string, string>[] = [
        {},
        { 'x-forwarded-for': '127.0.0.1' },
        { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' },
      ];
      for (const headers of proxied) {
        const v = new Visitor(app, headers);
        const signin = await v.request({ method: 'POST', url: '/signin/', body: `user_id=${target.id}` });
        const mailbox = await v.request({ method: 'GET', url: `/dev/mailbox?to=${encodeURIComponent(target.email)}` });
        const run = await v.request({
          method: 'POST',
          url: '/dev/instalments/run?as_of=2026-06-01T12:00:00Z',
          body: '',
        });
        const cardPage = await v.request({ method: 'GET', url: '/sandbox/card/?secret=x', headers: HTML });
        const card = await v.call('saveSandboxCard', CARD);
        if (demo) {
          expect(signin.statusCode).toBe(303);
          expect(mailbox.body).toContain('918273');
          expect(run.statusCode).toBe(200);
          expect(card.statusCode).toBe(200);
          continue;
        }
        expect(signin.statusCode).toBe(400);
        expect(signin.headers['set-cookie']).toBeUndefined();
        expect(await v.json('getUser')).toEqual({ user: null });
        expect([mailbox.statusCode, mailbox.body.includes('918273')]).toEqual([404, false]);
        expect([run.statusCode, run.json()]).toEqual([
          404,
          { error: 'Nothing is served at POST /dev/instalments/run' },
        ]);
        expect(cardPage.statusCode).toBe(404);
        expect([card.statusCode, card.json()]).toEqual([
          404,
          { error: 'Nothing is served at POST /sandbox/payment_methods/' },
        ]);
      }
    }
    await doors(w.app, !production);
    // The deployment of this attack exactly (no processor keys either), and the demo's own settings without DEMO=1: no demo mode.
    for (const env of [
      { ...BEHIND_PROXY, ...QUIET },
      { ...QUIET, NODE_ENV: 'development', HOST: '0.0.0.0' },
      { ...QUIET, DEMO: '0', NODE_ENV: 'test' },
    ]) {
      const started = parseConfig(env);
      expect(started.demo, JSON.stringify(env)).toBe(false);
      expect(demoModeLine(started)).toBe('Demo mode: off (DEMO=1 turns it on).');
      const other = await appOn(w.database, started);
      try {
        await doors(other.app, false);
        // Without keys, a test card is no way to pay either.
        const buyer = new Visitor(other.app, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.10' });
        const token = await buyer.call('getStripeToken');
        expect([token.statusCode, token.json()]).toEqual([409, { error: UNKEYED_MESSAGES.card }]);
      } finally {
        await other.app.close();
      }
    }
    expect(parseConfig({ ...BEHIND_PROXY, ...QUIET, DEMO: '1' }).demo).toBe(true);
    // No one was signed in as the target where demo mode is off.
    if (production)
      expect(await db().select().from(t.sessions).where(eq(t.sessions.userId, target.id))).toEqual(sessionsBefore);
  });

  it('5. a plan’s first instalment taken for a booking that then fails on a spent single-use code is refunded in full, with no plan and no booking', async () => {
    const code = `ONCE${randomUUID().slice(0, 8).toUpperCase()}`;
    await db().insert(t.discountCodes).values({ code, kind: 'percent', amount: 1000, usageLimit: 1 });
    const planBuyer = async (label: string) => {
      const buyer = await signedInBuyer(label);
      expect((await buyer.v.add({ [w.demo.plans.weekend]: 1 })).statusCode).toBe(200);
      expect(await buyer.v.json('setCode', { code })).toEqual({ code_applied: true });
      expect(await buyer.v.json('reserveTickets', {})).toMatchObject({ reserved: true });
      await buyer.v.json('updateBasketState', { state: 'payment' });
      return buyer;
    };
    // The first buyer holds the code's one use and begins a card payment, then lets the hold and its grace lapse.
    const late = await planBuyer('late-payer');
    const secret = String((await late.v.json('getStripeToken')).client_secret);
    w.clock.advance(3 * 3600_000);
    // The second takes the use that came free, and reserves with it.
    const planner = await planBuyer('planner');
    const sale = await saleOf(planner.v);
    // The late payment arrives: the stock is still free, so it is booked, spending the code.
    if (stripe) {
      const intent = [...stripe.intents.values()].find((i) => i.client_secret === secret)!;
      expect(await stripe.confirm(intent.id)).toMatchObject({ status: 'succeeded' });
    } else {
      const paid = await late.v.request({
        method: 'POST',
        url: '/sandbox/card/',
        body: new URLSearchParams({ secret, ...CARD }).toString(),
      });
      expect(paid.statusCode).toBe(303);
    }
    expect((await late.v.checkout()).payment_complete).toBe(true);

    // The plan: the card is charged, then the booking fails on the spent code.
    let card: Record<string, unknown>;
    if (stripe) {
      const setup = (await planner.v.json('createPlanSetupIntent')) as { client_secret: string };
      const intent = [...stripe.setupIntents.values()].find((i) => i.client_secret === setup.client_secret)!;
      expect(await stripe.confirmSetup(intent.id, '4242 4242 4242 4242')).toMatchObject({ status: 'succeeded' });
      card = { setup_intent: { id: intent.id, make_default_payment_method: 'false' } };
    } else {
      card = { new_payment_method: await planner.v.json('saveSandboxCard', CARD) };
    }
    const res = await planner.v.call('payWithInstalment', {
      instalment_option: '2',
      contact_number: PHONE,
      ...card,
    } as never);
    expect([res.statusCode, res.json()]).toEqual([200, { status: 'unsuccessful', url: null }]);
    expect(await planner.v.json('getPaymentError')).toMatchObject({ payment_error: INSTALMENT_MESSAGES.refunded });
    expect((await planner.v.checkout()).payment_complete).toBe(false);

    // No plan, no booking, and what was taken is a payment refunded in full.
    expect(await db().select().from(t.instalmentPlans).where(eq(t.instalmentPlans.saleId, sale.id))).toEqual([]);
    expect((await db().select().from(t.sales).where(eq(t.sales.id, sale.id)))[0]!.paidAt).toBeNull();
    expect(await ticketsOf(sale.id)).toEqual([]);
    const taken = await db().select().from(t.payments).where(eq(t.payments.saleId, sale.id));
    expect(taken).toHaveLength(1);
    const refunds = await db().select().from(t.paymentRefunds).where(eq(t.paymentRefunds.paymentId, taken[0]!.id));
    expect(refunds).toMatchObject([{ amount: taken[0]!.amount, status: 'done' }]);
    if (stripe) {
      const charged = [...stripe.intents.values()].filter(
        (i) => i.metadata.sale_id === sale.id || i.id === taken[0]!.providerPaymentId,
      );
      expect(charged.map((i) => i.amount)).toEqual([taken[0]!.amount]);
      expect(stripe.refunds.filter((r) => r.payment_intent === taken[0]!.providerPaymentId)).toEqual([
        expect.objectContaining({ amount: taken[0]!.amount }),
      ]);
    } else {
      const charged = await db()
        .select()
        .from(t.sandboxCharges)
        .where(eq(t.sandboxCharges.id, taken[0]!.providerPaymentId!));
      expect(charged.map((c) => [c.amount, c.status])).toEqual([[taken[0]!.amount, 'refunded']]);
    }
  });

  it('6. booking through one’s own share link, free or with unproven extra addresses, rewards no one; the link is on the site’s own address', async () => {
    const referrer = await signedInBuyer('referrer');
    await buy(referrer.v, { [w.demo.tickets.jazzGeneral]: 1 });
    const res = await referrer.v.call('getRewardReferrerLink', undefined, {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
    });
    expect(res.statusCode).toBe(200);
    const link = new URL(res.json() as string);
    expect(link.origin).toBe(new URL(config.publicUrl).origin);
    const share = (eventId: number) => `/event/${eventId}/${link.search}`;

    // The referral cookie comes only from the event page and a code that verifies.
    const forgedCode = link.searchParams.get('ref')!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    for (const url of [
      `/all-events/${link.search}`,
      `/checkout/${link.search}`,
      `/event/${w.demo.events.openDay}/?ref=${encodeURIComponent(forgedCode)}`,
      `/event/${w.demo.events.openDay}/?ref=${referrer.id}`,
    ]) {
      const v = browser(HTML);
      await v.request({ method: 'GET', url });
      expect(cookieOf(v, 'hf_ref'), url).toBeUndefined();
    }

    // Free tickets through the referrer's own link, each with an extra address nobody proved; then a paid one with another.
    const extras = [1, 2, 3].map((i) => address(`extra${i}`));
    for (const email of extras) {
      const v = browser();
      await v.request({ method: 'GET', url: share(w.demo.events.openDay), headers: HTML });
      expect(cookieOf(v, 'hf_ref')).toBeTruthy();
      expect((await v.add({ [w.demo.tickets.freeEntry]: 1 })).statusCode).toBe(200);
      expect(await v.json('reserveTickets', {})).toMatchObject({ reserved: true });
      expect(
        (await v.call('setAccountDetails', { fullname: 'Extra Referrer', email, ct_subscribed: 'false' } as never))
          .statusCode,
      ).toBe(200);
      expect(await v.json('claimFreeTickets')).toEqual({ success: true });
      await v.call('deliverToBitticket');
      await v.call('deliverToWallet');
    }
    const unproven = browser();
    await unproven.request({ method: 'GET', url: share(w.demo.events.jazz), headers: HTML });
    expect((await unproven.add({ [w.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    expect(await unproven.json('reserveTickets', {})).toMatchObject({ reserved: true });
    expect(
      (
        await unproven.call('setAccountDetails', {
          fullname: 'Extra Referrer',
          email: address('extra-paid'),
          ct_subscribed: 'false',
        } as never)
      ).statusCode,
    ).toBe(200);
    await payByCard(unproven);
    await unproven.call('deliverToBitticket');
    await unproven.call('deliverToWallet');
    // And the referrer's own purchases through the link, free and paid.
    await referrer.v.request({ method: 'GET', url: share(w.demo.events.openDay), headers: HTML });
    await buy(referrer.v, { [w.demo.tickets.freeEntry]: 1 });
    await referrer.v.request({ method: 'GET', url: share(w.demo.events.jazz), headers: HTML });
    await buy(referrer.v, { [w.demo.tickets.jazzGeneral]: 1 });

    const rewards = () =>
      db().select().from(t.referralRewards).where(eq(t.referralRewards.referrerUserId, referrer.id));
    const rewardMails = () =>
      db()
        .select()
        .from(t.outbox)
        .where(and(eq(t.outbox.recipient, referrer.email), like(t.outbox.subject, 'A friend booked %')));
    expect(await rewards()).toEqual([]);
    expect(await rewardMails()).toEqual([]);
    for (const email of extras) expect(await db().select().from(t.users).where(eq(t.users.email, email))).toEqual([]);

    // A different buyer, proven by their code, who pays through the link: the one reward.
    const friend = await signedInBuyer('friend');
    await friend.v.request({ method: 'GET', url: share(w.demo.events.jazz), headers: HTML });
    await buy(friend.v, { [w.demo.tickets.jazzGeneral]: 1 });
    expect((await rewards()).map((r) => r.referredEmail)).toEqual([friend.email]);
    expect(await rewardMails()).toHaveLength(1);
  });

  it('7. details for an address nobody proved make no account: refused where there is no express checkout, carried for delivery only where there is; the mailing list asks first', async () => {
    const victim = address('not-yet-a-customer');
    const noAccount = async () =>
      expect(await db().select().from(t.users).where(eq(t.users.email, victim))).toEqual([]);
    // Where the checkout offers no express checkout: refused, the sale names no one.
    const noExpress = browser();
    expect((await noExpress.add({ [w.demo.tickets.trail10k]: 1 })).statusCode).toBe(200);
    expect(await noExpress.json('reserveTickets', {})).toMatchObject({ reserved: true });
    expect((await noExpress.checkout()).express).toBe(false);
    const refused = await noExpress.call('setAccountDetails', {
      fullname: 'Victor Victim',
      email: victim,
      contact_number: PHONE,
      ct_subscribed: 'true',
    } as never);
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { error: PROVE_ADDRESS_FIRST_MESSAGE, type: 'sign_in' },
    ]);
    expect(await saleOf(noExpress)).toMatchObject({ userId: null, buyerEmail: null, buyerName: null });
    await noAccount();

    // At express checkout the address is carried for delivery, and no account is made or signed in.
    const express = browser();
    expect((await express.add({ [w.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    expect(await express.json('reserveTickets', {})).toMatchObject({ reserved: true });
    expect(
      (
        await express.call('setAccountDetails', {
          fullname: 'Victor Victim',
          email: victim,
          ct_subscribed: 'true',
        } as never)
      ).statusCode,
    ).toBe(200);
    expect(await express.json('getUser')).toEqual({ user: null });
    expect((await saleOf(express)).userId).toBeNull();
    await noAccount();

    // The mailing list e-mails the address a link, and lists no one until it is confirmed.
    const signUp = await browser(HTML).request({
      method: 'POST',
      url: '/mailing-list',
      body: new URLSearchParams({ email: victim }).toString(),
    });
    expect(signUp.statusCode).toBe(200);
    expect(signUp.body).toContain('until then you are not on the list');
    expect(await db().select().from(t.mailingList).where(eq(t.mailingList.email, victim))).toEqual([]);
    await noAccount();

    // The address's holder, signing in with its code later, finds no account made for them by anyone.
    const holder = browser();
    expect((await holder.call('sendOneTimeCode', { email: victim })).statusCode).toBe(200);
    expect(await holder.json('checkOneTimeCode', { email: victim, code: await codeSentTo(db(), victim) })).toEqual({
      has_account: false,
    });
    await noAccount();
  });

  it('8. TrueLayer’s webhook signed more than five minutes ago is refused and settles nothing', async () => {
    const buyer = await signedInBuyer('bank-payer');
    const { types, poolId } = await hotEvent(db(), { capacity: 5, types: 1 });
    expect((await buyer.v.add({ [types[0]!.id]: 1 })).statusCode).toBe(200);
    expect(await buyer.v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const { auth_url } = (await buyer.v.json('payWithTruelayer', { contact_number: PHONE })) as { auth_url: string };
    const paymentId = new URLSearchParams(new URL(auth_url).hash.slice(1)).get('payment_id')!;
    const body = JSON.stringify({
      type: 'payment_executed',
      event_id: `ev-attack-${paymentId}-${kind}`,
      payment_id: paymentId,
    });
    const at = (ms: number) => new Date(w.clock.now.getTime() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const webhook = (timestamp: string) =>
      browser().request({
        method: 'POST',
        url: `${WEBHOOK_PATH}/`,
        body,
        headers: {
          'content-type': 'application/json',
          'x-tl-webhook-timestamp': timestamp,
          'tl-signature': signAsTruelayer(theirs.privateKey, timestamp, body),
        },
      });
    for (const timestamp of [at(-6 * 60_000), at(-24 * 3600_000), at(6 * 60_000), 'yesterday']) {
      const res = await webhook(timestamp);
      expect([res.statusCode, res.json()], timestamp).toEqual([400, { error: TRUELAYER_WEBHOOK_MESSAGES.stale }]);
    }
    // A fresh time with the old signature, or no signature that parses, is refused as not TrueLayer's.
    const old = at(-6 * 60_000);
    for (const signature of [signAsTruelayer(theirs.privateKey, old, body), 'not-a-signature', '']) {
      const res = await browser().request({
        method: 'POST',
        url: `${WEBHOOK_PATH}/`,
        body,
        headers: { 'content-type': 'application/json', 'x-tl-webhook-timestamp': at(0), 'tl-signature': signature },
      });
      expect([res.statusCode, res.json()], signature).toEqual([400, { error: TRUELAYER_WEBHOOK_MESSAGES.signature }]);
    }
    expect((await db().select().from(t.capacityPools).where(eq(t.capacityPools.id, poolId)))[0]!.sold).toBe(0);
    expect(
      await db()
        .select()
        .from(t.paymentWebhookEvents)
        .where(like(t.paymentWebhookEvents.eventId, `%ev-attack-${paymentId}-${kind}`)),
    ).toEqual([]);
    expect((await buyer.v.checkout()).payment_complete).toBe(false);
    // Sent within the five minutes, the same webhook is taken: the refusal above is its age alone.
    expect((await webhook(at(-4 * 60_000))).statusCode).toBe(200);
    expect((await buyer.v.checkout()).payment_complete).toBe(true);
  });

  it('8. get_token for a card the checkout does not offer is refused and starts no payment', async () => {
    const square = await signedInBuyer('square-buyer');
    expect((await square.v.add({ [w.demo.square.stalls]: 1 })).statusCode).toBe(200);
    expect(await square.v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const { types } = await hotEvent(db(), { capacity: 5, types: 1 });
    await db().update(t.ticketTypes).set({ price: 200_000 }).where(eq(t.ticketTypes.id, types[0]!.id));
    const dear = await signedInBuyer('dear-buyer');
    expect((await dear.v.add({ [types[0]!.id]: 1 })).statusCode).toBe(200);
    expect(await dear.v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    for (const buyer of [square, dear]) {
      const res = await buyer.v.call('getStripeToken');
      expect([res.statusCode, res.json()]).toEqual([409, { error: PAYMENT_MESSAGES.cardNotOffered }]);
      const sale = await saleOf(buyer.v);
      expect(await db().select().from(t.payments).where(eq(t.payments.saleId, sale.id))).toEqual([]);
      if (stripe) expect([...stripe.intents.values()].filter((i) => i.metadata.sale_id === sale.id)).toEqual([]);
    }
  });

  it('8. a sale with no buyer named (login and express skipped) is refused every payment', async () => {
    const { types } = await hotEvent(db(), { capacity: 5, types: 1 });
    const guest = browser();
    expect((await guest.add({ [types[0]!.id]: 1 })).statusCode).toBe(200);
    expect(await guest.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await guest.json('updateBasketState', { state: 'payment' });
    for (const call of ['getStripeToken', 'payWithTruelayer', 'createTruelayerPayment'] as const) {
      const res = await guest.call(call, (call === 'payWithTruelayer' ? { contact_number: PHONE } : {}) as never);
      expect([res.statusCode, res.json()], call).toEqual([409, { error: PAYMENT_MESSAGES.noBuyer }]);
    }
    const sale = await saleOf(guest);
    expect(await db().select().from(t.payments).where(eq(t.payments.saleId, sale.id))).toEqual([]);
    if (stripe) expect([...stripe.intents.values()].filter((i) => i.metadata.sale_id === sale.id)).toEqual([]);
    expect((await guest.checkout()).payment_complete).toBe(false);
  });

  it('8. a payment key is never reused for another amount: a basket grown after its payment began is charged its new total, and the old payment books nothing', async () => {
    const buyer = await signedInBuyer('grower');
    const { types, poolId } = await hotEvent(db(), { capacity: 10, types: 1 });
    const typeId = types[0]!.id;
    const price = types[0]!.price;
    expect((await buyer.v.add({ [typeId]: 1 })).statusCode).toBe(200);
    expect(await buyer.v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const first = String((await buyer.v.json('getStripeToken')).client_secret);
    // The basket grows to three after the payment began.
    expect((await buyer.v.add({ [typeId]: 2 })).statusCode).toBe(200);
    expect(await buyer.v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const second = await buyer.v.call('getStripeToken');
    expect(second.statusCode).toBe(200);
    const secret = String((second.json() as { client_secret: string }).client_secret);
    expect(secret).not.toBe(first);
    const sale = await saleOf(buyer.v);
    const rows = await db().select().from(t.payments).where(eq(t.payments.saleId, sale.id)).orderBy(t.payments.id);
    expect(rows.map((p) => p.amount)).toEqual([price, 3 * price]);
    expect(new Set(rows.map((p) => p.idempotencyKey)).size).toBe(2);
    if (stripe) {
      // Stripe was asked each key with one amount only.
      const asked = stripe.requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path === '/v1/payment_intents' &&
          (r.params.metadata as { sale_id?: string } | undefined)?.sale_id === sale.id,
      );
      const amounts = new Map<string, Set<unknown>>();
      for (const r of asked)
        amounts.set(
          r.headers['idempotency-key']!,
          (amounts.get(r.headers['idempotency-key']!) ?? new Set()).add(r.params.amount),
        );
      expect([...amounts.values()].map((s) => s.size)).toEqual([1, 1]);
    }
    // The first payment, for one ticket, taken late: three tickets are not booked for it.
    if (stripe) {
      const intent = [...stripe.intents.values()].find((i) => i.client_secret === first)!;
      await stripe.confirm(intent.id);
      expect(stripe.refunds.filter((r) => r.payment_intent === intent.id)).toEqual([
        expect.objectContaining({ amount: price }),
      ]);
    } else {
      const paid = await buyer.v.request({
        method: 'POST',
        url: '/sandbox/card/',
        body: new URLSearchParams({ secret: first, ...CARD }).toString(),
      });
      expect(paid.statusCode).toBeGreaterThanOrEqual(400);
      expect(paid.statusCode).toBeLessThan(500);
    }
    expect((await buyer.v.checkout()).payment_complete).toBe(false);
    expect((await db().select().from(t.capacityPools).where(eq(t.capacityPools.id, poolId)))[0]!.sold).toBe(0);
    // The second, for the three, books them.
    if (stripe) await stripe.confirm([...stripe.intents.values()].find((i) => i.client_secret === secret)!.id);
    else
      expect(
        (
          await buyer.v.request({
            method: 'POST',
            url: '/sandbox/card/',
            body: new URLSearchParams({ secret, ...CARD }).toString(),
          })
        ).statusCode,
      ).toBe(303);
    expect((await buyer.v.checkout()).payment_complete).toBe(true);
    expect((await db().select().from(t.capacityPools).where(eq(t.capacityPools.id, poolId)))[0]!.sold).toBe(3);
  });

  it.runIf(kind === 'demo')(
    '8. a plan’s first instalment confirmed by the bank after the basket grew is not charged or booked on the smaller total',
    async () => {
      const buyer = await signedInBuyer('plan-grower');
      expect((await buyer.v.add({ [w.demo.plans.weekend]: 1 })).statusCode).toBe(200);
      expect(await buyer.v.json('reserveTickets', {})).toMatchObject({ reserved: true });
      await buyer.v.json('updateBasketState', { state: 'payment' });
      const one = (await buyer.v.checkout()).basket_total;
      const card = (await buyer.v.json('saveSandboxCard', { ...CARD, number: SANDBOX_CARDS.challenge })) as {
        id: string;
      };
      const plan = () =>
        buyer.v.call('payWithInstalment', {
          instalment_option: '2',
          contact_number: PHONE,
          new_payment_method: card,
        } as never);
      expect((await plan()).json()).toEqual({ status: 'redirect_to_url', url: '/sandbox/plan/authenticate/' });
      const sale = await saleOf(buyer.v);
      // The basket grows to four while the bank is asked; then the bank approves the plan set up for one.
      expect((await buyer.v.add({ [w.demo.plans.weekend]: 3 })).statusCode).toBe(200);
      expect(await buyer.v.json('reserveTickets', {})).toMatchObject({ reserved: true });
      const four = (await buyer.v.checkout()).basket_total;
      expect(four).toBe(4 * one);
      const back = await buyer.v.request({
        method: 'POST',
        url: '/sandbox/plan/authenticate/',
        body: 'decision=approve',
      });
      expect([back.statusCode, back.headers.location]).toEqual([303, '/checkout/']);
      expect(await buyer.v.json('getPaymentError')).toMatchObject({ payment_error: BASKET_CHANGED_MESSAGE });
      expect((await buyer.v.checkout()).payment_complete).toBe(false);
      expect(await db().select().from(t.instalmentPlans).where(eq(t.instalmentPlans.saleId, sale.id))).toEqual([]);
      expect(await db().select().from(t.sandboxCharges).where(eq(t.sandboxCharges.cardId, card.id))).toEqual([]);
      expect((await db().select().from(t.sales).where(eq(t.sales.id, sale.id)))[0]!.paidAt).toBeNull();

      // Set up again, the plan is for the four, and its first charge is half of their total.
      expect((await plan()).json()).toEqual({ status: 'redirect_to_url', url: '/sandbox/plan/authenticate/' });
      expect(
        (await buyer.v.request({ method: 'POST', url: '/sandbox/plan/authenticate/', body: 'decision=approve' }))
          .statusCode,
      ).toBe(303);
      expect((await buyer.v.checkout()).payment_complete).toBe(true);
      expect(
        (await db().select().from(t.instalmentPlans).where(eq(t.instalmentPlans.saleId, sale.id))).map((p) => [
          p.total,
          p.status,
        ]),
      ).toEqual([[four, 'active']]);
      expect(
        (await db().select().from(t.sandboxCharges).where(eq(t.sandboxCharges.cardId, card.id))).map((c) => [
          c.amount,
          c.status,
        ]),
      ).toEqual([[four / 2, 'succeeded']]);
    },
  );
});
