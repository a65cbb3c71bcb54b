/**
 * The one-round-trip reservation (`reserve_basket`) judges the basket rules in the database, while
 * the words of each refusal stay with the server (server/domain/reserve.ts). The two must agree:
 * a basket the database reserves at once is one the server's rules pass, and a basket they pass
 * is reserved at once (else every reservation would take the longer way). Random baskets over
 * ticket types with minimums, maximums, event maximums and required tickets, with and without a
 * buyer cap, are judged both ways; each database verdict is rolled back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from '../db/testing.ts';
import type { OpenDatabase } from '../db/index.ts';
import * as t from '../db/schema.ts';
import { checkBasket, readBasket } from './reserve.ts';
import { reserveBasketAtOnce, type BasketOutcome } from './stock.ts';
import { refuseOverCapAlone } from './limits.ts';
import { drivers } from '../test/harness.ts';

const now = new Date('2026-06-01T12:00:00.000Z');

class RolledBack extends Error {
  constructor(readonly outcome: BasketOutcome) {
    super('rolled back');
  }
}

const typeRules = fc.record({
  minPerCustomer: fc.integer({ min: 1, max: 3 }),
  maxCanReserve: fc.integer({ min: 0, max: 4 }),
  requires: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
});

const world = fc.record({
  eventMax: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
  types: fc.array(typeRules, { minLength: 4, maxLength: 4 }),
  lines: fc.uniqueArray(fc.record({ type: fc.integer({ min: 0, max: 3 }), qty: fc.integer({ min: 1, max: 6 }) }), {
    selector: (l) => l.type,
    maxLength: 4,
  }),
  vouchers: fc.boolean(),
  maxPerOrder: fc.integer({ min: 1, max: 6 }),
  cap: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
});

describe.each(drivers)('the one-round-trip reservation’s rules on %s', (driver) => {
  let database: OpenDatabase;
  let voucherId: number;
  beforeAll(async () => {
    database = await openTestDatabase(driver, 4);
    const [org] = await database.db
      .insert(t.organisers)
      .values({ slug: `rules-${randomUUID()}`, name: 'Rules Promotions' })
      .returning();
    const [voucher] = await database.db
      .insert(t.giftVouchers)
      .values({
        organiserId: org!.id,
        name: 'Gift voucher',
        currency: 'GBP',
        minValue: 1000,
        maxValue: 10000,
        suggestedValues: [2500],
        thumbnail: '',
      })
      .returning();
    voucherId = voucher!.id;
  });
  afterAll(async () => database?.close());

  it('reserves at once exactly the baskets the server’s rules pass', async () => {
    const db = database.db;
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const [org] = await db
          .insert(t.organisers)
          .values({ slug: `rules-${randomUUID()}`, name: 'Rules' })
          .returning();
        const [event] = await db
          .insert(t.events)
          .values({
            organiserId: org!.id,
            title: 'Rules Night',
            currency: 'GBP',
            venueName: 'Hall',
            venueAddress: '1 High St',
            city: 'York',
            thumbnail: '',
            maxPerOrder: w.eventMax,
          })
          .returning();
        const [pool] = await db.insert(t.capacityPools).values({ name: 'Rules capacity', capacity: 1000 }).returning();
        const [date] = await db
          .insert(t.eventDates)
          .values({ eventId: event!.id, startsAt: new Date('2026-12-01T19:00:00Z'), poolId: pool!.id })
          .returning();
        const types: (typeof t.ticketTypes.$inferSelect)[] = [];
        for (const [i, rules] of w.types.entries()) {
          const [type] = await db
            .insert(t.ticketTypes)
            .values({
              eventDateId: date!.id,
              name: `Type ${i}`,
              price: 1000,
              minPerCustomer: rules.minPerCustomer,
              maxCanReserve: rules.maxCanReserve,
            })
            .returning();
          types.push(type!);
        }
        for (const [i, rules] of w.types.entries()) {
          if (rules.requires === null || rules.requires === i) continue;
          await db
            .update(t.ticketTypes)
            .set({ requiredTickets: [{ title: `Type ${rules.requires}`, ids: [types[rules.requires]!.id] }] })
            .where(sql`id = ${types[i]!.id}`);
        }
        const saleId = randomUUID();
        await db.insert(t.sales).values({ id: saleId, currency: 'GBP' });
        if (w.lines.length)
          await db
            .insert(t.saleLines)
            .values(w.lines.map((l) => ({ saleId, ticketTypeId: types[l.type]!.id, qty: l.qty })));
        if (w.vouchers)
          await db.insert(t.saleVouchers).values({ saleId, giftVoucherId: voucherId, value: 2500, qty: 1 });

        const limits = {
          maxPerOrder: w.maxPerOrder,
          ...(w.cap === null ? {} : { maxHeldPerBuyer: w.cap }),
          buyer: { userId: null, ip: '10.9.9.9' },
        };
        const basket = (await readBasket(db, saleId))!;
        let serverPasses = true;
        try {
          checkBasket(basket, limits);
          if (w.cap !== null) {
            const wanted = new Map<number, number>();
            for (const l of basket.lines) wanted.set(l.dateId, (wanted.get(l.dateId) ?? 0) + l.qty);
            refuseOverCapAlone(wanted, w.cap);
          }
        } catch {
          serverPasses = false;
        }
        const outcome = await db
          .transaction(async (tx) => {
            const result = await reserveBasketAtOnce(tx as never, {
              saleId,
              now,
              deadline: new Date(now.getTime() + 600_000),
              lockTimeout: '5s',
              maxPerOrder: w.maxPerOrder,
              cap: w.cap,
              reference: 'HF-RULES01',
              buyerIp: '10.9.9.9',
              userId: null,
            });
            throw new RolledBack(result);
          })
          .catch((err: unknown) => {
            if (err instanceof RolledBack) return err.outcome;
            throw err;
          });
        expect(outcome.outcome === 'check' ? 'refused or checked' : 'reserved at once').toBe(
          serverPasses ? 'reserved at once' : 'refused or checked',
        );
        if (serverPasses) expect(outcome.outcome).toBe('reserved');
      }),
      { numRuns: driver === 'postgres' ? 60 : 120, seed: 20261124 },
    );
  });
});
