/**
 * A payment is for one basket, and an open payment always ends booked or refunded, through the real
 * app on each driver: a basket edited after its payment began (more tickets, refund protection, a
 * larger donation) cannot be booked by the old payment, by card or by bank; a plan set up beside an
 * open card payment takes the only money; a single-use code counts through the payment's grace; a
 * late payment keeps its reference and donation; a refund the processor refuses stays owed and is
 * retried; a payment left open is settled or closed by the reconciliation job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { parseConfig, testConfig } from '../config.ts';
import { openSeededTestDatabase } from '../db/testing.ts';
import { rows, type OpenDatabase } from '../db/index.ts';
import { capacityPools, discountCodes, paymentRefunds, payments, sales, sandboxCharges } from '../db/schema.ts';
import type { Demo } from '../seed.ts';
import { drivers, Visitor } from '../test/harness.ts';
import { hotEvent, signedInVisitor } from '../test/fixtures.ts';
import { refusalOf } from '../test/refusals.ts';
import { paymentWiring, type PaymentWiring } from '../providers/payment.ts';
import { bankWiring } from '../providers/bank.ts';
import { planWiring } from '../providers/plans.ts';
import { processorLinks } from '../providers/processorLinks.ts';
import { keptPayments, settlePayment } from './payment/payments.ts';
import { NOT_COMPLETED_MESSAGE, reconcilePayments, type ProcessorLinks } from './payment/reconcile.ts';
import { sweepExpiredHolds } from './stock.ts';
import { setRefundProtection, updateTicketQuantity } from './basket.ts';
import { PAID_SALE_MESSAGE } from './sales.ts';
import { PAYMENT_MESSAGES } from '../../contract/messages/payment.ts';
import { SANDBOX_CARDS } from '../../contract/index.ts';

const HOLD_SECONDS = 600;
const GRACE_MINUTES = 10;
const SUCCESS_CARD = '4242 4242 4242 4242';

describe.each(drivers)('a payment is for one basket on %s', (driver) => {
  let database: OpenDatabase;
  let app: FastifyInstance;
  let demo: Demo;
  let wiring: PaymentWiring;
  /** The card processor's refunds fail while this is set, as a processor that refuses them would. */
  let refundsRefused = false;
  let links: ProcessorLinks;
  const clock = { now: new Date('2026-06-01T12:00:00Z') };
  const advance = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));

  beforeAll(async () => {
    ({ database, demo } = await openSeededTestDatabase(driver, 8));
    const base = paymentWiring(parseConfig({ PAYMENT_GRACE: String(GRACE_MINUTES) }));
    wiring = {
      ...base,
      processor: {
        ...base.processor,
        async refund(request) {
          if (refundsRefused) throw new Error('The processor refused the refund');
          await base.processor.refund(request);
        },
      },
    };
    const bank = bankWiring(parseConfig({}));
    const plans = planWiring(database.db, parseConfig({}));
    links = processorLinks({ payment: wiring, bank, plans });
    app = await buildApp({
      db: database.db,
      config: testConfig({ checkoutTimeSeconds: HOLD_SECONDS }),
      clock: () => clock.now,
      logger: false,
      payment: wiring,
      bank,
      plans,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  async function reservedBuyer(tickets: Record<number, number>, userId?: number): Promise<Visitor> {
    const buyer = userId === undefined ? await signedInVisitor(app, database.db) : new Visitor(app);
    if (userId !== undefined)
      expect((await buyer.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(
        303,
      );
    expect((await buyer.add(tickets)).statusCode).toBe(200);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await buyer.json('updateBasketState', { state: 'payment' });
    await buyer.json('setBillingAddress', { address: { postcode: 'GL7 1AB' } });
    return buyer;
  }

  const cardPage = (buyer: Visitor, secret: string, card = SUCCESS_CARD) =>
    buyer.request({
      method: 'POST',
      url: '/sandbox/card/',
      body: new URLSearchParams({ secret, number: card, expiry: '12/34', cvc: '123' }).toString(),
    });

  async function saleIdOf(buyer: Visitor): Promise<string> {
    const reference = (await buyer.checkout()).sale_reference;
    const [sale] = await database.db
      .select({ id: sales.id })
      .from(sales)
      .where(eq(sales.reference, reference ?? '-'));
    return sale!.id;
  }

  const paymentBySecret = async (secret: string) =>
    (await database.db.select().from(payments).where(eq(payments.clientSecret, secret)))[0]!;
  const saleRow = async (saleId: string) => (await database.db.select().from(sales).where(eq(sales.id, saleId)))[0]!;
  const sold = async (poolId: number) =>
    (await database.db.select({ sold: capacityPools.sold }).from(capacityPools).where(eq(capacityPools.id, poolId)))[0]!
      .sold;

  /** Money taken and not given back (refunds owed count as given back) for the sale's payments. */
  async function keptFor(saleId: string): Promise<number> {
    const [row] = await rows<{ kept: number }>(
      database.db,
      sql`SELECT COALESCE(sum(p.amount), 0)::int AS kept FROM payments p
          WHERE p.sale_id = ${saleId} AND p.status = 'succeeded' AND NOT EXISTS (SELECT 1 FROM payment_refunds r WHERE r.payment_id = p.id)`,
    );
    return Number(row!.kept);
  }

  /** The processor says the payment's money arrived (a webhook, or the job's question). */
  const moneyArrived = (secret: string) =>
    paymentBySecret(secret).then((p) =>
      settlePayment(
        database.db,
        wiring.processor,
        {
          provider: p.provider,
          providerPaymentId: p.providerPaymentId,
          status: 'succeeded',
          amount: p.amount,
          currency: p.currency,
        },
        clock.now,
      ),
    );

  it('pay for 1, get 10: raising the quantity after get_token closes the payment, so its old secret takes nothing and books nothing', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 20, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    const { client_secret } = (await buyer.json('getStripeToken')) as { client_secret: string };
    const saleId = await saleIdOf(buyer);
    expect((await buyer.call('updateTicketQuantity', { ticket_id: types[0]!.id, quantity: 10 })).statusCode).toBe(200);

    // The sandbox card page no longer takes the old payment.
    expect((await cardPage(buyer, client_secret)).statusCode).toBe(404);
    // Money the processor takes for it anyway (a payment form already submitted) goes straight back.
    expect((await moneyArrived(client_secret)).effect).toBe('refunded');
    const [refund] = await database.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, (await paymentBySecret(client_secret)).id));
    expect(refund).toMatchObject({ amount: 1000, status: 'done' });
    expect((await saleRow(saleId)).paidAt).toBeNull();
    expect(await sold(poolId)).toBe(0);
    expect(await keptFor(saleId)).toBe(0);
    expect(await buyer.json('getPaymentError')).toMatchObject({ payment_error: PAYMENT_MESSAGES.closedRefunded });

    // Reserved again, the ten are paid for at their own price.
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const again = (await buyer.json('getStripeToken')) as { client_secret: string };
    expect((await paymentBySecret(again.client_secret)).amount).toBe(10_000);
    expect((await cardPage(buyer, again.client_secret)).statusCode).toBe(303);
    expect(await sold(poolId)).toBe(10);
    expect(await keptFor(saleId)).toBe(10_000);
  });

  it('a payment whose basket changed under it is refunded at settlement even if it was never closed', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 20, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    const { client_secret } = (await buyer.json('getStripeToken')) as { client_secret: string };
    const saleId = await saleIdOf(buyer);
    // A line changed behind the checkout's back (as a race with the edit would leave it).
    await database.db.execute(sql`UPDATE sale_lines SET qty = 10 WHERE sale_id = ${saleId}`);
    expect((await cardPage(buyer, client_secret)).statusCode).toBe(303);
    expect((await saleRow(saleId)).paidAt).toBeNull();
    expect(await sold(poolId)).toBe(0);
    expect(await keptFor(saleId)).toBe(0);
    expect((await paymentBySecret(client_secret)).outcome).toBe('refunded');
    expect(await buyer.json('getPaymentError')).toMatchObject({ payment_error: PAYMENT_MESSAGES.closedRefunded });
  });

  it('turning refund protection on, or a larger donation, after get_token closes the open payment', async () => {
    const jazz = demo.tickets.jazzGeneral;
    const protectedBuyer = await reservedBuyer({ [jazz]: 1 });
    const first = (await protectedBuyer.json('getStripeToken')) as { client_secret: string };
    expect((await protectedBuyer.call('updateRefundProtection', { refund_protection: true })).statusCode).toBe(200);
    expect((await cardPage(protectedBuyer, first.client_secret)).statusCode).toBe(404);
    expect((await protectedBuyer.checkout()).payment_complete).toBe(false);

    const donor = await reservedBuyer({ [jazz]: 1 });
    expect(
      (
        await donor.call('saveDonation', {
          amount_before_booking_fee: '500' as never,
          charity_id: String(demo.charity.id) as never,
        })
      ).statusCode,
    ).toBe(200);
    const second = (await donor.json('getStripeToken')) as { client_secret: string };
    expect(
      (
        await donor.call('saveDonation', {
          amount_before_booking_fee: '5000' as never,
          charity_id: String(demo.charity.id) as never,
        })
      ).statusCode,
    ).toBe(200);
    expect((await cardPage(donor, second.client_secret)).statusCode).toBe(404);
    const saleId = await saleIdOf(donor);
    expect((await saleRow(saleId)).paidAt).toBeNull();
    // Paying now pays for the larger donation too.
    const third = (await donor.json('getStripeToken')) as { client_secret: string };
    expect((await paymentBySecret(third.client_secret)).amount).toBe((await donor.checkout()).basket_total);
    expect((await cardPage(donor, third.client_secret)).statusCode).toBe(303);
    expect(await keptFor(saleId)).toBe((await donor.checkout()).basket_total);
  });

  it('a bank payment approved after the basket grew is refunded, not booked', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 20, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    const { auth_url } = (await buyer.json('payWithTruelayer', { contact_number: '07700 900123' })) as {
      auth_url: string;
    };
    const token = new URL(auth_url, 'http://x').searchParams.get('token')!;
    const saleId = await saleIdOf(buyer);
    expect((await buyer.call('updateTicketQuantity', { ticket_id: types[0]!.id, quantity: 10 })).statusCode).toBe(200);
    await buyer.request({
      method: 'POST',
      url: '/sandbox/bank/',
      body: new URLSearchParams({ token, decision: 'approve' }).toString(),
    });
    expect((await saleRow(saleId)).paidAt).toBeNull();
    expect(await sold(poolId)).toBe(0);
    expect(await keptFor(saleId)).toBe(0);
  });

  it('a basket that costs money is not claimed free: the free claim reads its total under the sale’s lock', async () => {
    const { types } = await hotEvent(database.db, { capacity: 20, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    const claim = await buyer.call('claimFreeTickets');
    expect(claim.statusCode).toBe(409);
    expect((await saleRow(await saleIdOf(buyer))).paidAt).toBeNull();
  });

  it('a plan set up beside an open card payment is the only money taken; card money that arrives anyway is refunded', async () => {
    const user = demo.users.subscribedDark.id;
    const buyer = await reservedBuyer({ [demo.plans.weekend]: 1 }, user);
    const saleId = await saleIdOf(buyer);
    const { client_secret } = (await buyer.json('getStripeToken')) as { client_secret: string };
    const card = (
      await buyer.call('saveSandboxCard', { number: SANDBOX_CARDS.success, expiry: '12/34', cvc: '123' })
    ).json() as { id: string };
    const plan = await buyer.call('payWithInstalment', {
      instalment_option: '2',
      contact_number: '07700 900123',
      new_payment_method: card as never,
    });
    expect(plan.json()).toEqual({ status: 'success', url: null });
    // The card payment was closed by the plan: its page takes nothing.
    expect((await cardPage(buyer, client_secret)).statusCode).toBe(404);
    // Money that arrives for it anyway (a Stripe webhook) goes back; the sale stays paid by the plan.
    expect((await moneyArrived(client_secret)).effect).toBe('refunded');
    expect(await keptFor(saleId)).toBe(0);
    const charges = await database.db
      .select()
      .from(sandboxCharges)
      .where(sql`${sandboxCharges.idempotencyKey} LIKE ${`plan:${saleId}:%`}`);
    expect(charges).toHaveLength(1);
  });

  it('money that succeeds for a sale already paid is refunded, never kept', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 20, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 2 });
    const saleId = await saleIdOf(buyer);
    const first = (await buyer.json('getStripeToken')) as { client_secret: string };
    const firstPayment = await paymentBySecret(first.client_secret);
    // A second open payment of the same sale, as a second processor or a second tab would leave it.
    const secondId = `pi_sandbox_${randomUUID().replace(/-/g, '')}`;
    await database.db.insert(payments).values({
      ...firstPayment,
      id: undefined,
      providerPaymentId: secondId,
      idempotencyKey: `${saleId}:other`,
      clientSecret: `cs_${secondId}`,
    });
    expect((await cardPage(buyer, first.client_secret)).statusCode).toBe(303);
    const late = await settlePayment(
      database.db,
      wiring.processor,
      {
        provider: 'sandbox',
        providerPaymentId: secondId,
        status: 'succeeded',
        amount: firstPayment.amount,
        currency: 'GBP',
      },
      clock.now,
    );
    expect(late.effect).toBe('refunded');
    expect(await keptFor(saleId)).toBe(firstPayment.amount);
    expect(await sold(poolId)).toBe(2);
  });

  it('a single-use code counts through its payment’s grace: nobody else takes it, and a used-up code books nothing', async () => {
    const code = `ONCE${randomUUID().slice(0, 6).toUpperCase()}`;
    await database.db.insert(discountCodes).values({ code, kind: 'percent', amount: 1000, usageLimit: 1 });
    const jazz = demo.tickets.jazzGeneral;
    const a = await signedInVisitor(app, database.db);
    await a.add({ [jazz]: 1 });
    expect(await a.json('setCode', { code })).toEqual({ code_applied: true });
    expect(await a.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await a.json('updateBasketState', { state: 'payment' });
    await a.json('setBillingAddress', { address: { postcode: 'GL7 1AB' } });
    const { client_secret } = (await a.json('getStripeToken')) as { client_secret: string };
    // Past A's hold, inside its payment's grace.
    advance((HOLD_SECONDS + 60) * 1000);
    const b = new Visitor(app);
    await b.add({ [jazz]: 1 });
    expect(await b.json('setCode', { code })).toEqual({ code_applied: false });
    // Forced onto B's sale, the reservation still refuses it.
    const bSale = (
      await database.db
        .select({ id: sales.id })
        .from(sales)
        .orderBy(sql`${sales.createdAt} DESC`)
        .limit(1)
    )[0]!;
    const [codeRow] = await database.db.select().from(discountCodes).where(eq(discountCodes.code, code));
    await database.db.update(sales).set({ discountCodeId: codeRow!.id }).where(eq(sales.id, bSale.id));
    await b.json('reserveTickets', {});
    expect(
      (await database.db.select({ codeId: sales.discountCodeId }).from(sales).where(eq(sales.id, bSale.id)))[0]!.codeId,
    ).toBeNull();

    expect((await cardPage(a, client_secret)).statusCode).toBe(303);
    expect((await a.checkout()).payment_complete).toBe(true);
    const [after] = await database.db.select().from(discountCodes).where(eq(discountCodes.code, code));
    expect(after!.used).toBe(1);
    advance(-(HOLD_SECONDS + 60) * 1000);
  });

  it('a payment whose code was used up meanwhile is refunded, so paid uses stay within the limit', async () => {
    const code = `GONE${randomUUID().slice(0, 6).toUpperCase()}`;
    await database.db.insert(discountCodes).values({ code, kind: 'percent', amount: 1000, usageLimit: 1 });
    const a = await signedInVisitor(app, database.db);
    await a.add({ [demo.tickets.jazzGeneral]: 1 });
    expect(await a.json('setCode', { code })).toEqual({ code_applied: true });
    expect(await a.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await a.json('setBillingAddress', { address: { postcode: 'GL7 1AB' } });
    const { client_secret } = (await a.json('getStripeToken')) as { client_secret: string };
    await database.db.update(discountCodes).set({ used: 1 }).where(eq(discountCodes.code, code));
    expect((await cardPage(a, client_secret)).statusCode).toBe(303);
    const saleId = (await paymentBySecret(client_secret)).saleId;
    expect((await saleRow(saleId)).paidAt).toBeNull();
    expect(await keptFor(saleId)).toBe(0);
    expect((await database.db.select().from(discountCodes).where(eq(discountCodes.code, code)))[0]!.used).toBe(1);
  });

  it('a late payment booked after its hold ran out keeps its reference and its donation', async () => {
    const donor = await reservedBuyer({ [demo.tickets.jazzGeneral]: 1 });
    expect(
      (
        await donor.call('saveDonation', {
          amount_before_booking_fee: '700' as never,
          charity_id: String(demo.charity.id) as never,
        })
      ).statusCode,
    ).toBe(200);
    const before = await donor.checkout();
    const { client_secret } = (await donor.json('getStripeToken')) as { client_secret: string };
    expect((await paymentBySecret(client_secret)).amount).toBe(before.basket_total);
    const saleId = await saleIdOf(donor);
    advance((HOLD_SECONDS + GRACE_MINUTES * 60 + 5) * 1000);
    await sweepExpiredHolds(database.db, clock.now);
    expect((await saleRow(saleId)).reference).toBeNull();
    expect((await cardPage(donor, client_secret)).statusCode).toBe(303);
    const after = await donor.checkout();
    expect(after.payment_complete).toBe(true);
    expect(after.sale_reference).toBe(before.sale_reference);
    expect(after.donation_amount).toBe(700);
    expect(after.basket_total).toBe(before.basket_total);
    expect(await keptFor(saleId)).toBe(before.basket_total);
    advance(-(HOLD_SECONDS + GRACE_MINUTES * 60 + 5) * 1000);
  });

  it('a refund the processor refuses stays owed and is retried by the job; the settlement is not undone', async () => {
    const { types } = await hotEvent(database.db, { capacity: 20, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    const { client_secret } = (await buyer.json('getStripeToken')) as { client_secret: string };
    await buyer.call('updateTicketQuantity', { ticket_id: types[0]!.id, quantity: 3 });
    refundsRefused = true;
    try {
      expect((await moneyArrived(client_secret)).effect).toBe('refunded');
    } finally {
      refundsRefused = false;
    }
    const payment = await paymentBySecret(client_secret);
    const [owed] = await database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, payment.id));
    expect(owed).toMatchObject({ status: 'pending', attempts: 1, lastError: 'The processor refused the refund' });
    expect(owed!.retryAt!.getTime()).toBeGreaterThan(clock.now.getTime());
    // Replayed, the word changes nothing and asks for no second refund.
    expect((await moneyArrived(client_secret)).effect).toBe('none');

    advance(2 * 60_000);
    const report = await reconcilePayments(database.db, links, clock.now);
    expect(report.refundsDone).toBeGreaterThanOrEqual(1);
    const [done] = await database.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, payment.id));
    expect(done).toMatchObject({ status: 'done', attempts: 2, retryAt: null });
    advance(-2 * 60_000);
  });

  it('the job closes a payment left open when the buyer went away, and books one whose money the processor took', async () => {
    const { poolId, types } = await hotEvent(database.db, { capacity: 20, types: 1 });
    const away = await reservedBuyer({ [types[0]!.id]: 1 });
    const left = (await away.json('getStripeToken')) as { client_secret: string };
    const paid = await reservedBuyer({ [types[0]!.id]: 2 });
    const taken = (await paid.json('getStripeToken')) as { client_secret: string };
    const takenPayment = await paymentBySecret(taken.client_secret);
    // Before its grace ends, the job leaves an open payment alone.
    await reconcilePayments(database.db, links, clock.now);
    expect((await paymentBySecret(left.client_secret)).status).toBe('requires_payment_method');

    const later = (HOLD_SECONDS + GRACE_MINUTES * 60 + 10 * 60) * 1000;
    advance(later);
    // The processor of the second payment says its money arrived; the first it knows nothing of.
    const knowing: ProcessorLinks = (payment) => {
      const link = links(payment);
      return payment.id === takenPayment.id
        ? {
            ...link,
            retrieve: async () => ({
              status: 'succeeded',
              amount: payment.amount,
              currency: payment.currency,
              failureMessage: null,
            }),
          }
        : link;
    };
    const report = await reconcilePayments(database.db, knowing, clock.now);
    expect(report).toMatchObject({ booked: 1, closed: 1 });
    expect(await paymentBySecret(left.client_secret)).toMatchObject({
      status: 'failed',
      failureMessage: NOT_COMPLETED_MESSAGE,
      checkAfter: null,
    });
    expect(await paymentBySecret(taken.client_secret)).toMatchObject({
      status: 'succeeded',
      outcome: 'booked',
      checkAfter: null,
    });
    expect(await sold(poolId)).toBe(2);
    // Nothing is left for a second run, in this process or another.
    expect(await reconcilePayments(database.db, knowing, clock.now)).toMatchObject({ asked: 0 });
    const open = await database.db
      .select()
      .from(payments)
      .where(
        and(
          sql`${payments.status} IN ('requires_payment_method', 'requires_action')`,
          sql`${payments.checkAfter} IS NULL`,
        ),
      );
    expect(open).toEqual([]);
    advance(-later);
  });

  it('a paid sale’s basket cannot change, even by an edit that passed the door before the payment landed', async () => {
    const { types } = await hotEvent(database.db, { capacity: 20, types: 1 });
    const buyer = await reservedBuyer({ [types[0]!.id]: 1 });
    const { client_secret } = (await buyer.json('getStripeToken')) as { client_secret: string };
    expect((await cardPage(buyer, client_secret)).statusCode).toBe(303);
    const saleId = (await paymentBySecret(client_secret)).saleId;
    // The domain refuses under the sale's lock what the call's own check would have let through.
    expect(await refusalOf(updateTicketQuantity(database.db, saleId, types[0]!.id, 10))).toMatchObject({
      status: 409,
      message: PAID_SALE_MESSAGE,
    });
    expect(await refusalOf(setRefundProtection(database.db, saleId, true))).toMatchObject({ status: 409 });
    expect(await rows<{ qty: number }>(database.db, sql`SELECT qty FROM sale_lines WHERE sale_id = ${saleId}`)).toEqual(
      [{ qty: 1 }],
    );
  });

  it('money kept equals what the paid sales total', async () => {
    const [paid] = await rows<{ total: number }>(
      database.db,
      sql`SELECT COALESCE(sum(p.amount), 0)::int AS total FROM payments p JOIN sales s ON s.id = p.sale_id WHERE p.outcome = 'booked' AND s.paid_at IS NOT NULL`,
    );
    expect(await keptPayments(database.db)).toBe(Number(paid!.total));
  });
});
