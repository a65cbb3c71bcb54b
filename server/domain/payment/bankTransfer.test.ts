/**
 * Instant bank transfer through the real app and the sandbox bank, on each driver: one bank
 * payment however often it is created, the payment-in-progress hold while at the bank, approval
 * completing the sale (tickets delivered), a cancel coming back with the returned-from flag 0, a
 * slow approval arriving after its delay (read by the status or the sweeper), a late approval
 * whose stock is gone refunded, and bad input refused with nothing changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { parseConfig, testConfig } from '../../config.ts';
import { openSeededTestDatabase } from '../../db/testing.ts';
import type { OpenDatabase } from '../../db/index.ts';
import { capacityPools, paymentRefunds, payments, sales } from '../../db/schema.ts';
import type { Demo } from '../../seed.ts';
import { drivers, Visitor } from '../../test/harness.ts';
import { hotEvent, signedInVisitor } from '../../test/fixtures.ts';
import { paymentWiring } from '../../providers/payment.ts';
import { bankWiring } from '../../providers/bank.ts';
import { sandboxBank } from './bank.ts';
import { settleDueBankDecisions } from './bankTransfer.ts';
import { BANK_TRANSFER_MESSAGES } from '../../../contract/messages/bankTransfer.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';

const CHECKOUT_TIME = 600;
const GRACE_MINUTES = 10;

describe.each(drivers)('instant bank transfer on %s', (driver) => {
  let database: OpenDatabase;
  let app: FastifyInstance;
  let demo: Demo;
  const clock = { now: new Date('2026-06-01T12:00:00Z') };
  const advance = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));

  beforeAll(async () => {
    ({ database, demo } = await openSeededTestDatabase(driver, 8));
    app = await buildApp({
      db: database.db,
      config: testConfig({ checkoutTimeSeconds: CHECKOUT_TIME }),
      clock: () => clock.now,
      logger: false,
      payment: paymentWiring(parseConfig({ PAYMENT_GRACE: String(GRACE_MINUTES) })),
      bank: bankWiring(parseConfig({ TRUELAYER_POLL_INTERVAL_MS: '400' })),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  async function reservedBuyer(tickets: Record<number, number>, signedIn = true): Promise<Visitor> {
    const buyer = new Visitor(app);
    if (signedIn)
      expect(
        (await buyer.request({ method: 'POST', url: '/signin/', body: `user_id=${demo.users.notSubscribed.id}` }))
          .statusCode,
      ).toBe(303);
    expect((await buyer.add(tickets)).statusCode).toBe(200);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await buyer.json('updateBasketState', { state: 'payment' });
    await buyer.json('setBillingAddress', { address: { postcode: 'BS1 4QH' } });
    return buyer;
  }

  async function saleOf(buyer: Visitor) {
    const checkout = await buyer.checkout();
    const [sale] = await database.db
      .select()
      .from(sales)
      .where(eq(sales.reference, checkout.sale_reference ?? '-'));
    return sale!;
  }

  const bankPayments = async (saleId: string) =>
    (await database.db.select().from(payments).where(eq(payments.saleId, saleId))).filter(
      (p) => p.provider === 'sandbox_bank',
    );

  async function sold(poolId: number) {
    const [pool] = await database.db
      .select({ sold: capacityPools.sold })
      .from(capacityPools)
      .where(eq(capacityPools.id, poolId));
    return pool!.sold;
  }

  /** pay_with_truelayer, then the sandbox bank's decision, then the bank's return: where the browser ends. */
  async function atBank(buyer: Visitor, decision: 'approve' | 'slow' | 'cancel', delay?: string) {
    const { auth_url } = (await buyer.json('payWithTruelayer', { contact_number: '07700 900123' })) as {
      auth_url: string;
    };
    expect(auth_url).toMatch(/^\/sandbox\/bank\/\?token=[0-9a-f]+$/);
    const page = await buyer.request({ method: 'GET', url: auth_url });
    expect(page.statusCode).toBe(200);
    const token = new URL(auth_url, 'http://x').searchParams.get('token')!;
    const decided = await buyer.request({
      method: 'POST',
      url: '/sandbox/bank/',
      body: new URLSearchParams({ token, decision, ...(delay !== undefined ? { delay } : {}) }).toString(),
    });
    expect(decided.statusCode).toBe(303);
    const back = await buyer.request({ method: 'GET', url: String(decided.headers.location) });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/checkout/');
    return { page, returnUrl: String(decided.headers.location) };
  }

  const status = async (buyer: Visitor) =>
    ((await buyer.json('getTruelayerStatus')) as { truelayer_status: Record<string, unknown> }).truelayer_status;

  it('creates one bank payment however often it is asked, and an approval completes the sale and delivers the tickets', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 2 }, true);
    const sale = await saleOf(buyer);
    await Promise.all(Array.from({ length: 10 }, () => buyer.json('createTruelayerPayment')));
    expect(await bankPayments(sale.id)).toHaveLength(1);

    const { page, returnUrl } = await atBank(buyer, 'approve');
    expect(page.body).toContain('Approve a payment of £20.00');
    expect(returnUrl).toMatch(/^\/do\/checkout\/truelayer_return\/\?payment_id=bank_sandbox_/);
    // Still one payment: pay_with_truelayer took the one created as the step loaded.
    expect(await bankPayments(sale.id)).toHaveLength(1);
    const checkout = await buyer.checkout();
    expect(checkout).toMatchObject({ state: 'awaiting_truelayer', truelayer_returned_from: 1, payment_complete: true });
    expect(await status(buyer)).toMatchObject({
      status: 'completed',
      payment_completed: true,
      reference: checkout.sale_reference,
      total: 2000,
      currency: 'GBP',
      truelayer_status_error: null,
      poll_interval_ms: 400,
    });
    expect(await sold(poolId)).toBe(2);
    // The tickets go to the buyer's wallet like a card's.
    expect(await buyer.json('deliverToBitticket')).toEqual({ delivery_completed: true });
  });

  it('keeps the hold while the buyer is at the bank (payment in progress), past the hold’s own deadline up to the grace', async () => {
    const { types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    await buyer.json('payWithTruelayer', {});
    advance((CHECKOUT_TIME + 60) * 1000);
    const checkout = await buyer.checkout();
    expect(checkout.payment_in_progress).toBe(true);
    expect(checkout.payment_seconds_remaining).toBeGreaterThan(0);
    expect(checkout.state).toBe('payment');
    const s = await status(buyer);
    expect(s).toMatchObject({ status: 'processing', payment_completed: false });
    expect(Number(s.checkout_expires_in)).toBe(GRACE_MINUTES * 60 - 60);
  });

  it('a cancel at the bank returns with the flag 0 and says so; paying again is a new bank payment', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    const { returnUrl } = await atBank(buyer, 'cancel');
    expect(returnUrl).toContain('error=');
    expect(await buyer.checkout()).toMatchObject({
      state: 'awaiting_truelayer',
      truelayer_returned_from: 0,
      payment_complete: false,
    });
    expect(await status(buyer)).toMatchObject({
      status: 'error',
      truelayer_status_error: BANK_TRANSFER_MESSAGES.cancelled,
      payment_completed: false,
    });
    expect(Number((await status(buyer)).checkout_expires_in)).toBeGreaterThan(0);
    await buyer.json('updateBasketState', { state: 'payment' });
    await atBank(buyer, 'approve');
    const sale = await saleOf(buyer);
    const made = await bankPayments(sale.id);
    expect(made.map((p) => p.status).sort()).toEqual(['failed', 'succeeded']);
    expect(new Set(made.map((p) => p.idempotencyKey)).size).toBe(2);
    expect(await sold(poolId)).toBe(1);
  });

  it('a slow approval arrives after its delay, read by the status check or by the sweeper', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    await atBank(buyer, 'slow', '30');
    expect(await status(buyer)).toMatchObject({ status: 'processing', payment_completed: false });
    advance(29_000);
    expect(await status(buyer)).toMatchObject({ status: 'processing' });
    advance(1_000);
    expect(await status(buyer)).toMatchObject({ status: 'completed', payment_completed: true });
    expect(await sold(poolId)).toBe(1);

    // Nobody watching: the sweeper settles it.
    const other = await reservedBuyer({ [types[0]!.id]: 1 });
    await atBank(other, 'slow', '5');
    advance(5_000);
    expect(await settleDueBankDecisions(database.db, sandboxBank(), clock.now)).toBe(1);
    expect(await sold(poolId)).toBe(2);
    expect((await other.checkout()).payment_complete).toBe(true);
  });

  it('a slow approval after the grace whose stock is gone is refunded, and the status says the time is up', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 1, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    await atBank(buyer, 'slow', '1500');
    // The hold and the grace pass; another buyer takes the last ticket.
    advance((CHECKOUT_TIME + GRACE_MINUTES * 60 + 1) * 1000);
    const rival = await reservedBuyer({ [types[0]!.id]: 1 });
    const rivalPaid = await atBank(rival, 'approve');
    expect(rivalPaid.returnUrl).toContain('payment_id=');
    advance(1500 * 1000);
    const s = await status(buyer);
    expect(s).toMatchObject({
      status: 'error',
      payment_completed: false,
      truelayer_status_error: PAYMENT_MESSAGES.lateRefunded,
    });
    expect(Number(s.checkout_expires_in)).toBeLessThanOrEqual(0);
    expect(await sold(poolId)).toBe(1);
    const sale = (await database.db.select().from(payments).where(eq(payments.provider, 'sandbox_bank'))).find(
      (p) => p.outcome === 'refunded',
    );
    expect(sale).toBeDefined();
    expect(await database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, sale!.id))).toHaveLength(
      1,
    );
  });

  it('is not offered for an organiser whose provider is Stripe; the demo folk club offers it', async () => {
    const stripeBuyer = await signedInVisitor(app, database.db);
    await stripeBuyer.add({ [demo.tickets.jazzGeneral]: 1 });
    await stripeBuyer.json('reserveTickets', {});
    const refused = await stripeBuyer.call('createTruelayerPayment');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: PAYMENT_MESSAGES.truelayerRedirect });
    const folk = await signedInVisitor(app, database.db);
    await folk.add({ [demo.tickets.folkSeat]: 1 });
    await folk.json('reserveTickets', {});
    expect((await folk.checkout()).sagepay_or_stripe).toBe('truelayer');
    expect(await folk.json('createTruelayerPayment')).toEqual({ success: true });
  });

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const { types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    const sale = await saleOf(buyer);
    const bad = await buyer.call('payWithTruelayer', { contact_number: 'x\u0000y' });
    expect(bad.statusCode).toBe(400);
    expect(await bankPayments(sale.id)).toHaveLength(0);
    // No sale: the status says the time is up (the step then returns to the basket).
    expect(await status(new Visitor(app))).toMatchObject({ status: 'error', checkout_expires_in: 0 });
    // A sale with no bank payment.
    const none = await buyer.call('getTruelayerStatus');
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toMatch(/no bank payment/);
    // The sandbox bank refuses an unknown payment and a delay out of range.
    expect((await buyer.request({ method: 'GET', url: '/sandbox/bank/?token=nope' })).statusCode).toBe(404);
    const { auth_url } = (await buyer.json('payWithTruelayer', {})) as { auth_url: string };
    const token = new URL(auth_url, 'http://x').searchParams.get('token')!;
    for (const delay of ['-1', '99999', 'soon']) {
      const res = await buyer.request({
        method: 'POST',
        url: '/sandbox/bank/',
        body: new URLSearchParams({ token, decision: 'slow', delay }).toString(),
      });
      expect(res.statusCode).toBe(400);
    }
    expect(
      (
        await buyer.request({
          method: 'POST',
          url: '/sandbox/bank/',
          body: new URLSearchParams({ token, decision: 'maybe' }).toString(),
        })
      ).statusCode,
    ).toBe(400);
    expect((await bankPayments(sale.id)).map((p) => p.status)).toEqual(['requires_payment_method']);
    // Another visitor's return with this payment's id moves nothing.
    const payment = (await bankPayments(sale.id))[0]!;
    const stranger = new Visitor(app);
    const back = await stranger.request({
      method: 'GET',
      url: `/do/checkout/truelayer_return/?payment_id=${payment.providerPaymentId}`,
    });
    expect(back.statusCode).toBe(303);
    expect((await buyer.checkout()).state).toBe('payment');
  });
});
