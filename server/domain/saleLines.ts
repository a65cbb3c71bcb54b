/** A sale's ticket lines read with what they are for: ticket type, date, event and organiser. */
import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../db/index.ts';
import { saleLines } from '../db/schema.ts';

/**
 * A sale's ticket lines, each with its ticket type, the type's date, the date's event and the
 * event's organiser, in the order the buyer added them; only the line of `ticketTypeId` when given.
 */
export function linesWithEvents(db: Pick<Executor, 'query'>, saleId: string, ticketTypeId?: number) {
  return db.query.saleLines.findMany({
    where:
      ticketTypeId === undefined
        ? eq(saleLines.saleId, saleId)
        : and(eq(saleLines.saleId, saleId), eq(saleLines.ticketTypeId, ticketTypeId)),
    orderBy: asc(saleLines.id),
    with: { ticketType: { with: { eventDate: { with: { event: { with: { organiser: true } } } } } } },
  });
}

export type LineWithEvent = Awaited<ReturnType<typeof linesWithEvents>>[number];

/** The event a line's tickets are for. */
export const eventOf = (line: LineWithEvent) => line.ticketType.eventDate.event;
