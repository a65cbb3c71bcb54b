/**
 * A plan's new card saved through Stripe, on each driver, against the local stand-in for Stripe's
 * API (e2e/fakeStripe.ts): create_setup_intent makes the buyer's Stripe customer once and a
 * SetupIntent for it; pay_with_instalment takes the card only as Stripe tells it (the SetupIntent
 * read back: succeeded, for this buyer's customer), charges the first instalment on it and the job
 * the later ones off-session; anything else is refused in words. Without keys, the sandbox's form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { parseConfig, testConfig } from '../../config.ts';
import { openSeededTestDatabase } from '../../db/testing.ts';
import type { OpenDatabase } from '../../db/index.ts';
import {
  discountCodes,
  instalmentPlans,
  instalments,
  sales,
  savedPaymentMethods,
  stripeCustomers,
} from '../../db/schema.ts';
import type { Demo } from '../../seed.ts';
import { drivers, openWorld, Visitor } from '../../test/harness.ts';
import { planWiring } from '../../providers/plans.ts';
import { runInstalmentJob } from './job.ts';
import { INSTALMENT_MESSAGES } from '../../../contract/messages/instalment.ts';
import { startFakeStripe, type FakeStripe } from '../../../e2e/fakeStripe.ts';

const KEYS = { STRIPE_PUBLISHABLE_KEY: 'pk_test_holdfast', STRIPE_SECRET_KEY: 'sk_test_holdfast' };
const PHONE = '07700 900123';

describe.each(drivers)('a new plan card saved by a Stripe SetupIntent on %s', (driver) => {
  let database: OpenDatabase;
  let demo: Demo;
  let app: FastifyInstance;
  let fake: FakeStripe;
  const clock = { now: new Date('2026-06-01T12:00:00Z') };
  const wiring = () => planWiring(database.db, parseConfig({ ...KEYS, STRIPE_API_BASE: fake.url }));

  beforeAll(async () => {
    ({ database, demo } = await openSeededTestDatabase(driver, 4));
    fake = await startFakeStripe({
      secretKey: KEYS.STRIPE_SECRET_KEY,
      publishableKey: KEYS.STRIPE_PUBLISHABLE_KEY,
      clock: () => clock.now.getTime(),
    });
    app = await buildApp({
      db: database.db,
      config: testConfig(),
      clock: () => clock.now,
      logger: false,
      plans: wiring(),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
    await database?.close();
  });

  /** A signed-in buyer with `qty` weekend tickets held; the sale's id. */
  async function planBuyer(qty: number, userId = demo.users.subscribedDark.id) {
    const v = new Visitor(app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    expect((await v.add({ [demo.plans.weekend]: qty })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    return { v, saleId: sale!.id };
  }

  /** create_setup_intent, and the SetupIntent it made at Stripe. */
  async function setupIntentFor(v: Visitor) {
    const res = await v.call('createPlanSetupIntent');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { public_key: string; client_secret: string };
    const intent = [...fake.setupIntents.values()].find((i) => i.client_secret === body.client_secret)!;
    return { body, intent };
  }

  const planOf = (saleId: string) =>
    database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId));

  it('makes a SetupIntent for the buyer’s Stripe customer, made once and kept, and names Stripe’s form for a new card', async () => {
    const amelia = demo.users.subscribedDark;
    const { v, saleId } = await planBuyer(1);
    expect((await v.json('getSavedPaymentMethods')).public_key).toBe(KEYS.STRIPE_PUBLISHABLE_KEY);
    const first = await setupIntentFor(v);
    expect(first.body.public_key).toBe(KEYS.STRIPE_PUBLISHABLE_KEY);
    expect(first.body.client_secret).toMatch(/^seti_\w+_secret_\w+$/);
    const [kept] = await database.db.select().from(stripeCustomers).where(eq(stripeCustomers.userId, amelia.id));
    expect(fake.customers.get(kept!.customerId)).toMatchObject({
      email: amelia.email,
      metadata: { user_id: String(amelia.id) },
    });
    // Card only, for later payments without the buyer (spec 001 §9), for this buyer's customer.
    expect(first.intent).toMatchObject({
      customer: kept!.customerId,
      usage: 'off_session',
      payment_method_types: ['card'],
      status: 'requires_payment_method',
      metadata: { sale_id: saleId },
    });
    const customersBefore = fake.customers.size;
    const again = await setupIntentFor(v);
    expect(again.intent.id).not.toBe(first.intent.id);
    expect(again.intent.customer).toBe(kept!.customerId);
    expect(fake.customers.size).toBe(customersBefore);
  });

  it('sets the plan up on the card the SetupIntent saved: the first instalment charged on it, the rest off-session by the job', async () => {
    const { v, saleId } = await planBuyer(2);
    const { intent } = await setupIntentFor(v);
    const saved = await fake.confirmSetup(intent.id, '4242 4242 4242 4242');
    expect(saved).toMatchObject({ status: 'succeeded', payment_method: expect.stringMatching(/^pm_/) });
    const pm = intent.payment_method!;

    const res = await v.call('payWithInstalment', {
      instalment_option: '3',
      contact_number: PHONE,
      setup_intent: { id: intent.id, make_default_payment_method: 'true' },
    });
    expect(res.json()).toEqual({ status: 'success', url: null });
    expect((await v.checkout()).payment_plan_remaining).toBe(2 * 12_600);
    // The server read the SetupIntent back from Stripe before trusting the card.
    expect(
      fake.requests.some(
        (r) =>
          r.method === 'GET' &&
          r.path === `/v1/setup_intents/${intent.id}` &&
          r.headers.authorization === `Bearer ${KEYS.STRIPE_SECRET_KEY}`,
      ),
    ).toBe(true);
    const [card] = await database.db
      .select()
      .from(savedPaymentMethods)
      .where(eq(savedPaymentMethods.providerMethodId, pm));
    expect(card).toMatchObject({
      provider: 'stripe',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2034,
      isDefault: true,
      userId: demo.users.subscribedDark.id,
    });
    const [firstCharge] = [...fake.intents.values()].filter((i) => i.status === 'succeeded');
    expect(firstCharge).toMatchObject({ amount: 12_600, currency: 'gbp' });
    const charges = () =>
      fake.requests.filter(
        (r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.params.payment_method === pm,
      );
    expect(charges().map((r) => r.params)).toEqual([
      expect.objectContaining({
        amount: '12600',
        currency: 'gbp',
        customer: intent.customer,
        confirm: 'true',
        description: 'Instalment 1 of 3',
      }),
    ]);
    const schedule = await database.db
      .select()
      .from(instalments)
      .where(eq(instalments.saleId, saleId))
      .orderBy(asc(instalments.seq));
    expect(schedule.map((i) => [i.seq, i.status, i.providerPaymentId])).toEqual([
      [1, 'paid', firstCharge!.id],
      [2, 'scheduled', null],
      [3, 'scheduled', null],
    ]);

    // 1 July: the job charges the second instalment on the saved card, off-session, once.
    const job = {
      db: database.db,
      cards: wiring().cards,
      mail: {
        mailer: { transport: null, from: 'test@holdfast.test' },
        brandName: 'Holdfast',
        publicUrl: 'http://holdfast.test',
      },
      walletUrl: 'http://holdfast.test/account/wallet/',
    };
    expect((await runInstalmentJob(job, new Date('2026-07-01T12:00:00Z'))).charged).toBe(1);
    expect((await runInstalmentJob(job, new Date('2026-07-01T12:00:00Z'))).charged).toBe(0);
    expect(charges().map((r) => [r.params.description, r.params.off_session, r.params.customer])).toEqual([
      ['Instalment 1 of 3', undefined, intent.customer],
      ['Instalment 2 of 3', 'true', intent.customer],
    ]);
    expect((await v.checkout()).payment_plan_remaining).toBe(12_600);
  });

  it('refunds the first instalment at Stripe, in full, when the booking fails after the charge, and sets no plan up', async () => {
    const code = `ONCE${Date.now().toString(36).toUpperCase()}`;
    await database.db.insert(discountCodes).values({ code, kind: 'percent', amount: 1000, usageLimit: 1 });
    const v = new Visitor(app);
    expect(
      (await v.request({ method: 'POST', url: '/signin/', body: `user_id=${demo.users.subscribedDark.id}` }))
        .statusCode,
    ).toBe(303);
    expect((await v.add({ [demo.plans.weekend]: 1 })).statusCode).toBe(200);
    expect(await v.json('setCode', { code })).toEqual({ code_applied: true });
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const [sale] = await database.db
      .select({ id: sales.id })
      .from(sales)
      .where(eq(sales.reference, (await v.checkout()).sale_reference!));
    const { intent } = await setupIntentFor(v);
    expect(await fake.confirmSetup(intent.id, '4242 4242 4242 4242')).toMatchObject({ status: 'succeeded' });
    // Meanwhile the code's one use is spent by another sale's payment.
    await database.db.update(discountCodes).set({ used: 1 }).where(eq(discountCodes.code, code));

    const res = await v.call('payWithInstalment', {
      instalment_option: '2',
      contact_number: PHONE,
      setup_intent: { id: intent.id, make_default_payment_method: 'false' },
    });
    expect(res.json()).toEqual({ status: 'unsuccessful', url: null });
    expect(await planOf(sale!.id)).toEqual([]);
    const charged = [...fake.intents.values()].filter(
      (i) => i.payment_method === intent.payment_method && i.status === 'succeeded',
    );
    expect(charged).toHaveLength(1);
    expect(fake.refunds.filter((r) => r.payment_intent === charged[0]!.id)).toEqual([
      expect.objectContaining({ amount: charged[0]!.amount, status: 'succeeded' }),
    ]);
    expect(await v.json('getPaymentError')).toMatchObject({ payment_error: INSTALMENT_MESSAGES.refunded });
    expect((await v.checkout()).payment_complete).toBe(false);
  });

  it('refuses a SetupIntent of another buyer, one not succeeded, a declined or unknown one, and a bare card id, in words, setting nothing up', async () => {
    const { v, saleId } = await planBuyer(1);
    const tom = await planBuyer(1, demo.users.notSubscribed.id);
    const theirs = (await setupIntentFor(tom.v)).intent;
    expect(await fake.confirmSetup(theirs.id)).toMatchObject({ status: 'succeeded' });
    const open = (await setupIntentFor(v)).intent;
    const declined = (await setupIntentFor(v)).intent;
    expect(await fake.confirmSetup(declined.id, '4000 0000 0000 0002')).toEqual({
      error: expect.objectContaining({ code: 'card_declined', message: 'Your card was declined.' }),
    });
    const cases = [
      [{ setup_intent: { id: theirs.id } }, INSTALMENT_MESSAGES.cardNotYours],
      [{ setup_intent: { id: open.id } }, INSTALMENT_MESSAGES.cardNotSaved],
      [{ setup_intent: { id: declined.id } }, INSTALMENT_MESSAGES.cardNotSaved],
      [{ setup_intent: { id: 'seti_unknown' } }, INSTALMENT_MESSAGES.cardNotSaved],
      [{ setup_intent: { id: 'pm_not_a_setup' } }, INSTALMENT_MESSAGES.cardNotSaved],
      // The card Tom's SetupIntent saved, named by the browser alone: not trusted.
      [
        {
          new_payment_method: {
            id: theirs.payment_method!,
            brand: 'visa',
            last4: '4242',
            month: '12',
            year: '2034',
            funding: 'credit',
          },
        },
        INSTALMENT_MESSAGES.cardThroughStripe,
      ],
    ] as const;
    for (const [card, message] of cases) {
      const res = await v.call('payWithInstalment', {
        instalment_option: '2',
        contact_number: PHONE,
        ...card,
      } as never);
      expect(res.statusCode, JSON.stringify(card)).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
    expect(await planOf(saleId)).toEqual([]);
    expect((await v.checkout()).payment_complete).toBe(false);
    expect(
      await database.db
        .select()
        .from(savedPaymentMethods)
        .where(eq(savedPaymentMethods.provider, 'stripe'))
        .then((rows) => rows.map((r) => r.providerMethodId)),
    ).not.toContain(theirs.payment_method);
  });

  it('answers unsuccessful when the saved card is declined for the first instalment, and sets nothing up', async () => {
    const { v, saleId } = await planBuyer(1);
    const { intent } = await setupIntentFor(v);
    await fake.confirmSetup(intent.id, '4000 0000 0000 0341');
    const res = await v.call('payWithInstalment', {
      instalment_option: '2',
      contact_number: PHONE,
      setup_intent: { id: intent.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'unsuccessful', url: null });
    expect(await planOf(saleId)).toEqual([]);
    expect((await v.checkout()).payment_complete).toBe(false);
  });

  it('makes no SetupIntent for a visitor without a held sale, or a sale without an account', async () => {
    const nobody = new Visitor(app);
    const none = await nobody.call('createPlanSetupIntent');
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ type: 'reserving' });
    const guest = new Visitor(app);
    await guest.add({ [demo.plans.weekend]: 1 });
    expect((await guest.json('reserveTickets')).reserved).toBe(true);
    const before = fake.setupIntents.size;
    const res = await guest.call('createPlanSetupIntent');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: INSTALMENT_MESSAGES.error });
    expect(fake.setupIntents.size).toBe(before);
  });
});

describe.each(drivers)('without Stripe keys on %s', (driver) => {
  it('names the sandbox’s card form, with no secret, and refuses a SetupIntent in words', async () => {
    const w = await openWorld(driver);
    try {
      const v = new Visitor(w.app);
      expect(
        (await v.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.subscribedDark.id}` }))
          .statusCode,
      ).toBe(303);
      await v.add({ [w.demo.plans.weekend]: 1 });
      expect((await v.json('reserveTickets')).reserved).toBe(true);
      expect(await v.json('createPlanSetupIntent')).toEqual({ public_key: 'pk_sandbox_holdfast', client_secret: null });
      expect((await v.json('getSavedPaymentMethods')).public_key).toBe('pk_sandbox_holdfast');
      const res = await v.call('payWithInstalment', {
        instalment_option: '2',
        contact_number: PHONE,
        setup_intent: { id: 'seti_anything' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: INSTALMENT_MESSAGES.noStripeSetup });
    } finally {
      await w.close();
    }
  });
});
