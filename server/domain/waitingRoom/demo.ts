/**
 * Demo mode's on-sales: two queued event dates whose on-sale starts a few minutes after the server
 * starts (each start sets them again and empties their queues), one with plenty of tickets and one
 * with two, which sells out at once and shows the waiting list.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.ts';
import * as t from '../../db/schema.ts';
import { thumbnail } from '../../thumbnails.ts';

/** A few minutes; DEMO_ON_SALE_DELAY_SECONDS sets another (the end-to-end servers run longer than three minutes). */
export const DEMO_ON_SALE_DELAY_MS = Math.max(0, Number(process.env.DEMO_ON_SALE_DELAY_SECONDS ?? 180) || 180) * 1000;
export const DEMO_QUEUED_EVENTS = [
  'Harbour Nights Live: the on-sale',
  'Harbour Nights Live: the last two tickets',
] as const;

export async function seedDemoOnSales(db: Database, now: Date): Promise<number[]> {
  const onSaleAt = new Date(now.getTime() + DEMO_ON_SALE_DELAY_MS);
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(724110077)`);
    let [organiser] = await tx.select().from(t.organisers).where(eq(t.organisers.slug, 'harbour-nights'));
    organiser ??= (
      await tx
        .insert(t.organisers)
        .values({
          slug: 'harbour-nights',
          name: 'Harbour Nights Promotions',
          description: 'Big nights on the harbour, sold through a fair queue.',
          paymentProvider: 'stripe',
        })
        .returning()
    )[0]!;
    const dateIds: number[] = [];
    for (const [i, title] of DEMO_QUEUED_EVENTS.entries()) {
      const capacity = i === 0 ? 40 : 2;
      let [event] = await tx.select().from(t.events).where(eq(t.events.title, title));
      let dateId: number;
      if (!event) {
        event = (
          await tx
            .insert(t.events)
            .values({
              organiserId: organiser.id,
              title,
              description: 'The on-sale opens a few minutes after the server starts; a queue lets buyers in fairly.',
              currency: 'GBP',
              venueName: 'Harbourside Arena',
              venueAddress: 'Canons Way, Bristol BS1 5UH',
              city: 'Bristol',
              thumbnail: thumbnail('Harbour Nights', '#1d4ed8', '#0f172a', 'waves'),
            })
            .returning()
        )[0]!;
        const [pool] = await tx
          .insert(t.capacityPools)
          .values({ name: `${title}: capacity`, capacity })
          .returning();
        const [date] = await tx
          .insert(t.eventDates)
          .values({ eventId: event.id, startsAt: new Date(now.getTime() + 60 * 86400_000), poolId: pool!.id })
          .returning();
        dateId = date!.id;
        await tx
          .insert(t.ticketTypes)
          .values({ eventDateId: dateId, name: 'Standing', price: 3500, bookingFee: 250, maxCanReserve: 4 });
      } else {
        const [date] = await tx.select().from(t.eventDates).where(eq(t.eventDates.eventId, event.id));
        dateId = date!.id;
      }
      const settings = { onSaleAt, maxShoppers: 50, admitPerMinute: 60, admissionSeconds: 900, pollSeconds: 3 };
      const counters = {
        joined: 0,
        drawn: false,
        admittedThrough: 0,
        credit: 0,
        soldOut: false,
        marks: [],
        steppedAt: null,
        version: 0,
      };
      await tx
        .insert(t.eventDateQueues)
        .values({ eventDateId: dateId, ...settings, ...counters })
        .onConflictDoUpdate({ target: t.eventDateQueues.eventDateId, set: { onSaleAt, ...counters } });
      dateIds.push(dateId);
    }
    await tx.delete(t.queuePlaces).where(inArray(t.queuePlaces.eventDateId, dateIds));
    return dateIds;
  });
}

/** Opens a queued date's on-sale now, as its organiser would by setting the time. */
export async function openOnSaleNow(db: Database, dateId: number, now: Date): Promise<void> {
  await db.update(t.eventDateQueues).set({ onSaleAt: now }).where(eq(t.eventDateQueues.eventDateId, dateId));
}
