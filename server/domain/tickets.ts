/**
 * Ticket issuance (spec 001 §4 Delivery, deliver_to_bitticket): a paid sale's buyer gets one ticket
 * per admission, each with a unique unguessable code. Issuing is idempotent: a ticket is keyed by
 * its sale, ticket type and copy number, and a unique index on that key makes a second issue, even
 * one running at the same moment, add nothing.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { eventDates, events, saleLines, sales, tickets, ticketTypes, users } from '../db/schema.ts';
import { Refusal } from './refusal.ts';
import { saleSeatsByType } from './seats.ts';

export const NOT_PAID_MESSAGE = 'This order has not been paid for, so there are no tickets to deliver yet.';

/** Crockford's base 32: no I, L, O or U, so a code read aloud is not misheard. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** 20 random characters of base 32: 100 bits, beyond guessing. */
export function newTicketCode(): string {
  const bytes = randomBytes(20);
  return `HFT-${Array.from(bytes, (b) => ALPHABET[b & 31]).join('')}`;
}

export type Issue = { issued: true; count: number } | { issued: false; reason: 'no-buyer' | 'nothing-bought' };

/**
 * Issues the tickets of a paid sale to its buyer. Refuses a sale that is not paid; answers
 * `issued: false` when the sale names no buyer (neither an account nor an express buyer's name)
 * or nothing was bought.
 */
export async function issueTickets(
  db: Database,
  saleId: string,
  now: Date,
  opts: { limit?: number } = {},
): Promise<Issue> {
  const [sale] = await db
    .select({ paidAt: sales.paidAt, userId: sales.userId, reference: sales.reference, buyerName: sales.buyerName })
    .from(sales)
    .where(eq(sales.id, saleId));
  if (!sale) throw new Refusal('not-found', 'Your basket could not be found. Please add your tickets again.');
  if (!sale.paidAt) throw new Refusal('not-paid', NOT_PAID_MESSAGE);
  // An express buyer whose address is not proven yet: the tickets are theirs by name and go to no
  // account until the address's code is proven (account.ts), when they become the new account's.
  const [buyer] =
    sale.userId !== null
      ? await db
          .select({ firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(eq(users.id, sale.userId))
      : sale.buyerName !== null
        ? [{ firstName: sale.buyerName, lastName: '' }]
        : [];
  if (!buyer) return { issued: false, reason: 'no-buyer' };
  const lines = await db
    .select({ ticketTypeId: saleLines.ticketTypeId, qty: saleLines.qty })
    .from(saleLines)
    .where(eq(saleLines.saleId, saleId))
    .orderBy(asc(saleLines.ticketTypeId));
  if (lines.length === 0) return { issued: false, reason: 'nothing-bought' };
  const holderName = `${buyer.firstName} ${buyer.lastName}`.trim();
  const seatsByType = await saleSeatsByType(db, saleId);
  const rows = lines.flatMap((line) =>
    Array.from({ length: line.qty }, (_, i) => ({
      code: newTicketCode(),
      saleId,
      saleReference: sale.reference,
      ticketTypeId: line.ticketTypeId,
      copy: i + 1,
      userId: sale.userId,
      holderName,
      // A seated line's copies are its seats, in row order: 'Section Row Number'.
      seat: ((s) => (s ? `${s.section} ${s.row} ${s.number}` : null))(seatsByType.get(line.ticketTypeId)?.[i]),
      issuedAt: now,
    })),
  );
  // A plan's sale issues only its fully paid admissions (`limit`), the first in line order.
  const issuing = opts.limit === undefined ? rows : rows.slice(0, opts.limit);
  if (issuing.length === 0) return { issued: true, count: 0 };
  await db
    .insert(tickets)
    .values(issuing)
    .onConflictDoNothing({ target: [tickets.saleId, tickets.ticketTypeId, tickets.copy] });
  return { issued: true, count: issuing.length };
}

export interface WalletTicket {
  code: string;
  saleReference: string | null;
  eventTitle: string;
  startsAt: Date;
  venue: string;
  ticketName: string;
  seat: string | null;
  holderName: string;
}

const walletColumns = {
  code: tickets.code,
  saleReference: tickets.saleReference,
  eventTitle: events.title,
  startsAt: eventDates.startsAt,
  venueName: events.venueName,
  city: events.city,
  ticketName: ticketTypes.name,
  seat: tickets.seat,
  holderName: tickets.holderName,
};

function toWalletTicket(row: { venueName: string; city: string } & Omit<WalletTicket, 'venue'>): WalletTicket {
  const { venueName, city, ...rest } = row;
  return { ...rest, venue: [venueName, city].filter(Boolean).join(', ') };
}

function walletQuery(db: Database) {
  return db
    .select(walletColumns)
    .from(tickets)
    .innerJoin(ticketTypes, eq(ticketTypes.id, tickets.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
    .innerJoin(events, eq(events.id, eventDates.eventId));
}

/** A buyer's tickets, soonest event first. */
export async function walletOf(db: Database, userId: number): Promise<WalletTicket[]> {
  const found = await walletQuery(db)
    .where(eq(tickets.userId, userId))
    .orderBy(asc(eventDates.startsAt), asc(tickets.id));
  return found.map(toWalletTicket);
}

/** The tickets issued to one sale, in the order they were issued. */
export async function ticketsOfSale(db: Database, saleId: string, userId?: number): Promise<WalletTicket[]> {
  const found = await walletQuery(db)
    .where(
      userId === undefined ? eq(tickets.saleId, saleId) : and(eq(tickets.saleId, saleId), eq(tickets.userId, userId)),
    )
    .orderBy(asc(eventDates.startsAt), asc(tickets.id));
  return found.map(toWalletTicket);
}
