/** What the catalogue front shows: the events on sale, an organiser, and one event's order form. */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { staleReads } from '../db/staleReads.ts';
import { eventDates, events, giftVouchers, organisers, ticketTypes } from '../db/schema.ts';
import { seatedTypes } from './seats.ts';
import { poolAvailability } from './stock.ts';

/**
 * The events with dates, each with its organiser and first date, soonest first; one organiser's when
 * given. A list a moment stale is fine: read from a replica when there is one (db/staleReads.ts).
 */
export async function eventsOnSale(db: Database, organiserId: number | null) {
  return staleReads(db)
    .select({
      event: events,
      organiser: organisers,
      firstDate: sql<Date>`min(${eventDates.startsAt})`.mapWith(eventDates.startsAt),
    })
    .from(events)
    .innerJoin(organisers, eq(organisers.id, events.organiserId))
    .innerJoin(eventDates, eq(eventDates.eventId, events.id))
    .where(organiserId ? eq(events.organiserId, organiserId) : undefined)
    .groupBy(events.id, organisers.id)
    .orderBy(sql`min(${eventDates.startsAt})`);
}

/** The cheapest ticket of each event that a buyer can buy on its own: not sold out, not an add-on needing another ticket (prices and stock: read from the leader). */
export async function cheapestPrices(db: Database, eventIds: number[], now: Date): Promise<Map<number, number>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db
    .select({
      eventId: eventDates.eventId,
      price: ticketTypes.price,
      required: ticketTypes.requiredTickets,
      datePool: eventDates.poolId,
      typePool: ticketTypes.poolId,
    })
    .from(ticketTypes)
    .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
    .where(inArray(eventDates.eventId, eventIds));
  const left = await poolAvailability(
    db,
    rows.flatMap((r) => [r.datePool, ...(r.typePool ? [r.typePool] : [])]),
    now,
  );
  const cheapest = new Map<number, number>();
  for (const r of rows) {
    const available = Math.min(left.get(r.datePool) ?? 0, r.typePool ? (left.get(r.typePool) ?? 0) : Infinity);
    if (available <= 0 || r.required.length > 0) continue;
    cheapest.set(r.eventId, Math.min(cheapest.get(r.eventId) ?? Infinity, r.price));
  }
  return cheapest;
}

/** An organiser, for its page: read from a replica when there is one, as its events are. */
export async function findOrganiser(db: Database, id: number) {
  return (await staleReads(db).query.organisers.findFirst({ where: eq(organisers.id, id) })) ?? null;
}

/**
 * An event's order form: the event, its organiser, each ticket type with its date (by date, then
 * the organiser's order) and the organiser's gift vouchers. Null when there is no such event.
 */
export async function eventForSale(db: Database, id: number) {
  const found = await db.query.events.findFirst({
    where: eq(events.id, id),
    with: {
      organiser: { with: { giftVouchers: { orderBy: asc(giftVouchers.id) } } },
      dates: {
        orderBy: [asc(eventDates.startsAt), asc(eventDates.id)],
        with: { ticketTypes: { orderBy: [asc(ticketTypes.sortOrder), asc(ticketTypes.id)] } },
      },
    },
  });
  if (!found) return null;
  const { organiser: withVouchers, dates, ...event } = found;
  const { giftVouchers: vouchers, ...organiser } = withVouchers;
  const offers = dates.flatMap(({ ticketTypes: types, ...date }) => types.map((type) => ({ type, date })));
  return { event, organiser, offers, vouchers };
}

/** The events on sale (one organiser's when given), with the cheapest price of each that has a ticket left. */
export async function eventsWithPrices(db: Database, organiserId: number | null, now: Date) {
  const list = await eventsOnSale(db, organiserId);
  const prices = await cheapestPrices(
    db,
    list.map((l) => l.event.id),
    now,
  );
  return { list, prices };
}

export type EventsWithPrices = Awaited<ReturnType<typeof eventsWithPrices>>;

/** An organiser's page: the organiser and its events on sale with their prices. Null when there is no such organiser. */
export async function organiserPage(db: Database, id: number, now: Date) {
  const organiser = await findOrganiser(db, id);
  if (!organiser) return null;
  return { organiser, events: await eventsWithPrices(db, organiser.id, now) };
}

/**
 * An event's order form as the event page shows it: the event for sale, what is left in each of its
 * pools, and which of its ticket types are chosen seat by seat. Null when there is no such event.
 */
export async function eventOrderForm(db: Database, id: number, now: Date) {
  const row = await eventForSale(db, id);
  if (!row) return null;
  const left = await poolAvailability(
    db,
    row.offers.flatMap(({ type, date }) => [date.poolId, ...(type.poolId ? [type.poolId] : [])]),
    now,
  );
  const seated = await seatedTypes(
    db,
    row.offers.map(({ type }) => type.id),
  );
  return { ...row, left, seated };
}

/** Every organiser's name, by id (the account's marketing choices name them). */
export async function organiserNames(db: Database): Promise<Map<number, string>> {
  const all = await db.select({ id: organisers.id, name: organisers.name }).from(organisers);
  return new Map(all.map((o) => [o.id, o.name]));
}

/** The language an organiser's pages default to for a buyer who has not chosen one (null: the site's). */
export async function organiserDefaultLanguage(db: Database, organiserId: number): Promise<string | null> {
  const [organiser] = await db
    .select({ language: organisers.defaultLanguage })
    .from(organisers)
    .where(eq(organisers.id, organiserId));
  return organiser?.language ?? null;
}
