/**
 * A plan's card changed in My account with Stripe keyed, against the local stand-in for Stripe's
 * API (e2e/fakeStripe.ts): the card page makes a SetupIntent for the buyer's own customer, Stripe.js
 * confirms it (here the stand-in, as a browser would), and the return reads the SetupIntent back
 * from Stripe before the plan takes the card; the job's next charge is on it. A SetupIntent of
 * another buyer is refused in words and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { parseConfig, testConfig } from '../../config.ts';
import { openSeededTestDatabase } from '../../db/testing.ts';
import type { OpenDatabase } from '../../db/index.ts';
import { instalmentPlans, instalments, sales, savedPaymentMethods } from '../../db/schema.ts';
import type { Demo } from '../../seed.ts';
import { drivers, Visitor } from '../../test/harness.ts';
import { planWiring } from '../../providers/plans.ts';
import { runInstalmentJob } from '../instalments/job.ts';
import { INSTALMENT_MESSAGES } from '../../../contract/messages/instalment.ts';
import { startFakeStripe, type FakeStripe } from '../../../e2e/fakeStripe.ts';

const KEYS = { STRIPE_PUBLISHABLE_KEY: 'pk_test_holdfast', STRIPE_SECRET_KEY: 'sk_test_holdfast' };
const HTML = { accept: 'text/html' };

describe.each(drivers)('a plan’s card changed through Stripe in My account on %s', (driver) => {
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

  async function signedIn(userId: number) {
    const v = new Visitor(app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    return v;
  }

  /** The SetupIntent a page's form names, found at the stand-in by its client secret. */
  function intentOf(body: string) {
    const secret = /data-client-secret="([^"]+)"/.exec(body)?.[1];
    expect(secret).toBeDefined();
    return [...fake.setupIntents.values()].find((i) => i.client_secret === secret)!;
  }

  it('takes the card a SetupIntent of the buyer’s customer saved, and the next instalment is charged on it', async () => {
    const amelia = demo.users.subscribedDark;
    const v = await signedIn(amelia.id);
    expect((await v.add({ [demo.plans.weekend]: 1 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    const started = (await v.call('createPlanSetupIntent')).json() as { client_secret: string };
    const first = [...fake.setupIntents.values()].find((i) => i.client_secret === started.client_secret)!;
    await fake.confirmSetup(first.id, '4242 4242 4242 4242');
    expect(
      (
        await v.call('payWithInstalment', {
          instalment_option: '2',
          contact_number: '07700 900123',
          setup_intent: { id: first.id, make_default_payment_method: 'true' },
        })
      ).json(),
    ).toEqual({ status: 'success', url: null });

    const page = await v.request({ method: 'GET', url: `/account/plans/${reference}/card/`, headers: HTML });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`data-return-url="${testConfig().publicUrl}/account/plans/${reference}/card/stripe/"`);
    expect(page.body).toContain('src="/account/card-setup.js"');
    const script = await v.request({ method: 'GET', url: '/account/card-setup.js' });
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toContain('stripe.confirmSetup');
    const intent = intentOf(page.body);
    expect(intent).toMatchObject({ customer: first.customer, usage: 'off_session', metadata: { sale_id: sale!.id } });

    // Another buyer's SetupIntent, brought back here, is refused and changes nothing.
    const tom = await signedIn(demo.users.notSubscribed.id);
    const tomsPage = await tom.request({ method: 'GET', url: `/account/plans/${reference}/card/`, headers: HTML });
    expect(tomsPage.statusCode).toBe(404);

    expect(await fake.confirmSetup(intent.id, '5555 5555 5555 4444')).toMatchObject({ status: 'succeeded' });
    const wrongBuyer = await tom.request({
      method: 'GET',
      url: `/account/plans/${reference}/card/stripe/?setup_intent=${intent.id}`,
      headers: HTML,
    });
    expect(wrongBuyer.statusCode).toBe(404);
    const notSaved = await v.request({
      method: 'GET',
      url: `/account/plans/${reference}/card/stripe/?setup_intent=nonsense`,
      headers: HTML,
    });
    expect(notSaved.statusCode).toBe(400);
    expect(notSaved.body).toContain(INSTALMENT_MESSAGES.cardNotSaved);

    const back = await v.request({
      method: 'GET',
      url: `/account/plans/${reference}/card/stripe/?setup_intent=${intent.id}&redirect_status=succeeded`,
      headers: HTML,
    });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`/account/?done=card-changed#plan-${reference}`);
    const [plan] = await database.db
      .select({ card: savedPaymentMethods })
      .from(instalmentPlans)
      .innerJoin(savedPaymentMethods, eq(savedPaymentMethods.id, instalmentPlans.paymentMethodId))
      .where(eq(instalmentPlans.saleId, sale!.id));
    expect(plan!.card).toMatchObject({
      provider: 'stripe',
      last4: '4444',
      providerMethodId: intent.payment_method,
      isDefault: true,
    });

    const [second] = await database.db
      .select()
      .from(instalments)
      .where(eq(instalments.saleId, sale!.id))
      .orderBy(instalments.seq)
      .offset(1);
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
    expect((await runInstalmentJob(job, second!.dueAt)).charged).toBe(1);
    const charge = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').at(-1)!;
    expect(charge.params).toMatchObject({
      payment_method: intent.payment_method,
      off_session: 'true',
      description: 'Instalment 2 of 2',
    });
  });
});
