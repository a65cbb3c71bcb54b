/**
 * Square through the real app on each driver: credentials only for a Square organiser's sale,
 * the sandbox's card token charged once and the sale booked, a declined card's message, the
 * address error. Keyed, Square's SDK against a local Square (server/test/fakeSquare.ts, a real
 * HTTP server on an ephemeral port): CreatePayment, GetPayment and RefundPayment in Square's
 * recorded shapes, Square's payment id kept on the payment, and money Square took that cannot be
 * booked (stock gone, another amount) refunded on that id, the buyer told in words. (Stripe's
 * saved cards for plans are in server/domain/instalments/planSetup.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import * as t from '../db/schema.ts';
import { paymentRefunds, payments, sales, sandboxCharges } from '../db/schema.ts';
import { buildApp } from '../app.ts';
import { parseConfig, squareKeys, testConfig } from '../config.ts';
import { openSeededTestDatabase } from '../db/testing.ts';
import type { OpenDatabase } from '../db/index.ts';
import type { Demo } from '../seed.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { startFakeSquare, type FakeSquare } from '../test/fakeSquare.ts';
import { SANDBOX_CARDS, SQUARE_SANDBOX_APP_ID, SQUARE_SCRIPT_PATH } from '../../contract/index.ts';
import { ADDRESS_MESSAGES } from '../../contract/messages/address.ts';
import { PAYMENT_MESSAGES } from '../../contract/messages/payment.ts';
import { SQUARE_MESSAGES } from '../../contract/messages/square.ts';
import { localSquare } from '../domain/payment/square.ts';
import { squareApi } from './square.ts';
import { AMOUNT_MISMATCH_MESSAGE } from '../domain/payment/payments.ts';
import { planWiring } from './plans.ts';
import { paymentWiring } from './payment.ts';
import { bankWiring } from './bank.ts';
import { processorLinks } from './processorLinks.ts';
import { NOT_COMPLETED_MESSAGE, reconcilePayments } from '../domain/payment/reconcile.ts';

const ACCESS_TOKEN = 'EAAAl1234567890abcdefghijkl';
const SQUARE_ENV = {
  SQUARE_APPLICATION_ID: 'sandbox-sq0idb-abc123',
  SQUARE_ACCESS_TOKEN: ACCESS_TOKEN,
  SQUARE_LOCATION_ID: 'L8W9XYZ123',
};
const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '1 Quay St',
  address_2: '',
  town: 'Plymouth',
  postcode: 'PL1 2LD',
  state: '',
  country_code: 'GB',
};

describe.each(drivers)('Square on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  async function squareBuyer(ticket = w.demo.square.stalls) {
    const v = new Visitor(w.app);
    expect(
      (await v.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.notSubscribed.id}` }))
        .statusCode,
    ).toBe(303);
    expect((await v.add({ [ticket]: 2 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    return { v, saleId: sale!.id };
  }
  const token = async (v: Visitor, number: string = SANDBOX_CARDS.success) =>
    ((await v.json('tokeniseSandboxSquareCard', { number, expiry: '12/34', cvc: '123' })) as { token: string }).token;

  it('has no Square library to send the browser to without keys: the sandbox’s own card form takes the card', async () => {
    const res = await new Visitor(w.app).request({ method: 'GET', url: SQUARE_SCRIPT_PATH });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatch(/own card form/);
  });

  it('chooses Square for the Square organiser and hands out the sandbox credentials; other sales get the spec’s refusal', async () => {
    const { v } = await squareBuyer();
    const checkout = await v.checkout();
    expect(checkout.sagepay_or_stripe).toBe('square');
    expect(await v.json('getSquareCredentials')).toEqual({
      app_id: SQUARE_SANDBOX_APP_ID,
      location_id: 'holdfast-sandbox-location',
      checkout_js: '',
    });
    const other = await squareBuyer(w.demo.tickets.trail10k);
    const res = await other.v.call('getSquareCredentials');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: SQUARE_MESSAGES.credentials });
  });

  it('refuses a card the sandbox cannot take with its words, and an address without a postcode as the address error', async () => {
    const { v, saleId } = await squareBuyer();
    const bad = await v.call('tokeniseSandboxSquareCard', {
      number: '4242 4242 4242 4241',
      expiry: '12/34',
      cvc: '123',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ error: 'Your card number is incorrect.' });
    const res = await v.call('payWithSquare', {
      billing_address_data: { ...ADDRESS, postcode: '' },
      source_id: await token(v),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: ADDRESS_MESSAGES.completeAddress,
      response: { success: false, addressError: ADDRESS_MESSAGES.completeAddress },
    });
    expect(await w.database.db.select().from(payments).where(eq(payments.saleId, saleId))).toEqual([]);
  });

  it('shows a declined card’s message, then takes a good card once and books the sale', async () => {
    const { v, saleId } = await squareBuyer();
    const declined = await v.json('payWithSquare', {
      billing_address_data: ADDRESS,
      source_id: await token(v, SANDBOX_CARDS.decline),
    });
    expect(declined).toEqual({ response: { success: false, message: 'Your card was declined.' } });
    expect((await v.checkout()).payment_complete).toBe(false);
    const source = await token(v);
    const paid = (await v.json('payWithSquare', { billing_address_data: ADDRESS, source_id: source })) as {
      response: { success: boolean; payment: { status: string } };
    };
    expect(paid.response).toMatchObject({ success: true, payment: { status: 'COMPLETED' } });
    expect((await v.checkout()).payment_complete).toBe(true);
    const rows = await w.database.db.select().from(payments).where(eq(payments.saleId, saleId));
    expect(rows.map((p) => [p.provider, p.status, p.amount])).toEqual([
      ['square', 'failed', 2 * 2550],
      ['square', 'succeeded', 2 * 2550],
    ]);
    // The token is single-use, and a paid sale is not paid twice.
    const again = await v.call('payWithSquare', { billing_address_data: ADDRESS, source_id: source });
    expect(again.statusCode).toBe(409);
    // Square's sandbox completed the charge once the sale was booked.
    const taken = await w.database.db
      .select()
      .from(sandboxCharges)
      .where(eq(sandboxCharges.id, rows[1]!.providerPaymentId));
    expect(taken.map((c) => c.status)).toEqual(['succeeded']);
  });

  it('finds by its key a charge whose id the ledger never kept, and cancels one approved and never completed', async () => {
    const { v } = await squareBuyer();
    const square = localSquare(w.database.db);
    const key = `${randomUUID()}:1`;
    const charged = await square.charge({
      sourceId: await token(v),
      amount: 5100,
      currency: 'gbp',
      idempotencyKey: key,
      reference: null,
      address: ADDRESS,
      now: w.clock.now,
    });
    if (charged.status !== 'succeeded') throw new Error('not approved');
    // Known only by the ledger's placeholder: found by the key, with Square's own id.
    expect(await square.retrieve(`sq_${key}`)).toEqual({
      id: charged.id,
      status: 'succeeded',
      amount: 5100,
      currency: 'GBP',
      failureMessage: null,
    });
    await square.cancel(`sq_${key}`);
    expect(
      (await w.database.db.select().from(sandboxCharges).where(eq(sandboxCharges.id, charged.id)))[0]!.status,
    ).toBe('cancelled');
    expect(await square.retrieve(`sq_${key}`)).toMatchObject({ id: charged.id, status: 'failed' });
    // A key nothing was charged under is nothing taken.
    expect(await square.retrieve(`sq_${randomUUID()}:1`)).toBeNull();
  });
});

describe('the real Square adapter, through Square’s SDK against a local Square', () => {
  let fake: FakeSquare;
  beforeAll(async () => {
    fake = await startFakeSquare({ accessToken: ACCESS_TOKEN });
  });
  afterAll(() => fake?.close());
  const api = () => squareApi(squareKeys({ ...SQUARE_ENV, SQUARE_API_BASE: fake.base })!);
  const charge = (sourceId: string, idempotencyKey: string) =>
    api().charge({
      sourceId,
      amount: 5100,
      currency: 'gbp',
      idempotencyKey,
      reference: 'HF-ABC',
      address: ADDRESS,
      now: new Date(),
    });

  it('sends CreatePayment as Square documents it, with the access token and an idempotency key kept under 45 characters', async () => {
    const taken = await charge('cnon:card-nonce-ok', '0b6e3f9a-6f3c-4f55-9a0e-2f1e5d7c9b11:1');
    const [payment] = [...fake.payments.values()];
    expect(taken).toEqual({ status: 'succeeded', id: payment!.id, amount: 5100, currency: 'GBP' });
    // Approved, not completed: the payment is completed once the booking is made, or cancelled.
    expect(payment!.status).toBe('APPROVED');
    const request = fake.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'POST', path: '/v2/payments' });
    expect(request.headers).toMatchObject({
      authorization: `Bearer ${ACCESS_TOKEN}`,
      'content-type': 'application/json',
    });
    expect(request.headers['square-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Recorded shape: https://developer.squareup.com/reference/square/payments-api/create-payment
    expect(request.body).toEqual({
      idempotency_key: '0b6e3f9a-6f3c-4f55-9a0e-2f1e5d7c9b11:1',
      source_id: 'cnon:card-nonce-ok',
      amount_money: { amount: 5100, currency: 'GBP' },
      location_id: 'L8W9XYZ123',
      autocomplete: false,
      delay_action: 'COMPLETE',
      reference_id: 'HF-ABC',
      note: 'Holdfast 0b6e3f9a-6f3c-4f55-9a0e-2f1e5d7c9b11:1',
      billing_address: {
        first_name: 'Ann',
        last_name: 'Lee',
        address_line_1: '1 Quay St',
        locality: 'Plymouth',
        postal_code: 'PL1 2LD',
        country: 'GB',
      },
    });
    await api().charge({
      sourceId: 'cnon:card-nonce-ok',
      amount: 1,
      currency: 'GBP',
      idempotencyKey: 'x'.repeat(80),
      reference: null,
      address: ADDRESS,
      now: new Date(),
    });
    expect(String(fake.requests.at(-1)!.body!.idempotency_key).length).toBeLessThanOrEqual(45);
  });

  it('reads Square’s answers: a declined card’s detail, an address verification failure, a key reused for another card', async () => {
    expect(await charge('cnon:card-nonce-declined', 'k-declined')).toEqual({
      status: 'failed',
      message: "Authorization error: 'CARD_DECLINED'",
    });
    expect(await charge('cnon:card-nonce-rejected-postalcode', 'k-avs')).toEqual({
      status: 'address',
      message: ADDRESS_MESSAGES.unableToFindBilling,
    });
    await charge('cnon:card-nonce-ok', 'k-reused');
    // Another card under a key already charged: no verdict on that payment, which stands.
    expect(await charge('cnon:another-card', 'k-reused')).toEqual({
      status: 'unknown',
      message: PAYMENT_MESSAGES.unableToPay,
    });
    expect(api().credentials).toEqual({
      app_id: 'sandbox-sq0idb-abc123',
      location_id: 'L8W9XYZ123',
      checkout_js: 'https://sandbox.web.squarecdn.com/v1/square.js',
    });
  });

  it('refunds with RefundPayment on Square’s payment id, reads a payment back with GetPayment, and knows none it did not take', async () => {
    const taken = await charge('cnon:card-nonce-ok', 'k-refund');
    if (taken.status !== 'succeeded') throw new Error('not taken');
    await api().complete(taken.id);
    expect(fake.payments.get(taken.id)!.status).toBe('COMPLETED');
    await api().refund({ paymentId: taken.id, amount: 5100, currency: 'gbp', idempotencyKey: 'refund:k-refund' });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: '/v2/refunds' });
    expect(fake.requests.at(-1)!.body).toEqual({
      idempotency_key: 'refund:k-refund',
      payment_id: taken.id,
      amount_money: { amount: 5100, currency: 'GBP' },
    });
    expect(fake.refunds).toEqual([
      expect.objectContaining({ payment_id: taken.id, amount_money: { amount: 5100, currency: 'GBP' } }),
    ]);
    // A refund Square refuses is an error in Square's words (the ledger keeps it owed).
    await expect(
      api().refund({ paymentId: 'NOPE', amount: 1, currency: 'GBP', idempotencyKey: 'refund:nope' }),
    ).rejects.toThrow(/Could not find payment/);

    expect(await api().retrieve(taken.id)).toEqual({
      id: taken.id,
      status: 'succeeded',
      amount: 5100,
      currency: 'GBP',
      failureMessage: null,
    });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: `/v2/payments/${taken.id}` });
    expect(await api().retrieve('UNKNOWN123')).toBeNull();
  });

  it('reads its keys and SQUARE_API_BASE from the environment; malformed ones stop the start with a message naming the variable', () => {
    expect(squareKeys(SQUARE_ENV)).toEqual({
      applicationId: 'sandbox-sq0idb-abc123',
      accessToken: ACCESS_TOKEN,
      locationId: 'L8W9XYZ123',
      apiBase: null,
    });
    expect(squareKeys({ ...SQUARE_ENV, SQUARE_API_BASE: 'http://127.0.0.1:4010' })?.apiBase).toBe(
      'http://127.0.0.1:4010',
    );
    expect(() => squareKeys({ ...SQUARE_ENV, SQUARE_API_BASE: 'http://127.0.0.1:4010/v2' })).toThrow(/SQUARE_API_BASE/);
    expect(() => squareKeys({ SQUARE_APPLICATION_ID: 'nope' })).toThrow(/SQUARE_APPLICATION_ID/);
    expect(squareKeys({})).toBeNull();
  });
});

describe.each(drivers)('Square keyed on %s: Square’s payment id kept, refunds on it', (driver) => {
  let fake: FakeSquare;
  let database: OpenDatabase;
  let demo: Demo;
  let app: FastifyInstance;
  const clock = { now: new Date('2026-06-01T12:00:00Z') };

  beforeAll(async () => {
    fake = await startFakeSquare({ accessToken: ACCESS_TOKEN });
    ({ database, demo } = await openSeededTestDatabase(driver));
    app = await buildApp({
      db: database.db,
      config: testConfig(),
      clock: () => clock.now,
      logger: false,
      plans: planWiring(database.db, parseConfig({ ...SQUARE_ENV, SQUARE_API_BASE: fake.base })),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await fake?.close();
  });

  /** A fresh event of a Square organiser with `capacity` tickets of £20 (and £1 booking fee). */
  async function squareEvent(capacity: number) {
    const tag = randomUUID().slice(0, 8);
    const [org] = await database.db
      .insert(t.organisers)
      .values({ slug: `square-${tag}`, name: `Square Hall ${tag}`, paymentProvider: 'square' })
      .returning();
    const [event] = await database.db
      .insert(t.events)
      .values({
        organiserId: org!.id,
        title: `Square Night ${tag}`,
        currency: 'GBP',
        venueName: 'Hall',
        venueAddress: '1 High St',
        city: 'Leeds',
        thumbnail: '',
      })
      .returning();
    const [pool] = await database.db
      .insert(t.capacityPools)
      .values({ name: `Square Night ${tag}`, capacity })
      .returning();
    const [date] = await database.db
      .insert(t.eventDates)
      .values({ eventId: event!.id, startsAt: new Date('2026-12-01T19:00:00Z'), poolId: pool!.id })
      .returning();
    const [type] = await database.db
      .insert(t.ticketTypes)
      .values({ eventDateId: date!.id, name: 'Square ticket', price: 2000, bookingFee: 100 })
      .returning();
    return { poolId: pool!.id, typeId: type!.id };
  }

  async function buyer(typeId: number, qty: number, userId = demo.users.notSubscribed.id) {
    const v = new Visitor(app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    expect((await v.add({ [typeId]: qty })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const checkout = await v.checkout();
    const [sale] = await database.db
      .select({ id: sales.id })
      .from(sales)
      .where(eq(sales.reference, checkout.sale_reference!));
    return { v, saleId: sale!.id, total: checkout.basket_total, reference: checkout.sale_reference! };
  }
  const paymentsOf = (saleId: string) => database.db.select().from(payments).where(eq(payments.saleId, saleId));
  const soldOf = async (poolId: number) =>
    (await database.db.select().from(t.capacityPools).where(eq(t.capacityPools.id, poolId)))[0]!.sold;

  it('sends the browser from the spec’s script path on to Square’s library for the keyed environment', async () => {
    const res = await new Visitor(app).request({ method: 'GET', url: SQUARE_SCRIPT_PATH });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://sandbox.web.squarecdn.com/v1/square.js');
  });

  it('charges the card through Square, keeps Square’s payment id on the payment and books the sale', async () => {
    const { poolId, typeId } = await squareEvent(4);
    const { v, saleId, total, reference } = await buyer(typeId, 2);
    expect(await v.json('getSquareCredentials')).toEqual({
      app_id: SQUARE_ENV.SQUARE_APPLICATION_ID,
      location_id: 'L8W9XYZ123',
      checkout_js: 'https://sandbox.web.squarecdn.com/v1/square.js',
    });
    const res = await v.call('payWithSquare', { billing_address_data: ADDRESS, source_id: 'cnon:card-nonce-ok' });
    expect(res.statusCode).toBe(200);
    const [row] = await paymentsOf(saleId);
    const square = fake.payments.get(row!.providerPaymentId);
    expect(square).toMatchObject({
      status: 'COMPLETED',
      amount_money: { amount: total, currency: 'GBP' },
      reference_id: reference,
    });
    expect(res.json()).toEqual({ response: { success: true, payment: { id: square!.id, status: 'COMPLETED' } } });
    expect(row).toMatchObject({ provider: 'square', status: 'succeeded', outcome: 'booked', amount: total });
    const create = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v2/payments').at(-1)!;
    expect(create.body).toMatchObject({
      idempotency_key: row!.idempotencyKey,
      source_id: 'cnon:card-nonce-ok',
      amount_money: { amount: total, currency: 'GBP' },
      autocomplete: false,
    });
    // Completed only after the booking.
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', path: `/v2/payments/${square!.id}/complete` });
    expect(await soldOf(poolId)).toBe(2);
    expect((await v.checkout()).payment_complete).toBe(true);
  });

  it('refunds a payment whose stock went while Square was taking it, with Square’s own payment id, and tells the buyer in words', async () => {
    const { poolId, typeId } = await squareEvent(2);
    const { v, saleId, total } = await buyer(typeId, 2);
    const other = new Visitor(app);
    fake.onCreate = async () => {
      // Square answers after the hold and its grace have run out, and another buyer has taken the stock.
      clock.now = new Date(clock.now.getTime() + 3 * 3600_000);
      await other.add({ [typeId]: 2 });
      expect((await other.json('reserveTickets')).reserved).toBe(true);
    };
    try {
      const res = await v.call('payWithSquare', { billing_address_data: ADDRESS, source_id: 'cnon:card-nonce-ok' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ response: { success: false, message: PAYMENT_MESSAGES.lateRefunded } });
    } finally {
      fake.onCreate = null;
    }
    const [row] = await paymentsOf(saleId);
    // Never completed: Square's payment is cancelled, so the card is never charged.
    expect(fake.payments.get(row!.providerPaymentId)).toMatchObject({
      status: 'CANCELED',
      amount_money: { amount: total, currency: 'GBP' },
    });
    expect(row).toMatchObject({ status: 'succeeded', outcome: 'refunded' });
    expect(fake.refunds.find((r) => r.payment_id === row!.providerPaymentId)).toBeUndefined();
    expect(await database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, row!.id))).toEqual([
      expect.objectContaining({ amount: total, status: 'done' }),
    ]);
    expect(await soldOf(poolId)).toBe(0);
    expect((await v.checkout()).payment_complete).toBe(false);
  });

  it('refunds, never books, a payment Square took for another amount than the payment was for', async () => {
    const { poolId, typeId } = await squareEvent(4);
    const { v, saleId, total } = await buyer(typeId, 1);
    fake.takes = (requested) => requested - 100;
    try {
      const res = await v.call('payWithSquare', { billing_address_data: ADDRESS, source_id: 'cnon:card-nonce-ok' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ response: { success: false, message: AMOUNT_MISMATCH_MESSAGE } });
    } finally {
      fake.takes = (requested) => requested;
    }
    const [row] = await paymentsOf(saleId);
    expect(row).toMatchObject({ status: 'failed', failureMessage: AMOUNT_MISMATCH_MESSAGE, amount: total });
    expect(fake.payments.get(row!.providerPaymentId)).toMatchObject({
      status: 'CANCELED',
      amount_money: { amount: total - 100, currency: 'GBP' },
    });
    expect(await database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, row!.id))).toEqual([
      expect.objectContaining({ amount: total - 100, status: 'done' }),
    ]);
    expect(await soldOf(poolId)).toBe(0);
    expect((await v.checkout()).payment_complete).toBe(false);
  });

  it('a payment whose answer from Square was lost is found by its key: money Square took is booked and completed, never closed as nothing taken', async () => {
    const { poolId, typeId } = await squareEvent(4);
    const { v, saleId, total } = await buyer(typeId, 1);
    fake.loseCreateAnswers = true;
    try {
      const res = await v.call('payWithSquare', { billing_address_data: ADDRESS, source_id: 'cnon:card-nonce-ok' });
      expect(res.json()).toEqual({ response: { success: false, message: PAYMENT_MESSAGES.unableToPay } });
    } finally {
      fake.loseCreateAnswers = false;
    }
    // Square took the card; the ledger never heard its payment id.
    const [open] = await paymentsOf(saleId);
    expect(open).toMatchObject({ status: 'requires_payment_method', outcome: null });
    const taken = [...fake.payments.values()].find((p) => p.note === `Holdfast ${open!.idempotencyKey}`);
    expect(taken).toMatchObject({ status: 'APPROVED', amount_money: { amount: total, currency: 'GBP' } });
    // Past the grace the job asks Square, by the payment's key.
    clock.now = new Date(open!.checkAfter!.getTime() + 1000);
    const wiring = planWiring(database.db, parseConfig({ ...SQUARE_ENV, SQUARE_API_BASE: fake.base }));
    const links = processorLinks({
      payment: paymentWiring(parseConfig({})),
      bank: bankWiring(parseConfig({})),
      plans: wiring,
    });
    const report = await reconcilePayments(database.db, links, clock.now);
    expect(report).toMatchObject({ booked: 1, closed: 0 });
    const [row] = await paymentsOf(saleId);
    expect(row).toMatchObject({ providerPaymentId: taken!.id, status: 'succeeded', outcome: 'booked' });
    expect(row!.failureMessage).not.toBe(NOT_COMPLETED_MESSAGE);
    expect(fake.payments.get(taken!.id)!.status).toBe('COMPLETED');
    expect(await soldOf(poolId)).toBe(1);
    expect((await v.checkout()).payment_complete).toBe(true);
  });

  it('takes no Square payment for a sale without a buyer: a 409 in words, and nothing is asked of Square', async () => {
    const { typeId } = await squareEvent(4);
    const guest = new Visitor(app);
    expect((await guest.add({ [typeId]: 1 })).statusCode).toBe(200);
    expect((await guest.json('reserveTickets')).reserved).toBe(true);
    await guest.json('updateBasketState', { state: 'payment' });
    const asked = fake.requests.length;
    const res = await guest.call('payWithSquare', { billing_address_data: ADDRESS, source_id: 'cnon:card-nonce-ok' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: PAYMENT_MESSAGES.noBuyer });
    expect(fake.requests.length).toBe(asked);
    const [sale] = await database.db
      .select({ id: sales.id })
      .from(sales)
      .where(eq(sales.reference, (await guest.checkout()).sale_reference!));
    expect(await paymentsOf(sale!.id)).toEqual([]);
  });

  it('shows a declined card’s words and books nothing', async () => {
    const { poolId, typeId } = await squareEvent(4);
    const { v, saleId } = await buyer(typeId, 1);
    const res = await v.call('payWithSquare', { billing_address_data: ADDRESS, source_id: 'cnon:card-nonce-declined' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ response: { success: false, message: "Authorization error: 'CARD_DECLINED'" } });
    expect((await paymentsOf(saleId)).map((p) => p.status)).toEqual(['failed']);
    expect(await soldOf(poolId)).toBe(0);
  });
});

describe('the security policy with Square keyed', () => {
  it('is widened for Square’s SDK only when Square is keyed', async () => {
    const { cspDirectives } = await import('../plugins/security.ts');
    const plain = cspDirectives({ hcaptcha: null }, { styles: [], scripts: [] });
    const keyed = cspDirectives({ hcaptcha: null, square: true }, { styles: [], scripts: [] });
    expect(plain['script-src']!.join(' ')).not.toContain('squarecdn');
    expect(keyed['script-src']).toContain('https://web.squarecdn.com');
    expect(keyed['connect-src']).toContain('https://pci-connect.squareup.com');
    expect(keyed['frame-src']).toContain('https://sandbox.web.squarecdn.com');
  });
});
