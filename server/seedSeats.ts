/**
 * The seated demo event: a playhouse with stalls (a centre aisle, two price levels) and a circle
 * (whose restricted-view end seats have no pricing yet), some seats already sold. The date's
 * capacity pool counts the priced seats, and its `sold` the seats sold, so seats and stock agree.
 */
import { eq } from 'drizzle-orm';
import type { Database } from './db/index.ts';
import * as t from './db/schema.ts';

type Tx = Pick<Database, 'insert' | 'update'>;

/** Seat map units between neighbouring seats and rows. */
const SEAT_STEP = 28;
const ROW_STEP = 30;

interface SectionDraw {
  name: string;
  rows: string[];
  /** Seats per row, numbered from the left; an aisle after `aisleAfter` seats when set. */
  seatsPerRow: number;
  aisleAfter?: number;
  top: number;
  /** The price level of a seat, or null when it has no pricing. */
  ticketOf: (row: string, seat: number) => number | null;
  sold: (row: string, seat: number) => boolean;
}

export async function seedSeatedEvent(tx: Tx, opts: { organiserId: number; startsAt: Date; thumbnail: string }) {
  const [event] = await tx
    .insert(t.events)
    .values({
      organiserId: opts.organiserId,
      title: 'Twelfth Night at the Harbour Playhouse',
      description:
        'Shakespeare’s comedy of mistaken identity, staged in the round-fronted Harbour Playhouse. Choose your own seats.',
      currency: 'GBP',
      venueName: 'Harbour Playhouse',
      venueAddress: '2 Prince Street, Bristol BS1 4QF',
      city: 'Bristol',
      thumbnail: opts.thumbnail,
    })
    .returning();
  const [pool] = await tx.insert(t.capacityPools).values({ name: 'Twelfth Night: seats', capacity: 0 }).returning();
  const [date] = await tx
    .insert(t.eventDates)
    .values({ eventId: event!.id, startsAt: opts.startsAt, poolId: pool!.id })
    .returning();
  const type = async (name: string, price: number, bookingFee: number, sortOrder: number) =>
    (
      await tx
        .insert(t.ticketTypes)
        .values({ eventDateId: date!.id, name, price, bookingFee, sortOrder: 1000 + sortOrder })
        .returning()
    )[0]!;
  const premium = await type('Stalls premium', 3250, 150, 0);
  const stalls = await type('Stalls', 2500, 125, 1);
  const circle = await type('Circle', 1800, 100, 2);
  await tx
    .insert(t.seatPlans)
    .values({ eventDateId: date!.id, provider: 'holdfast', providerIdentifier: `harbour-playhouse-${date!.id}` });

  const sections: SectionDraw[] = [
    {
      name: 'Stalls',
      rows: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'],
      seatsPerRow: 16,
      aisleAfter: 8,
      top: 80,
      ticketOf: (row) => (row <= 'D' ? premium.id : stalls.id),
      sold: (row, seat) =>
        (row === 'C' && seat >= 5 && seat <= 8) || (row === 'F' && seat <= 4) || (row === 'H' && seat >= 13),
    },
    {
      name: 'Circle',
      rows: ['A', 'B', 'C', 'D'],
      seatsPerRow: 12,
      top: 80 + 8 * ROW_STEP + 70,
      ticketOf: (row, seat) => (row === 'D' && (seat <= 2 || seat >= 11) ? null : circle.id),
      sold: (row, seat) => row === 'B' && seat >= 4 && seat <= 9,
    },
  ];
  const widest = 17;
  const values: (typeof t.seats.$inferInsert)[] = [];
  for (const s of sections) {
    const width = s.seatsPerRow + (s.aisleAfter ? 1 : 0);
    const left = 40 + ((widest - width) * SEAT_STEP) / 2;
    s.rows.forEach((row, r) => {
      for (let seat = 1; seat <= s.seatsPerRow; seat++) {
        const position = seat - 1 + (s.aisleAfter && seat > s.aisleAfter ? 1 : 0);
        const ticketTypeId = s.ticketOf(row, seat);
        values.push({
          eventDateId: date!.id,
          section: s.name,
          row,
          number: String(seat),
          position,
          x: Math.round(left + position * SEAT_STEP),
          y: s.top + r * ROW_STEP,
          ticketTypeId,
          soldSaleId: ticketTypeId !== null && s.sold(row, seat) ? 'seed-box-office' : null,
        });
      }
    });
  }
  await tx.insert(t.seats).values(values);
  const priced = values.filter((v) => v.ticketTypeId !== null).length;
  const sold = values.filter((v) => v.soldSaleId !== null).length;
  await tx.update(t.capacityPools).set({ capacity: priced, sold }).where(eq(t.capacityPools.id, pool!.id));
  return {
    event: event!.id,
    date: date!.id,
    pool: pool!.id,
    tickets: { premium: premium.id, stalls: stalls.id, circle: circle.id },
  };
}
