/**
 * Stripe through its SDK, against a local stand-in for Stripe's API (e2e/fakeStripe.ts, a real
 * HTTP server on an ephemeral port): the requests the SDK sends (form-encoded, Bearer secret key,
 * Idempotency-Key), the webhook signature scheme (t=…,v1=HMAC-SHA256 of "t.payload") checked by
 * the SDK, and the signed webhook as the source of truth, replayed with one effect.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { parseConfig, paymentSettings, testConfig } from '../config.ts';
import { openTestDatabase } from '../db/testing.ts';
import type { OpenDatabase } from '../db/index.ts';
import { capacityPools, payments } from '../db/schema.ts';
import { drivers } from '../test/harness.ts';
import { hotEvent, signedInVisitor } from '../test/fixtures.ts';
import { paymentWiring } from './payment.ts';
import { signWebhook, stripeProcessor, verifyWebhook, WEBHOOK_MESSAGES, WEBHOOK_TOLERANCE_SECONDS } from './stripe.ts';
import { startFakeStripe, type FakeIntent, type FakeStripe } from '../../e2e/fakeStripe.ts';

const SECRET = 'whsec_test_holdfast';
const KEYS = {
  STRIPE_PUBLISHABLE_KEY: 'pk_test_holdfast',
  STRIPE_SECRET_KEY: 'sk_test_holdfast',
  STRIPE_WEBHOOK_SECRET: SECRET,
};
const DECLINED = '4000000000000002';

describe('Stripe requests through the SDK', () => {
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: 'sk_test_1' });
  });
  afterAll(() => fake?.close());
  const processor = () =>
    stripeProcessor({
      publishableKey: 'pk_test_1',
      secretKey: 'sk_test_1',
      apiBase: { protocol: 'http', host: '127.0.0.1', port: fake.port },
    });

  it('creates a PaymentIntent form-encoded, with the secret key and the idempotency key; the same key creates no second one', async () => {
    const created = await processor().createPayment({
      amount: 1760,
      currency: 'GBP',
      idempotencyKey: 'sale-1:2',
      saleId: 'sale-1',
    });
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/payment_intents' });
    expect(request!.headers).toMatchObject({
      authorization: 'Bearer sk_test_1',
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': 'sale-1:2',
    });
    expect(request!.params).toEqual({
      amount: '1760',
      currency: 'gbp',
      allowed_payment_method_types: ['card'],
      metadata: { sale_id: 'sale-1' },
    });
    const intent = fake.intents.get(created.id)!;
    expect(intent).toMatchObject({
      amount: 1760,
      currency: 'gbp',
      status: 'requires_payment_method',
      metadata: { sale_id: 'sale-1' },
    });
    expect(created.clientSecret).toBe(intent.client_secret);

    const again = await processor().createPayment({
      amount: 1760,
      currency: 'GBP',
      idempotencyKey: 'sale-1:2',
      saleId: 'sale-1',
    });
    expect(again).toEqual(created);
    expect(fake.intents.size).toBe(1);
  });

  it('refunds a PaymentIntent in full under its own idempotency key', async () => {
    const created = await processor().createPayment({
      amount: 1760,
      currency: 'GBP',
      idempotencyKey: 'sale-2:1',
      saleId: 'sale-2',
    });
    await fake.confirm(created.id);
    await processor().refund({ paymentId: created.id, amount: 1760, idempotencyKey: 'refund:sale-2:1' });
    await processor().refund({ paymentId: created.id, amount: 1760, idempotencyKey: 'refund:sale-2:1' });
    const sent = fake.requests.filter((r) => r.path === '/v1/refunds');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.headers['idempotency-key']).toBe('refund:sale-2:1');
    expect(sent[0]!.params).toEqual({ payment_intent: created.id, amount: '1760' });
    // The retry under the same key is Stripe's first answer, not a second refund.
    expect(fake.refunds).toEqual([expect.objectContaining({ payment_intent: created.id, amount: 1760 })]);
  });

  it('reads a PaymentIntent back: taken, declined with Stripe’s words, or none', async () => {
    const p = processor();
    const taken = await p.createPayment({ amount: 900, currency: 'GBP', idempotencyKey: 'sale-3:1', saleId: 'sale-3' });
    expect(await p.retrieve(taken.id)).toEqual({
      status: 'requires_action',
      amount: 900,
      currency: 'gbp',
      failureMessage: null,
    });
    await fake.confirm(taken.id);
    expect(await p.retrieve(taken.id)).toEqual({
      status: 'succeeded',
      amount: 900,
      currency: 'gbp',
      failureMessage: null,
    });
    const declined = await p.createPayment({
      amount: 900,
      currency: 'GBP',
      idempotencyKey: 'sale-3:2',
      saleId: 'sale-3',
    });
    await fake.confirm(declined.id, DECLINED);
    expect(await p.retrieve(declined.id)).toEqual({
      status: 'failed',
      amount: 900,
      currency: 'gbp',
      failureMessage: 'Your card was declined.',
    });
    expect(await p.retrieve('pi_unknown')).toBeNull();
    expect(
      fake.requests.filter((r) => r.method === 'GET').every((r) => r.headers.authorization === 'Bearer sk_test_1'),
    ).toBe(true);
  });

  it('cancels an open PaymentIntent, twice without harm, and is refused one already taken', async () => {
    const p = processor();
    const open = await p.createPayment({ amount: 500, currency: 'GBP', idempotencyKey: 'sale-4:1', saleId: 'sale-4' });
    await p.cancel!(open.id);
    expect(fake.intents.get(open.id)!.status).toBe('canceled');
    await p.cancel!(open.id);
    expect(fake.requests.filter((r) => r.path === `/v1/payment_intents/${open.id}/cancel`)).toHaveLength(2);
    // A cancelled intent takes no card.
    expect(await fake.confirm(open.id)).toMatchObject({ error: { code: 'payment_intent_unexpected_state' } });

    const taken = await p.createPayment({ amount: 500, currency: 'GBP', idempotencyKey: 'sale-4:2', saleId: 'sale-4' });
    await fake.confirm(taken.id);
    await expect(p.cancel!(taken.id)).rejects.toThrow(/status of succeeded/);
    expect(fake.intents.get(taken.id)!.status).toBe('succeeded');
  });

  it('is refused with another secret key', async () => {
    const other = stripeProcessor({
      publishableKey: 'pk_test_1',
      secretKey: 'sk_test_other',
      apiBase: { protocol: 'http', host: '127.0.0.1', port: fake.port },
    });
    await expect(
      other.createPayment({ amount: 500, currency: 'GBP', idempotencyKey: 'sale-5:1', saleId: 'sale-5' }),
    ).rejects.toThrow(/Invalid API Key/);
  });
});

describe('STRIPE_API_BASE', () => {
  const keyed = { STRIPE_PUBLISHABLE_KEY: 'pk_test_1', STRIPE_SECRET_KEY: 'sk_test_1' };
  it('names the host, port and protocol the SDK sends to; Stripe’s own when unset', () => {
    expect(paymentSettings({ ...keyed, STRIPE_API_BASE: 'http://127.0.0.1:4599' }).stripe!.apiBase).toEqual({
      protocol: 'http',
      host: '127.0.0.1',
      port: 4599,
    });
    expect(paymentSettings({ ...keyed, STRIPE_API_BASE: 'https://stripe.internal/' }).stripe!.apiBase).toEqual({
      protocol: 'https',
      host: 'stripe.internal',
      port: 443,
    });
    expect(paymentSettings(keyed).stripe!.apiBase).toBeNull();
  });
  it('stops the start when it is not an http(s) origin', () => {
    for (const bad of ['ftp://127.0.0.1', '127.0.0.1:4599', 'http://127.0.0.1:4599/v1']) {
      expect(() => paymentSettings({ ...keyed, STRIPE_API_BASE: bad }), bad).toThrow(
        /^Invalid configuration\. STRIPE_API_BASE: /,
      );
    }
  });
});

describe('Stripe webhook signatures', () => {
  const payload = '{"id":"evt_1","type":"payment_intent.succeeded"}';
  const now = new Date('2026-06-01T12:00:00Z');
  const t = Math.floor(now.getTime() / 1000);

  it('accepts Stripe’s scheme: v1 is the hex HMAC-SHA256 of "t.payload" with the endpoint secret', () => {
    const v1 = createHmac('sha256', SECRET).update(`${t}.${payload}`).digest('hex');
    expect(signWebhook(payload, SECRET, t)).toBe(`t=${t},v1=${v1}`);
    expect(verifyWebhook(payload, `t=${t},v1=${v1}`, SECRET, now)).toBe(true);
    // Several signatures (a secret being rolled): one matching is enough.
    expect(verifyWebhook(payload, `t=${t},v1=${'0'.repeat(64)},v1=${v1}`, SECRET, now)).toBe(true);
  });

  it('refuses another secret, a changed body, a missing header and an old timestamp', () => {
    expect(verifyWebhook(payload, signWebhook(payload, 'whsec_other', t), SECRET, now)).toBe(false);
    expect(verifyWebhook(payload.replace('1', '2'), signWebhook(payload, SECRET, t), SECRET, now)).toBe(false);
    expect(verifyWebhook(payload, undefined, SECRET, now)).toBe(false);
    expect(verifyWebhook(payload, signWebhook(payload, SECRET, t - WEBHOOK_TOLERANCE_SECONDS - 1), SECRET, now)).toBe(
      false,
    );
  });
});

describe.each(drivers)('paying with Stripe on %s', (driver) => {
  let database: OpenDatabase;
  let app: FastifyInstance;
  let fake: FakeStripe;
  const clock = { now: new Date('2026-06-01T12:00:00Z') };

  beforeAll(async () => {
    database = await openTestDatabase(driver, 4);
    fake = await startFakeStripe({
      secretKey: KEYS.STRIPE_SECRET_KEY,
      publishableKey: KEYS.STRIPE_PUBLISHABLE_KEY,
      clock: () => clock.now.getTime(),
      webhook: {
        secret: SECRET,
        deliver: async (payload, signature) =>
          (
            await app.inject({
              method: 'POST',
              url: '/ajax/checkout/stripe/webhook/',
              payload,
              headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            })
          ).statusCode,
      },
    });
    app = await buildApp({
      db: database.db,
      config: testConfig(),
      clock: () => clock.now,
      logger: false,
      payment: paymentWiring(parseConfig({ ...KEYS, STRIPE_API_BASE: fake.url })),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    await database?.close();
  });

  function webhook(payload: string, secret = SECRET) {
    return app.inject({
      method: 'POST',
      url: '/ajax/checkout/stripe/webhook/',
      payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signWebhook(payload, secret, Math.floor(clock.now.getTime() / 1000)),
      },
    });
  }
  const event = (type: string, object: object) =>
    JSON.stringify({ id: `evt_${type}`, object: 'event', type, data: { object } });

  async function reserved(qty: number) {
    const { poolId, types } = await hotEvent(database.db, { capacity: 5, types: 1 });
    const buyer = await signedInVisitor(app, database.db);
    await buyer.add({ [types[0]!.id]: qty });
    await buyer.json('reserveTickets', {});
    return { buyer, poolId, price: types[0]!.price };
  }
  const intentFor = (clientSecret: unknown): FakeIntent =>
    [...fake.intents.values()].find((i) => i.client_secret === clientSecret)!;
  const soldIn = async (poolId: number) =>
    (await database.db.select({ sold: capacityPools.sold }).from(capacityPools).where(eq(capacityPools.id, poolId)))[0]!
      .sold;
  const paymentOf = async (id: string) =>
    (await database.db.select().from(payments).where(eq(payments.providerPaymentId, id)))[0]!;

  it('a keyed card payment: get_token creates the PaymentIntent at Stripe, the card is confirmed there, and Stripe’s signed webhook books it', async () => {
    const { buyer, poolId, price } = await reserved(2);
    const token = await buyer.json('getStripeToken');
    expect(token.public_key).toBe('pk_test_holdfast');
    const intent = intentFor(token.client_secret);
    expect(intent).toMatchObject({ amount: 2 * price, currency: 'gbp', status: 'requires_payment_method' });
    expect(await paymentOf(intent.id)).toMatchObject({
      provider: 'stripe',
      status: 'requires_payment_method',
      amount: 2 * price,
    });

    // The buyer's card, as Stripe.js confirms it; Stripe then sends payment_intent.succeeded.
    expect(await fake.confirm(intent.id)).toMatchObject({ status: 'succeeded' });
    expect(fake.deliveries.filter((d) => d.intent === intent.id)).toEqual([
      { type: 'payment_intent.succeeded', intent: intent.id, status: 200 },
    ]);
    expect(await soldIn(poolId)).toBe(2);
    expect(await paymentOf(intent.id)).toMatchObject({ status: 'succeeded', outcome: 'booked' });
    const checkout = await buyer.checkout();
    expect(checkout.payment_complete).toBe(true);

    // Stripe.js then leaves for the card return, which finds it settled.
    const back = await buyer.request({
      method: 'GET',
      url: `/do/checkout/stripe_auth/?payment_intent=${intent.id}&redirect_status=succeeded`,
    });
    expect(back.statusCode).toBe(303);
    expect(await soldIn(poolId)).toBe(2);
    expect(fake.refunds.filter((r) => r.payment_intent === intent.id)).toEqual([]);
  });

  it('get_token creates one PaymentIntent per sale and attempt; the signed webhook books it once', async () => {
    const { buyer, poolId, price } = await reserved(2);
    const before = fake.requests.length;
    const tokens = await Promise.all(Array.from({ length: 5 }, () => buyer.json('getStripeToken')));
    const secrets = new Set(tokens.map((t) => t.client_secret));
    expect(secrets.size).toBe(1);
    const creates = fake.requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(creates.length).toBeGreaterThanOrEqual(1);
    expect(new Set(creates.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(creates[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}:1$/);
    expect(creates[0]!.params).toMatchObject({
      amount: String(2 * price),
      currency: 'gbp',
      metadata: { sale_id: expect.any(String) },
    });
    const intent = intentFor([...secrets][0]);
    expect([...fake.intents.values()].filter((i) => i.metadata.sale_id === intent.metadata.sale_id)).toHaveLength(1);

    await fake.confirm(intent.id, '4242424242424242', { deliver: false });
    const succeeded = event('payment_intent.succeeded', { ...intent });
    expect((await webhook(succeeded, 'whsec_wrong')).statusCode).toBe(400);
    for (let i = 0; i < 5; i++) expect((await webhook(succeeded)).statusCode).toBe(200);
    expect(await soldIn(poolId)).toBe(2);
    expect(await paymentOf(intent.id)).toMatchObject({ provider: 'stripe', status: 'succeeded', outcome: 'booked' });
    expect((await buyer.checkout()).payment_complete).toBe(true);
  });

  it('the card return reads the PaymentIntent through the SDK when the webhook has not arrived, and the webhook after it changes nothing', async () => {
    const { buyer, poolId, price } = await reserved(1);
    const intent = intentFor((await buyer.json('getStripeToken')).client_secret);
    await fake.confirm(intent.id, '4242424242424242', { deliver: false });
    const before = fake.requests.length;
    const back = await buyer.request({
      method: 'GET',
      url: `/do/checkout/stripe_auth/?payment_intent=${intent.id}&redirect_status=succeeded`,
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/checkout/');
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
      `GET /v1/payment_intents/${intent.id} Bearer sk_test_holdfast`,
    ]);
    expect((await buyer.checkout()).payment_complete).toBe(true);
    expect(
      (await webhook(event('payment_intent.succeeded', { id: intent.id, amount: price, currency: 'gbp' }))).statusCode,
    ).toBe(200);
    expect(await soldIn(poolId)).toBe(1);
  });

  it('a card declined at Stripe is told by its webhook; the same intent taken later from an old tab is refunded through the SDK', async () => {
    const { buyer, poolId, price } = await reserved(1);
    const intent = intentFor((await buyer.json('getStripeToken')).client_secret);
    expect(await fake.confirm(intent.id, DECLINED)).toMatchObject({
      error: { code: 'card_declined', message: 'Your card was declined.' },
    });
    expect(fake.deliveries.filter((d) => d.intent === intent.id)).toEqual([
      { type: 'payment_intent.payment_failed', intent: intent.id, status: 200 },
    ]);
    expect(await paymentOf(intent.id)).toMatchObject({ status: 'failed', failureMessage: 'Your card was declined.' });
    expect((await buyer.json('getPaymentError')).payment_error).toBe('Your card was declined.');

    // The declined intent confirmed again with a good card: that money is for a closed attempt.
    expect(await fake.confirm(intent.id)).toMatchObject({ status: 'succeeded' });
    const refund = fake.requests.find((r) => r.path === '/v1/refunds' && r.params.payment_intent === intent.id);
    expect(refund?.headers['idempotency-key']).toBe(`refund:${(await paymentOf(intent.id)).idempotencyKey}`);
    expect(fake.refunds.filter((r) => r.payment_intent === intent.id)).toEqual([
      expect.objectContaining({ amount: price, currency: 'gbp' }),
    ]);
    expect(await soldIn(poolId)).toBe(0);
    expect((await buyer.checkout()).payment_complete).toBe(false);
  });

  it('a signed body that is not JSON, or not a payment_intent event with a PaymentIntent, is a 400 with its reason and changes nothing', async () => {
    const { buyer, poolId, price } = await reserved(1);
    const intent = intentFor((await buyer.json('getStripeToken')).client_secret);
    await fake.confirm(intent.id, '4242424242424242', { deliver: false });
    const refused = [
      ['{"id":"evt_x","type":"payment_intent.succeeded","data":', WEBHOOK_MESSAGES.notJson],
      ['not json at all', WEBHOOK_MESSAGES.notJson],
      ['[1,2]', WEBHOOK_MESSAGES.notJson],
      [
        event('charge.succeeded', { id: 'ch_1', object: 'charge', amount: price, currency: 'gbp' }),
        WEBHOOK_MESSAGES.notPaymentIntent,
      ],
      [event('payment_intent.succeeded', { id: intent.id, currency: 'gbp' }), WEBHOOK_MESSAGES.notPaymentIntent],
      [
        event('payment_intent.succeeded', { id: intent.id, amount: '1000', currency: 'gbp' }),
        WEBHOOK_MESSAGES.notPaymentIntent,
      ],
      [JSON.stringify({ id: 'evt_y', type: 'payment_intent.succeeded' }), WEBHOOK_MESSAGES.notPaymentIntent],
    ] as const;
    for (const [payload, message] of refused) {
      const res = await webhook(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toEqual({ error: message });
    }
    // Unsigned, however well formed, is refused first.
    expect((await webhook('not json at all', 'whsec_wrong')).json()).toEqual({ error: WEBHOOK_MESSAGES.signature });
    // Other PaymentIntent events are received and settle nothing.
    expect(
      (await webhook(event('payment_intent.created', { ...intent, status: 'requires_payment_method' }))).statusCode,
    ).toBe(200);
    expect(await soldIn(poolId)).toBe(0);
    expect(await paymentOf(intent.id)).toMatchObject({ status: 'requires_payment_method', outcome: null });
    expect((await buyer.checkout()).payment_complete).toBe(false);
  });
});
