/**
 * The activity terms and conditions (waivers) of a sale's events (spec 001 §2 "Waiver"): an event
 * whose organiser wrote terms for it asks its buyers to read them once paid, at the sale's waiver
 * link. The link is meant to be passed on (to a group member who takes part), so the page reads
 * by the sale's reference alone and tells only what the organisers wrote: the events and their
 * terms, never who bought them, how many or for how much.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { sales } from '../db/schema.ts';
import { eventOf, linesWithEvents } from './saleLines.ts';

export interface EventWaiver {
  eventId: number;
  title: string;
  organiser: string;
  text: string;
}

/** What a sale reference looks like (newSaleReference): anything else names no sale. */
const SALE_REFERENCE = /^HF-[A-Z2-9]{8}$/;

/** Whether any of the basket's events has activity terms (the checkout's `has_waivers`). */
export function hasWaivers(events: readonly { waiverText: string | null }[]): boolean {
  return events.some((e) => e.waiverText !== null && e.waiverText.trim() !== '');
}

/**
 * The terms of the events of the sale with this reference, each event once, in the order the
 * buyer added them; null when no sale has the reference or none of its events has terms.
 */
export async function waiversOfSale(db: Database, reference: string): Promise<EventWaiver[] | null> {
  if (!SALE_REFERENCE.test(reference)) return null;
  const [sale] = await db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference)).limit(1);
  if (!sale) return null;
  const seen = new Set<number>();
  const waivers = (await linesWithEvents(db, sale.id)).map(eventOf).flatMap((event) => {
    if (seen.has(event.id) || !hasWaivers([event])) return [];
    seen.add(event.id);
    return [{ eventId: event.id, title: event.title, organiser: event.organiser.name, text: event.waiverText! }];
  });
  return waivers.length > 0 ? waivers : null;
}
