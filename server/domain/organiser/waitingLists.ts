/**
 * The waiting lists of one date, as its organiser sees them: per ticket type, how many wait and who,
 * in order; an entry can be removed, and the whole list exported as CSV.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/index.ts';
import * as t from '../../db/schema.ts';

export interface ListEntry {
  id: number;
  email: string;
  qty: number;
  joinedAt: Date;
  offeredAt: Date | null;
  offerExpiresAt: Date | null;
  claimedAt: Date | null;
}

export interface TypeList {
  typeId: number;
  name: string;
  /** Entries not offered yet. */
  waiting: number;
  entries: ListEntry[];
}

export async function listsOf(db: Database, dateId: number): Promise<TypeList[]> {
  const types = await db.select({ id: t.ticketTypes.id, name: t.ticketTypes.name }).from(t.ticketTypes).where(eq(t.ticketTypes.eventDateId, dateId)).orderBy(t.ticketTypes.sortOrder, t.ticketTypes.id);
  if (types.length === 0) return [];
  const entries = await db
    .select()
    .from(t.waitingListEntries)
    .where(inArray(t.waitingListEntries.ticketTypeId, types.map((x) => x.id)))
    .orderBy(asc(t.waitingListEntries.id));
  return types.map((type) => {
    const own = entries.filter((e) => e.ticketTypeId === type.id);
    return {
      typeId: type.id,
      name: type.name,
      waiting: own.filter((e) => e.offeredAt === null).length,
      entries: own.map((e) => ({ id: e.id, email: e.email, qty: e.qty, joinedAt: e.joinedAt, offeredAt: e.offeredAt, offerExpiresAt: e.offerExpiresAt, claimedAt: e.claimedAt })),
    };
  });
}

/** An entry of one of the date's types, or null. */
export async function entryOf(db: Database, dateId: number, entryId: number): Promise<{ id: number; email: string; qty: number; typeName: string; offeredAt: Date | null } | null> {
  const [found] = await db
    .select({ id: t.waitingListEntries.id, email: t.waitingListEntries.email, qty: t.waitingListEntries.qty, typeName: t.ticketTypes.name, offeredAt: t.waitingListEntries.offeredAt })
    .from(t.waitingListEntries)
    .innerJoin(t.ticketTypes, eq(t.ticketTypes.id, t.waitingListEntries.ticketTypeId))
    .where(and(eq(t.waitingListEntries.id, entryId), eq(t.ticketTypes.eventDateId, dateId)));
  return found ?? null;
}

export async function removeEntry(db: Pick<Database, 'execute'>, entryId: number): Promise<void> {
  await db.execute(sql`DELETE FROM waiting_list_entries WHERE id = ${entryId}`);
}

/** A CSV field: quoted, and never read by a spreadsheet as a formula. */
function field(value: unknown): string {
  let text = value instanceof Date ? value.toISOString() : value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function listCsv(list: TypeList): string {
  const head = ['position', 'email', 'quantity', 'joined_at', 'offered_at', 'offer_ends_at', 'claimed_at'];
  const body = list.entries.map((e, i) => [i + 1, e.email, e.qty, e.joinedAt, e.offeredAt, e.offerExpiresAt, e.claimedAt].map(field).join(','));
  return [head.join(','), ...body].join('\r\n') + '\r\n';
}
