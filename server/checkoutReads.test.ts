/**
 * GET checkout is the call every step repeats: a basket's checkout, with its questions and intro,
 * postal delivery and the payment plans its event offers, is read from the database in one round
 * trip (`checkout_snapshot`), so a new field of the checkout object does not quietly add a read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db/index.ts';
import { buildCheckout } from './domain/checkout.ts';
import { drivers, openWorld, type TestWorld } from './test/harness.ts';
import { salesWith } from './test/fixtures.ts';

/** The database, with a count of the statements sent through it, by Drizzle or straight to its connection pool. */
function counting(db: Database): { db: Database; count: () => number } {
  let sent = 0;
  /** `target` with the methods `counted` names counting each call. */
  const countingCalls = <T extends object>(target: T, counted: (key: string | symbol) => boolean): T =>
    new Proxy(target, {
      get(inner, key, receiver) {
        const value = Reflect.get(inner, key, receiver) as unknown;
        if (key === '$client' && typeof value === 'object' && value !== null) return countingCalls(value, (k) => k === 'query');
        if (!counted(key) || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          sent++;
          return (value as (...a: unknown[]) => unknown).apply(inner, args);
        };
      },
    });
  const entries = new Set<string | symbol>(['execute', 'select', 'selectDistinct', 'insert', 'update', 'delete', 'transaction']);
  return { db: countingCalls(db, (key) => entries.has(key)), count: () => sent };
}

describe.each(drivers)('the checkout read on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  it('reads a basket with questions, an intro and a plan-offering event in one round trip', async () => {
    const { tickets, plans } = w.demo;
    const [lantern, festival] = await salesWith(w.database.db, [[{ ticketTypeId: tickets.lanternEarlyAdult, qty: 2 }], [{ ticketTypeId: plans.weekend, qty: 1 }]]);
    const now = w.clock.now;

    const first = counting(w.database.db);
    const questions = await buildCheckout(first.db, lantern!, now, { captchaSitekey: null, userId: null });
    expect(first.count()).toBe(1);
    expect(questions.before_payment_questions.length).toBeGreaterThan(0);
    expect(questions.events[0]!.questions_intro).not.toBeNull();

    const second = counting(w.database.db);
    const plan = await buildCheckout(second.db, festival!, now, { captchaSitekey: null, userId: null });
    expect(second.count()).toBe(1);
    expect(Object.keys(plan.payment_plan_schedule_options).length).toBeGreaterThan(0);
  });
});
