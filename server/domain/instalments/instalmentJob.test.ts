/**
 * The instalment job over HTTP (/dev/instalments/run) with one plan whose card processor throws
 * while charging: the other plans due in the same run are still charged, the failing instalment
 * keeps its place (still due, its error recorded, its attempt not spent) and the run's answer says
 * how many charges could not be completed; once the processor answers again it is charged once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { openSeededTestDatabase } from '../../db/testing.ts';
import type { OpenDatabase } from '../../db/index.ts';
import type { Demo } from '../../seed.ts';
import { instalmentPlans, instalments, sales, sandboxCharges } from '../../db/schema.ts';
import { drivers, Visitor } from '../../test/harness.ts';
import { SANDBOX_CARDS } from '../../../contract/index.ts';
import { sandboxSavedCards, type SavedCardProcessor } from './offSession.ts';
import { localSquare } from '../payment/square.ts';
import { ERROR_RETRY_MS } from './job.ts';

describe.each(drivers)('the instalment job with a processor that throws on %s', (driver) => {
  let database: OpenDatabase;
  let demo: Demo;
  let app: FastifyInstance;
  const clock = { now: new Date('2026-06-01T12:00:00Z') };
  /** Cards whose off-session charge fails with an exception, as a processor that cannot be reached does. */
  const broken = new Set<string>();

  beforeAll(async () => {
    ({ database, demo } = await openSeededTestDatabase(driver));
    const sandbox = sandboxSavedCards();
    const cards: SavedCardProcessor = {
      ...sandbox,
      async charge(exec, p) {
        if (p.offSession && broken.has(p.paymentMethodId)) throw new Error('connect ECONNRESET');
        return sandbox.charge(exec, p);
      },
    };
    app = await buildApp({
      db: database.db,
      config: testConfig(),
      clock: () => clock.now,
      logger: false,
      plans: { cards, setup: null, square: localSquare(database.db) },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  /** A buyer with one weekend ticket on a two-payment plan: the first payment taken, the second due on 1 July. */
  async function planOnNewCard(userId: number) {
    const v = new Visitor(app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    expect((await v.add({ [demo.plans.weekend]: 1 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    const card = (
      await v.call('saveSandboxCard', { number: SANDBOX_CARDS.success, expiry: '12/34', cvc: '123' })
    ).json() as { id: string };
    const res = await v.call('payWithInstalment', {
      instalment_option: '2',
      contact_number: '07700 900123',
      new_payment_method: card as never,
    });
    expect(res.json()).toEqual({ status: 'success', url: null });
    return { saleId: sale!.id, cardId: card.id };
  }

  const secondInstalment = async (saleId: string) =>
    (
      await database.db.select().from(instalments).where(eq(instalments.saleId, saleId)).orderBy(asc(instalments.seq))
    )[1]!;
  const runAt = async (at: Date) => {
    const res = await app.inject({
      method: 'POST',
      url: `/dev/instalments/run?as_of=${encodeURIComponent(at.toISOString())}`,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as Record<string, number>;
  };
  const succeededCharges = async (cardId: string) =>
    (await database.db.select().from(sandboxCharges).where(eq(sandboxCharges.cardId, cardId))).filter(
      (c) => c.status === 'succeeded',
    );

  it('charges every other plan due when the second plan’s charge throws, keeps that one due with its error, and charges it once later', async () => {
    const plans = [];
    for (const user of [demo.users.subscribedDark, demo.users.notSubscribed, demo.users.subscribedDark])
      plans.push(await planOnNewCard(user.id));
    const [first, second, third] = plans as [(typeof plans)[0], (typeof plans)[0], (typeof plans)[0]];
    broken.add(second.cardId);

    const july1 = new Date('2026-07-01T12:00:00Z');
    const report = await runAt(july1);
    expect(report).toMatchObject({ charged: 2, errored: 1, failed: 0, retrying: 0 });
    expect((await secondInstalment(first.saleId)).status).toBe('paid');
    expect((await secondInstalment(third.saleId)).status).toBe('paid');
    expect(await succeededCharges(third.cardId)).toHaveLength(2);

    // The plan that threw: nothing taken, still scheduled, its attempt not spent, the error kept; its plan still active.
    const stuck = await secondInstalment(second.saleId);
    expect(stuck).toMatchObject({ status: 'scheduled', attempts: 0, lastError: expect.stringContaining('ECONNRESET') });
    expect(stuck.nextAttemptAt.toISOString()).toBe(new Date(july1.getTime() + ERROR_RETRY_MS).toISOString());
    expect(await succeededCharges(second.cardId)).toHaveLength(1);
    const [plan] = await database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, second.saleId));
    expect(plan!.status).toBe('active');

    // Not again in the same hour; once the processor answers, charged once under the same attempt's key.
    expect(await runAt(new Date(july1.getTime() + ERROR_RETRY_MS - 1000))).toMatchObject({ charged: 0, errored: 0 });
    broken.delete(second.cardId);
    expect(await runAt(new Date(july1.getTime() + ERROR_RETRY_MS))).toMatchObject({ charged: 1, errored: 0 });
    expect(await secondInstalment(second.saleId)).toMatchObject({ status: 'paid', attempts: 1, lastError: null });
    const charges = await succeededCharges(second.cardId);
    expect(charges).toHaveLength(2);
    expect(charges.map((c) => c.idempotencyKey)).toContain(`instalment:${stuck.id}:1`);
    expect(await runAt(new Date('2026-12-31T12:00:00Z'))).toMatchObject({ charged: 0, errored: 0 });
  });
});
