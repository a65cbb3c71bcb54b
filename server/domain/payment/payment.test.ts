/**
 * Money safety and the hold while paying, through the real app on each driver: one charge for
 * twenty pay submissions, one effect for a result replayed five times, an amount that does not
 * match refused, free tickets claimed, the grace branches with an injected clock, and the sum of
 * payments equal to what sold sales total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { parseConfig, testConfig } from '../../config.ts';
import { openSeededTestDatabase } from '../../db/testing.ts';
import { rows, type OpenDatabase } from '../../db/index.ts';
import { capacityPools, paymentRefunds, payments, sales, ticketTypes } from '../../db/schema.ts';
import type { Demo } from '../../seed.ts';
import { drivers, Visitor } from '../../test/harness.ts';
import { hotEvent, signedInVisitor } from '../../test/fixtures.ts';
import { paymentWiring, type PaymentWiring } from '../../providers/payment.ts';
import { settlePayment } from './payments.ts';
import { sweepExpiredHolds } from '../stock.ts';
import { ADDRESS_MESSAGES } from '../../../contract/messages/address.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';

const CHECKOUT_TIME = 600;
const GRACE_MINUTES = 10;

describe.each(drivers)('paying on %s', (driver) => {
  let database: OpenDatabase;
  let app: FastifyInstance;
  let demo: Demo;
  let wiring: PaymentWiring;
  const clock = { now: new Date('2026-06-01T12:00:00Z') };
  const advance = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));

  beforeAll(async () => {
    ({ database, demo } = await openSeededTestDatabase(driver, 8));
    wiring = paymentWiring(parseConfig({ PAYMENT_GRACE: String(GRACE_MINUTES) }));
    app = await buildApp({
      db: database.db,
      config: testConfig({ checkoutTimeSeconds: CHECKOUT_TIME }),
      clock: () => clock.now,
      logger: false,
      payment: wiring,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  /** A buyer with `tickets` reserved, and the billing address set. */
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
    await buyer.json('setBillingAddress', { address: { postcode: 'GL7 1AB' } });
    return buyer;
  }

  async function cardPage(buyer: Visitor, secret: string, card: string) {
    return buyer.request({
      method: 'POST',
      url: '/sandbox/card/',
      body: new URLSearchParams({ secret, number: card, expiry: '12/34', cvc: '123' }).toString(),
    });
  }

  async function paymentsOf(buyer: Visitor) {
    const checkout = await buyer.checkout();
    const [sale] = await database.db
      .select()
      .from(sales)
      .where(eq(sales.reference, checkout.sale_reference ?? '-'));
    return sale ? database.db.select().from(payments).where(eq(payments.saleId, sale.id)) : [];
  }

  async function sold(poolId: number) {
    const [pool] = await database.db
      .select({ sold: capacityPools.sold })
      .from(capacityPools)
      .where(eq(capacityPools.id, poolId));
    return pool!.sold;
  }

  it('twenty pay submissions of one sale make one payment; a result replayed five times books once', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 2 });
    const tokens = await Promise.all(Array.from({ length: 20 }, () => buyer.json('getStripeToken')));
    expect(new Set(tokens.map((t) => t.client_secret)).size).toBe(1);
    expect(String(tokens[0]!.public_key)).toMatch(/^pk_sandbox_/);
    const made = await paymentsOf(buyer);
    expect(made).toHaveLength(1);
    expect(made[0]!.amount).toBe((await buyer.checkout()).basket_total);

    const secret = String(tokens[0]!.client_secret);
    const replies = [];
    for (let i = 0; i < 5; i++) replies.push(await cardPage(buyer, secret, '4242 4242 4242 4242'));
    expect(replies[0]!.statusCode).toBe(303);
    expect(replies[0]!.headers.location).toMatch(/^\/do\/checkout\/stripe_auth\/\?payment_intent=pi_sandbox_/);
    // Later submissions find the payment finished.
    expect(replies.slice(1).every((r) => r.statusCode === 404)).toBe(true);
    const word = {
      provider: 'sandbox' as const,
      providerPaymentId: made[0]!.providerPaymentId,
      status: 'succeeded' as const,
      amount: made[0]!.amount,
      currency: 'GBP',
    };
    const again = await Promise.all(
      Array.from({ length: 5 }, () => settlePayment(database.db, wiring.processor, word, clock.now)),
    );
    expect(again.every((s) => s.effect === 'none')).toBe(true);
    expect(await sold(poolId)).toBe(2);
    const checkout = await buyer.checkout();
    expect(checkout.payment_complete).toBe(true);
    // Paid, the sale stays on its step (the hold no longer runs out), for the flow to move on to delivery.
    expect(checkout.state).toBe('payment');
    // The return page only reads, and sends the buyer back to the checkout.
    const back = await buyer.request({ method: 'GET', url: String(replies[0]!.headers.location) });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe('/checkout/');
    // Paid: no second payment can start.
    expect((await buyer.call('getStripeToken')).statusCode).toBe(409);
  });

  it('a decline is told in the processor’s words and the next attempt is a new payment', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    const first = await buyer.json('getStripeToken');
    expect((await cardPage(buyer, String(first.client_secret), '4000000000000002')).statusCode).toBe(303);
    // The billing address given before the card is what the form starts from on the next attempt.
    expect(await buyer.json('getPaymentError')).toMatchObject({
      payment_error: 'Your card was declined.',
      billing_address: { postcode: 'GL7 1AB' },
    });
    const second = await buyer.json('getStripeToken');
    expect(second.client_secret).not.toBe(first.client_secret);
    // A card that fails Luhn is refused on the card form, and nothing is settled.
    expect((await cardPage(buyer, String(second.client_secret), '4242424242424241')).statusCode).toBe(422);
    expect((await cardPage(buyer, String(second.client_secret), '4242424242424242')).statusCode).toBe(303);
    expect(await buyer.json('getPaymentError')).toMatchObject({ payment_error: null });
    expect(await sold(poolId)).toBe(1);
    expect((await paymentsOf(buyer)).map((p) => p.status).sort()).toEqual(['failed', 'succeeded']);
  });

  it('the checkout names the payment provider (opoa, sagepay_or_stripe); get_opoa_users answers', async () => {
    const card = await reservedBuyer({ [demo.tickets.lanternEarlyAdult]: 1 }, false);
    const paying = await card.checkout();
    expect(paying.opoa).toEqual({ provider: 'stripe', merchant_id: 'acct_demo_ashcombe_estate', overridden: false });
    expect(paying.sagepay_or_stripe).toBe('stripe');
    expect(paying.payment_complete).toBe(false);

    const blocked = await reservedBuyer({ [demo.tickets.cinema]: 1 });
    const saas = await blocked.checkout();
    expect(saas.opoa).toBeNull();
    expect(saas.sagepay_or_stripe).toBeNull();
    expect(saas.organisers).toEqual([expect.objectContaining({ name: 'Moonlight Screenings', is_saas: true })]);
    // No card payment can start for a blocked basket.
    expect((await blocked.call('getStripeToken')).statusCode).toBe(409);

    expect(await card.json('getOpoaUsers')).toEqual({ opoa_users: [], full_name: '' });
    await card.request({ method: 'POST', url: '/signin/', body: `user_id=${demo.users.notSubscribed.id}` });
    expect(await card.json('getOpoaUsers')).toEqual({ opoa_users: [], full_name: 'Tom Okafor' });
  });

  it('a changed total starts a new payment; the old one can no longer be paid, and money for it goes back', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    const first = await buyer.json('getStripeToken');
    await database.db
      .update(ticketTypes)
      .set({ price: types[0]!.price + 500 })
      .where(eq(ticketTypes.id, types[0]!.id));
    const second = await buyer.json('getStripeToken');
    expect(second.client_secret).not.toBe(first.client_secret);
    expect((await cardPage(buyer, String(first.client_secret), '4242424242424242')).statusCode).toBe(404);
    const [old] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.clientSecret, String(first.client_secret)));
    const late = await settlePayment(
      database.db,
      wiring.processor,
      {
        provider: 'sandbox',
        providerPaymentId: old!.providerPaymentId,
        status: 'succeeded',
        amount: old!.amount,
        currency: 'GBP',
      },
      clock.now,
    );
    expect(late.effect).toBe('refunded');
    expect(await database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, old!.id))).toHaveLength(
      1,
    );
    expect(await sold(poolId)).toBe(0);
    expect((await cardPage(buyer, String(second.client_secret), '4242424242424242')).statusCode).toBe(303);
    expect(await sold(poolId)).toBe(1);
    const [paid] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.clientSecret, String(second.client_secret)));
    expect(paid!.amount).toBe(types[0]!.price + 500);
  });

  it('an amount that does not match the sale’s total is refused, and refunded', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    await buyer.json('getStripeToken');
    const [payment] = await paymentsOf(buyer);
    const result = await settlePayment(
      database.db,
      wiring.processor,
      {
        provider: 'sandbox',
        providerPaymentId: payment!.providerPaymentId,
        status: 'succeeded',
        amount: payment!.amount - 1,
        currency: 'GBP',
      },
      clock.now,
    );
    expect(result.effect).toBe('refused');
    expect(await sold(poolId)).toBe(0);
    expect((await buyer.checkout()).payment_complete).toBe(false);
    const refunds = await database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, payment!.id));
    expect(refunds).toHaveLength(1);
  });

  it('free tickets are claimed once; a basket with a total cannot be claimed', async () => {
    const buyer = await reservedBuyer({ [demo.tickets.freeEntry]: 2 });
    expect((await buyer.checkout()).basket_total).toBe(0);
    // Nothing to pay: no card payment starts.
    expect((await buyer.call('getStripeToken')).statusCode).toBe(409);
    const claims = await Promise.all(Array.from({ length: 5 }, () => buyer.call('claimFreeTickets', {})));
    expect(claims.every((c) => c.statusCode === 200)).toBe(true);
    expect((await buyer.checkout()).payment_complete).toBe(true);
    expect(await paymentsOf(buyer)).toHaveLength(0);

    const payer = await reservedBuyer({ [demo.tickets.lanternEarlyAdult]: 1 });
    const refused = await payer.call('claimFreeTickets', {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: PAYMENT_MESSAGES.claimFree });
  });

  it('billing and express details are checked with the spec’s messages; a lost hold sends the buyer back', async () => {
    const buyer = new Visitor(app);
    await buyer.add({ [demo.tickets.trail10k]: 1 });
    await buyer.json('reserveTickets', {});
    const billing = async (body: Parameters<Visitor['call']>[1]) => buyer.call('setBillingAddress', body as never);
    expect((await billing({ address: { postcode: '' } })).json()).toEqual({ error: ADDRESS_MESSAGES.billingPostcode });
    expect((await billing({ address: { postcode: 'ZZZZ' } })).json()).toEqual({
      error: ADDRESS_MESSAGES.unableToFindBilling,
    });
    // Peak Trail Events requires a contact number.
    expect((await buyer.checkout()).has_require_phone_number).toBe(true);
    expect((await billing({ address: { postcode: 'S33 8WN' } })).json()).toEqual({ error: PAYMENT_MESSAGES.phone });
    expect((await billing({ address: { postcode: 'S33 8WN' }, contact_number: '07700 900' })).json()).toEqual({
      error: PAYMENT_MESSAGES.phone,
    });
    const ok = await billing({
      address: { postcode: 's33 8wn', town: 'Castleton' },
      contact_number: '+44 (0)7700 900123',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ postcode: 'S33 8WN', town: 'Castleton', country_code: 'GB' });

    const express = async (body: object) => buyer.call('setAccountDetails', body as never);
    expect(
      (await express({ fullname: 'Ann', email: 'ann@example.com', contact_number: '07700 900123' })).json(),
    ).toEqual({ error: PAYMENT_MESSAGES.fullName });
    expect((await express({ fullname: 'Ann Lee', email: 'ann@', contact_number: '07700 900123' })).json()).toEqual({
      error: PAYMENT_MESSAGES.email,
    });

    advance((CHECKOUT_TIME + 1) * 1000);
    const lost = await billing({ address: { postcode: 'S33 8WN' }, contact_number: '07700 900123' });
    expect(lost.statusCode).toBe(409);
    expect(lost.json()).toMatchObject({ type: 'reserving' });
  });

  describe('the hold while paying', () => {
    /** A pool of two, a buyer who started paying for both, and the clock at the hold's deadline plus `late`. */
    async function startedPaying(lateMs: number) {
      const { poolId, types } = await hotEvent(database.db, { capacity: 2, types: 1 });
      const buyer = await reservedBuyer({ [types[0]!.id]: 2 });
      const token = await buyer.json('getStripeToken');
      advance(CHECKOUT_TIME * 1000 + lateMs);
      return { poolId, typeId: types[0]!.id, buyer, secret: String(token.client_secret) };
    }

    it('the checkout says a payment is in progress from its start until it settles, and only within the grace', async () => {
      const { types } = await hotEvent(database.db, { capacity: 4, types: 1 });
      const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
      expect(await buyer.checkout()).toMatchObject({
        payment_in_progress: false,
        payment_seconds_remaining: 0,
        seconds_remaining: CHECKOUT_TIME,
      });
      const token = await buyer.json('getStripeToken');
      expect(await buyer.checkout()).toMatchObject({
        payment_in_progress: true,
        payment_seconds_remaining: CHECKOUT_TIME + GRACE_MINUTES * 60,
        seconds_remaining: CHECKOUT_TIME,
      });
      // Past the hold's own deadline, within the grace: still on the payment step, the payment in progress.
      advance(CHECKOUT_TIME * 1000 + 4 * 60_000);
      await sweepExpiredHolds(database.db, clock.now);
      expect(await buyer.checkout()).toMatchObject({
        state: 'payment',
        seconds_remaining: 0,
        payment_in_progress: true,
        payment_seconds_remaining: (GRACE_MINUTES - 4) * 60,
      });
      // The sweeper leaves the reference of a sale whose holds the payment keeps.
      expect((await buyer.checkout()).sale_reference).toMatch(/^HF-/);
      // The payment finished: no longer in progress.
      expect((await cardPage(buyer, String(token.client_secret), '4242424242424242')).statusCode).toBe(303);
      expect(await buyer.checkout()).toMatchObject({
        payment_complete: true,
        payment_in_progress: false,
        payment_seconds_remaining: 0,
      });

      // A payment that fails is no longer in progress either.
      const other = await reservedBuyer({ [types[0]!.id]: 1 });
      const declined = await other.json('getStripeToken');
      expect((await other.checkout()).payment_in_progress).toBe(true);
      expect((await cardPage(other, String(declined.client_secret), '4000000000000002')).statusCode).toBe(303);
      expect(await other.checkout()).toMatchObject({
        payment_in_progress: false,
        payment_seconds_remaining: 0,
        state: 'payment',
      });

      // Past the grace the holds have lapsed: nothing is in progress, and the buyer is back on the basket.
      const late = await reservedBuyer({ [types[0]!.id]: 1 });
      await late.json('getStripeToken');
      advance((CHECKOUT_TIME + GRACE_MINUTES * 60 + 1) * 1000);
      await sweepExpiredHolds(database.db, clock.now);
      expect(await late.checkout()).toMatchObject({
        payment_in_progress: false,
        payment_seconds_remaining: 0,
        state: 'basket',
        sale_reference: null,
      });
    });

    it('within the grace the stock stays held and the payment is booked', async () => {
      const { poolId, typeId, buyer, secret } = await startedPaying(5 * 60_000);
      // Another buyer cannot take the stock while the payment is in progress.
      const other = new Visitor(app);
      await other.add({ [typeId]: 1 });
      expect(await other.json('reserveTickets', {})).toMatchObject({ reserved: false });
      expect((await cardPage(buyer, secret, '4242424242424242')).statusCode).toBe(303);
      expect(await sold(poolId)).toBe(2);
      expect(await buyer.json('getPaymentError')).toMatchObject({ payment_error: PAYMENT_MESSAGES.lateBooked });
    });

    it('after the grace, stock still free: booked, and the buyer is told', async () => {
      const { poolId, buyer, secret } = await startedPaying((GRACE_MINUTES + 5) * 60_000);
      // The sweeper has released the lapsed hold and forgotten the sale's reference.
      await sweepExpiredHolds(database.db, clock.now);
      expect((await buyer.checkout()).sale_reference).toBeNull();
      expect((await cardPage(buyer, secret, '4242424242424242')).statusCode).toBe(303);
      expect(await sold(poolId)).toBe(2);
      expect(await buyer.json('getPaymentError')).toMatchObject({ payment_error: PAYMENT_MESSAGES.lateBooked });
      const checkout = await buyer.checkout();
      expect(checkout.payment_complete).toBe(true);
      // Paid, it has a reference again and stands on the payment step, for the flow to go on to delivery.
      expect(checkout.sale_reference).toMatch(/^HF-/);
      expect(checkout.state).toBe('payment');
    });

    it('after the grace, stock taken: refunded at once, and the buyer is told on the basket', async () => {
      const { poolId, typeId, buyer, secret } = await startedPaying((GRACE_MINUTES + 1) * 60_000);
      const other = new Visitor(app);
      await other.add({ [typeId]: 1 });
      expect(await other.json('reserveTickets', {})).toMatchObject({ reserved: true });
      expect((await cardPage(buyer, secret, '4242424242424242')).statusCode).toBe(303);
      expect(await sold(poolId)).toBe(0);
      const [payment] = await database.db.select().from(payments).where(eq(payments.clientSecret, secret));
      expect(payment).toMatchObject({ status: 'succeeded', outcome: 'refunded' });
      const refunds = await database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, payment!.id));
      expect(refunds).toEqual([expect.objectContaining({ amount: payment!.amount })]);
      expect(await buyer.json('getPaymentError')).toMatchObject({ payment_error: PAYMENT_MESSAGES.lateRefunded });
      const checkout = await buyer.checkout();
      expect(checkout.payment_complete).toBe(false);
      expect(checkout.reserving_error).toBe(PAYMENT_MESSAGES.lateRefunded);
    });
  });

  it('no payment starts for a sale without a buyer: card and bank transfer are refused with a 409 in words, and nothing is made', async () => {
    const { types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    const guest = await reservedBuyer({ [types[0]!.id]: 1 }, false);
    for (const call of ['getStripeToken', 'payWithTruelayer', 'createTruelayerPayment'] as const) {
      const res = await guest.call(
        call,
        (call === 'payWithTruelayer' ? { contact_number: '07700 900123' } : {}) as never,
      );
      expect(res.statusCode, call).toBe(409);
      expect(res.json(), call).toMatchObject({ error: PAYMENT_MESSAGES.noBuyer });
    }
    expect(await paymentsOf(guest)).toEqual([]);
    expect((await guest.checkout()).payment_complete).toBe(false);
  });

  it('get_token refuses a card where the checkout offers none: a Square organiser’s basket, and a card basket of £2000 or more', async () => {
    const square = await reservedBuyer({ [demo.square.stalls]: 1 });
    const { types } = await hotEvent(database.db, { capacity: 10, types: 1 });
    await database.db.update(ticketTypes).set({ price: 200_000 }).where(eq(ticketTypes.id, types[0]!.id));
    const dear = await reservedBuyer({ [types[0]!.id]: 1 });
    for (const buyer of [square, dear]) {
      const res = await buyer.call('getStripeToken');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: PAYMENT_MESSAGES.cardNotOffered });
      expect(await paymentsOf(buyer)).toEqual([]);
    }
    // A basket under the limit on a card organiser is offered the card.
    const { types: cheap } = await hotEvent(database.db, { capacity: 10, types: 1 });
    expect((await (await reservedBuyer({ [cheap[0]!.id]: 1 })).call('getStripeToken')).statusCode).toBe(200);
  });

  it('every ticket sold is paid or free: payments kept equal the totals of the paid sales', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 3, types: 1 });
    const buyers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const buyer = await signedInVisitor(app, database.db);
        await buyer.add({ [types[0]!.id]: 1 });
        return buyer;
      }),
    );
    const reserved = [];
    for (const buyer of buyers) if ((await buyer.json('reserveTickets', {})).reserved) reserved.push(buyer);
    expect(reserved).toHaveLength(3);
    const cards = ['4242424242424242', '4000000000000002', '4242424242424242'];
    await Promise.all(
      reserved.map(async (buyer, i) => {
        await buyer.json('setBillingAddress', { address: { postcode: 'GL7 1AB' } });
        const token = await buyer.json('getStripeToken');
        await cardPage(buyer, String(token.client_secret), cards[i]!);
      }),
    );
    expect(await sold(poolId)).toBe(2);
    const [sums] = await rows<{ kept: number; totals: number }>(
      database.db,
      sql`SELECT
            (SELECT COALESCE(sum(p.amount), 0)::int FROM payments p JOIN sale_lines l ON l.sale_id = p.sale_id
              WHERE l.ticket_type_id = ${types[0]!.id} AND p.status = 'succeeded'
                AND NOT EXISTS (SELECT 1 FROM payment_refunds r WHERE r.payment_id = p.id)) AS kept,
            (SELECT COALESCE(sum(l.qty * t.price), 0)::int FROM sales s JOIN sale_lines l ON l.sale_id = s.id JOIN ticket_types t ON t.id = l.ticket_type_id
              WHERE l.ticket_type_id = ${types[0]!.id} AND s.paid_at IS NOT NULL) AS totals`,
    );
    expect(Number(sums!.kept)).toBe(Number(sums!.totals));
    expect(Number(sums!.kept)).toBe(2 * types[0]!.price);
  });
});
