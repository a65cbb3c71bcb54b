import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openSeededTestDatabase } from '../db/testing.ts';
import type { OpenDatabase } from '../db/index.ts';
import { seats } from '../db/schema.ts';
import { holdSeats, newHoldToken } from './seats.ts';
import { Refusal } from './refusal.ts';
import { drivers } from '../test/harness.ts';
import { seededRandom } from '../test/fixtures.ts';

const BUYERS = 60;
const ROUNDS = 4;

type Seat = typeof seats.$inferSelect;

/** Free seats with no free neighbour, row by row, as everyone sees them at `now`. */
function singleSeats(all: Seat[], now: Date): Set<number> {
  const free = (s: Seat | undefined) =>
    s !== undefined && s.ticketTypeId !== null && s.soldSaleId === null && !(s.heldUntil && s.heldUntil > now);
  const at = new Map(all.map((s) => [`${s.section}|${s.row}|${s.position}`, s]));
  return new Set(
    all
      .filter(
        (s) =>
          free(s) &&
          !free(at.get(`${s.section}|${s.row}|${s.position - 1}`)) &&
          !free(at.get(`${s.section}|${s.row}|${s.position + 1}`)),
      )
      .map((s) => s.id),
  );
}

describe.each(drivers)('the seat rush on %s', (driver) => {
  let database: OpenDatabase;
  let date: number;
  beforeAll(async () => {
    const seeded = await openSeededTestDatabase(driver, 8);
    database = seeded.database;
    date = seeded.demo.seated.date;
  });
  afterAll(async () => database?.close());

  it(`gives every seat at most one holder and leaves no single empty seat, with ${BUYERS} buyers claiming overlapping seats at once (${ROUNDS} rounds)`, async () => {
    const { db } = database;
    for (let round = 0; round < ROUNDS; round++) {
      // Each round a fresh clock past the last round's holds, so every round starts from the seed's seats.
      const now = new Date(Date.UTC(2026, 5, 1, 12 + round));
      const all = await db.select().from(seats).where(eq(seats.eventDateId, date));
      const before = singleSeats(all, now);
      const random = seededRandom(round + 1);
      // Everyone wants a few seats side by side in the first three rows of the stalls: heavy overlap.
      const rows = all.filter((s) => s.section === 'Stalls' && ['A', 'B', 'C'].includes(s.row));
      const claims = Array.from({ length: BUYERS }, () => {
        const start = rows[Math.floor(random() * rows.length)]!;
        const size = 1 + Math.floor(random() * 4);
        const wanted = rows
          .filter((s) => s.row === start.row && s.position >= start.position && s.position < start.position + size)
          .map((s) => s.id);
        return { holder: newHoldToken(), seatIds: wanted };
      });
      const results = await Promise.all(
        claims.map((c) =>
          holdSeats(db, { eventDateId: date, seatIds: c.seatIds, holder: c.holder, now, holdSeconds: 60 }).then(
            (hold) => ({ ok: true as const, hold }),
            (err: unknown) => {
              if (err instanceof Refusal) return { ok: false as const, err };
              throw err;
            },
          ),
        ),
      );
      const after = await db.select().from(seats).where(eq(seats.eventDateId, date));
      const byId = new Map(after.map((s) => [s.id, s]));
      const accepted = claims.filter((_, i) => results[i]!.ok);
      expect(accepted.length, `round ${round}: some claims succeed`).toBeGreaterThan(0);
      expect(accepted.length, `round ${round}: some claims are refused`).toBeLessThan(BUYERS);
      const owner = new Map<number, string>();
      for (const c of accepted) {
        for (const id of c.seatIds) {
          expect(owner.has(id), `round ${round}: seat ${id} went to two buyers`).toBe(false);
          owner.set(id, c.holder);
          // All or none: an accepted claim has every one of its seats.
          expect(byId.get(id)!.holder, `round ${round}: seat ${id} is its claimant's`).toBe(c.holder);
        }
      }
      // Refused claims changed nothing: every held seat is an accepted claim's.
      const held = after.filter((s) => s.heldUntil && s.heldUntil > now && s.soldSaleId === null);
      expect(held.map((s) => s.id).sort((a, b) => a - b)).toEqual([...owner.keys()].sort((a, b) => a - b));
      // No accepted claim left a single empty seat: those there are now were there before the rush.
      const left = [...singleSeats(after, now)].filter((id) => !before.has(id));
      expect(
        left.map((id) => `${byId.get(id)!.section} ${byId.get(id)!.row} ${byId.get(id)!.number}`),
        `round ${round}`,
      ).toEqual([]);
    }
  });
});
