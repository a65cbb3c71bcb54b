/**
 * The waiting lists of one date, as its organiser sees them: per ticket type, how many wait and who,
 * in order (the waiting list's own view of it, server/domain/waitingRoom/waitingList.ts); an entry
 * can be removed or offered its tickets by hand, and a list exported as CSV.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/index.ts';
import * as t from '../../db/schema.ts';
import { listEntries, type ListedEntry } from '../waitingRoom/waitingList.ts';

export interface TypeList {
  typeId: number;
  name: string;
  /** Entries still waiting for an offer. */
  waiting: number;
  entries: ListedEntry[];
}

export async function listsOf(db: Database, dateId: number, now: Date): Promise<TypeList[]> {
  const types = await db
    .select({ id: t.ticketTypes.id, name: t.ticketTypes.name })
    .from(t.ticketTypes)
    .where(eq(t.ticketTypes.eventDateId, dateId))
    .orderBy(t.ticketTypes.sortOrder, t.ticketTypes.id);
  return Promise.all(
    types.map(async (type) => {
      const entries = await listEntries(db, type.id, now);
      return {
        typeId: type.id,
        name: type.name,
        waiting: entries.filter((e) => e.status === 'waiting').length,
        entries,
      };
    }),
  );
}

/** An entry of one of the date's types, or null: the console acts only on its own date's entries. */
export async function entryOf(
  db: Database,
  dateId: number,
  entryId: number,
): Promise<{ id: number; email: string; qty: number; typeName: string } | null> {
  const [found] = await db
    .select({
      id: t.waitingListEntries.id,
      email: t.waitingListEntries.email,
      qty: t.waitingListEntries.qty,
      typeName: t.ticketTypes.name,
    })
    .from(t.waitingListEntries)
    .innerJoin(t.ticketTypes, eq(t.ticketTypes.id, t.waitingListEntries.ticketTypeId))
    .where(and(eq(t.waitingListEntries.id, entryId), eq(t.ticketTypes.eventDateId, dateId)));
  return found ?? null;
}
