import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../db/testing.ts';
import type { OpenDatabase } from '../db/index.ts';
import { reserveSale } from './reserve.ts';
import { drivers } from '../test/harness.ts';
import { hotEvent, salesWith, seededRandom, taken } from '../test/fixtures.ts';

const CAPACITY = 10;
const OWN_LIMIT = 4;
const SEEDS = 20;

describe.each(drivers)('the rush on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(driver, 8);
  });
  afterAll(async () => database?.close());

  it(`never holds more than capacity, and never less while a basket could still fit (${SEEDS} seeds)`, async () => {
    const { db } = database;
    const now = new Date('2026-06-01T12:00:00Z');
    for (let seed = 1; seed <= SEEDS; seed++) {
      const random = seededRandom(seed);
      // Three ticket types share the date's capacity; the third also has its own smaller limit.
      const fixture = await hotEvent(db, {
        capacity: CAPACITY,
        types: 3,
        ownLimit: { typeIndex: 2, capacity: OWN_LIMIT },
      });
      const limited = fixture.types[2]!.id;
      const baskets = Array.from({ length: 5 * CAPACITY }, () => {
        const size = 1 + Math.floor(random() * 6);
        const split = new Map<number, number>();
        for (let i = 0; i < size; i++) {
          const type = fixture.types[Math.floor(random() * fixture.types.length)]!.id;
          split.set(type, (split.get(type) ?? 0) + 1);
        }
        return {
          lines: [...split].map(([ticketTypeId, qty]) => ({ ticketTypeId, qty })),
          size,
          limitedQty: split.get(limited) ?? 0,
        };
      });
      const saleIds = await salesWith(
        db,
        baskets.map((b) => b.lines),
      );

      let sampling = true;
      const samples: number[] = [];
      const sampler = (async () => {
        while (sampling) {
          samples.push(await taken(db, fixture.poolId, now));
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const results = await Promise.all(saleIds.map((id) => reserveSale(db, id, now, 600)));
      sampling = false;
      await sampler;

      const held = await taken(db, fixture.poolId, now);
      const heldLimited = await taken(db, fixture.ownPoolId!, now);
      const reservedSize = baskets.reduce((sum, b, i) => sum + (results[i]!.reserved ? b.size : 0), 0);
      expect(held, `seed ${seed}: held equals what the successful baskets asked for`).toBe(reservedSize);
      expect(held, `seed ${seed}: never above capacity`).toBeLessThanOrEqual(CAPACITY);
      expect(heldLimited, `seed ${seed}: never above the type's own limit`).toBeLessThanOrEqual(OWN_LIMIT);
      expect(Math.max(...samples), `seed ${seed}: sampled during the rush`).toBeLessThanOrEqual(CAPACITY);
      baskets.forEach((b, i) => {
        const result = results[i]!;
        if (result.reserved) return;
        expect(result.error).toMatch(/no longer available/);
        const couldNotFit = b.size > CAPACITY - held || b.limitedQty > OWN_LIMIT - heldLimited;
        expect(couldNotFit, `seed ${seed}: a refused basket of ${b.size} would have fitted`).toBe(true);
      });
    }
  });
});
