/**
 * The Stripe adapter: its requests built against Stripe's documented REST shapes (form-encoded,
 * Bearer secret key, Idempotency-Key), the webhook signature scheme (t=…,v1=HMAC-SHA256 of
 * "t.payload"), and the signed webhook as the source of truth, replayed with one effect.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { testConfig } from './config.ts';
import { openTestDatabase } from './db/testing.ts';
import type { OpenDatabase } from './db/index.ts';
import { capacityPools, payments } from './db/schema.ts';
import { drivers, Visitor } from './test/harness.ts';
import { hotEvent } from './test/fixtures.ts';
import { paymentWiring } from './http/paymentApi.ts';
import { paymentIntentRequest, refundRequest, signWebhook, verifyWebhook, WEBHOOK_TOLERANCE_SECONDS } from './domain/payment/stripe.ts';

const SECRET = 'whsec_test_holdfast';
const KEYS = { STRIPE_PUBLISHABLE_KEY: 'pk_test_holdfast', STRIPE_SECRET_KEY: 'sk_test_holdfast', STRIPE_WEBHOOK_SECRET: SECRET };

describe('Stripe requests', () => {
  it('creates a PaymentIntent form-encoded, with the secret key and the idempotency key', () => {
    const request = paymentIntentRequest('sk_test_1', { amount: 1760, currency: 'GBP', idempotencyKey: 'sale-1:2', saleId: 'sale-1' });
    expect(request.url).toBe('https://api.stripe.com/v1/payment_intents');
    expect(request.headers).toEqual({
      authorization: 'Bearer sk_test_1',
      'content-type': 'application/x-www-form-urlencoded',
      'idempotency-key': 'sale-1:2',
    });
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      amount: '1760',
      currency: 'gbp',
      'payment_method_types[]': 'card',
      'metadata[sale_id]': 'sale-1',
    });
  });

  it('refunds a PaymentIntent in full under its own idempotency key', () => {
    const request = refundRequest('sk_test_1', { paymentId: 'pi_1', amount: 1760, idempotencyKey: 'refund:sale-1:2' });
    expect(request.url).toBe('https://api.stripe.com/v1/refunds');
    expect(request.headers['idempotency-key']).toBe('refund:sale-1:2');
    expect(request.body).toBe('payment_intent=pi_1&amount=1760');
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
    expect(verifyWebhook(payload, signWebhook(payload, SECRET, t - WEBHOOK_TOLERANCE_SECONDS - 1), SECRET, now)).toBe(false);
  });
});

describe.each(drivers)('paying with Stripe on %s', (driver) => {
  let database: OpenDatabase;
  let app: FastifyInstance;
  const clock = { now: new Date('2026-06-01T12:00:00Z') };
  const sent: { url: string; headers: Record<string, string>; body: string }[] = [];
  const reads: string[] = [];

  /** Stripe's answer to a PaymentIntent create, as its API reference records it. */
  const amounts = new Map<string, number>();
  const fakeStripe = (async (url: string, init: { method: string; headers: Record<string, string>; body: string }) => {
    if (init.method === 'GET') {
      // A PaymentIntent read back after the buyer confirmed it.
      const id = decodeURIComponent(url.split('/').pop()!);
      reads.push(url);
      return new Response(JSON.stringify({ id, object: 'payment_intent', amount: amounts.get(id), currency: 'gbp', status: 'succeeded', last_payment_error: null }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }
    sent.push({ url, headers: init.headers, body: init.body });
    const body = new URLSearchParams(init.body);
    const n = sent.length;
    amounts.set(`pi_3Test${n}`, Number(body.get('amount')));
    return new Response(
      JSON.stringify({
        id: `pi_3Test${n}`,
        object: 'payment_intent',
        amount: Number(body.get('amount')),
        currency: body.get('currency'),
        client_secret: `pi_3Test${n}_secret_abc`,
        status: 'requires_payment_method',
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
  }) as unknown as typeof fetch;

  beforeAll(async () => {
    database = await openTestDatabase(driver, 4);
    app = await buildApp({ db: database.db, config: testConfig(), clock: () => clock.now, logger: false, payment: paymentWiring(KEYS, fakeStripe) });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  function webhook(event: object, secret = SECRET) {
    const payload = JSON.stringify(event);
    return app.inject({
      method: 'POST',
      url: '/ajax/checkout/stripe/webhook/',
      payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signWebhook(payload, secret, Math.floor(clock.now.getTime() / 1000)) },
    });
  }

  it('get_token creates one PaymentIntent per sale and attempt; the signed webhook books it once', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 5, types: 1 });
    const buyer = new Visitor(app);
    await buyer.add({ [types[0]!.id]: 2 });
    await buyer.json('reserveTickets', {});
    const tokens = await Promise.all(Array.from({ length: 5 }, () => buyer.json('getStripeToken')));
    expect(tokens.every((t) => t.public_key === 'pk_test_holdfast' && t.client_secret === 'pi_3Test1_secret_abc')).toBe(true);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}:1$/);
    expect(new URLSearchParams(sent[0]!.body).get('amount')).toBe(String(2 * types[0]!.price));

    const event = {
      id: 'evt_1',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_3Test1', object: 'payment_intent', amount: 2 * types[0]!.price, currency: 'gbp', status: 'succeeded' } },
    };
    expect((await webhook(event, 'whsec_wrong')).statusCode).toBe(400);
    for (let i = 0; i < 5; i++) expect((await webhook(event)).statusCode).toBe(200);
    const [pool] = await database.db.select({ sold: capacityPools.sold }).from(capacityPools).where(eq(capacityPools.id, poolId));
    expect(pool!.sold).toBe(2);
    const [payment] = await database.db.select().from(payments).where(eq(payments.providerPaymentId, 'pi_3Test1'));
    expect(payment).toMatchObject({ provider: 'stripe', status: 'succeeded', outcome: 'booked' });
    expect((await buyer.checkout()).payment_complete).toBe(true);
  });

  it('the card return reads the PaymentIntent when the webhook has not arrived, and the webhook after it changes nothing', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 5, types: 1 });
    const buyer = new Visitor(app);
    await buyer.add({ [types[0]!.id]: 1 });
    await buyer.json('reserveTickets', {});
    await buyer.json('getStripeToken');
    const id = `pi_3Test${sent.length}`;
    const back = await buyer.request({ method: 'GET', url: `/do/checkout/stripe_auth/?payment_intent=${id}&redirect_status=succeeded` });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/checkout/');
    expect(reads).toEqual([`https://api.stripe.com/v1/payment_intents/${id}`]);
    expect((await buyer.checkout()).payment_complete).toBe(true);
    const event = { id: 'evt_2', type: 'payment_intent.succeeded', data: { object: { id, amount: types[0]!.price, currency: 'gbp' } } };
    expect((await webhook(event)).statusCode).toBe(200);
    const [pool] = await database.db.select({ sold: capacityPools.sold }).from(capacityPools).where(eq(capacityPools.id, poolId));
    expect(pool!.sold).toBe(1);
  });
});
