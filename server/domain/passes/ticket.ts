/** The ticket a pass is made for: one of the signed-in buyer's own, found by its code. */
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/index.ts';
import { eventDates, events, organisers, tickets, ticketTypes } from '../../db/schema.ts';

export interface PassTicket {
  code: string;
  saleReference: string | null;
  eventDateId: number;
  eventTitle: string;
  startsAt: Date;
  venueName: string;
  venueAddress: string;
  city: string;
  ticketName: string;
  seat: string | null;
  holderName: string;
  organiserName: string;
}

/** Ticket codes as the wallet issues them; anything else is not looked up. */
export const TICKET_CODE = /^[A-Za-z0-9_-]{4,64}$/;

export async function passTicketOf(
  db: Pick<Executor, 'select'>,
  userId: number,
  code: string,
): Promise<PassTicket | null> {
  if (!TICKET_CODE.test(code)) return null;
  const [row] = await db
    .select({
      code: tickets.code,
      saleReference: tickets.saleReference,
      eventDateId: eventDates.id,
      eventTitle: events.title,
      startsAt: eventDates.startsAt,
      venueName: events.venueName,
      venueAddress: events.venueAddress,
      city: events.city,
      ticketName: ticketTypes.name,
      seat: tickets.seat,
      holderName: tickets.holderName,
      organiserName: organisers.name,
    })
    .from(tickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .innerJoin(organisers, eq(organisers.id, events.organiserId))
    .where(and(eq(tickets.code, code), eq(tickets.userId, userId)));
  return row ?? null;
}
