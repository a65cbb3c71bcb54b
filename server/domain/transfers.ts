/**
 * Transferring or gifting tickets (spec 001 §2 Transfer tickets, §4 Transfers, §5 Transfer row,
 * set_transfers). A paid sale's buyer names a recipient for some of their tickets of one type; the
 * recipient gets an e-mail with a link to accept, at once or, for a scheduled gift, at its delivery
 * date and time (UK time). Accepting moves the tickets to the recipient's account; until then they
 * stay in the sender's wallet. A ticket is given once: the rows claim their tickets under the sale's
 * lock, and a ticket belongs to at most one transfer (its primary key says so).
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, notExists, sql } from 'drizzle-orm';
import { compareDates, parseTransferDate, ukInstant, ukToday, type TransferRow } from '../../contract/index.ts';
import type { Database, Executor } from '../db/index.ts';
import {
  eventDates,
  events,
  saleLines,
  tickets,
  ticketTypes,
  transfers,
  transferTickets,
  users,
} from '../db/schema.ts';
import { Refusal } from './refusal.ts';
import { lockSale } from './sales.ts';
import { sendMail, transferMail, type Mailer } from '../mail/index.ts';
import { writtenFor } from './accountLanguage.ts';

export const TRANSFER_REFUSALS = {
  noOrder: 'There is no order to transfer tickets from in this browser.',
  notPaid: 'This order has not been paid for, so its tickets cannot be transferred yet.',
  notDelivered: 'Your tickets have not been delivered to your wallet yet, so they cannot be transferred.',
  notInOrder: 'That ticket is not part of this order.',
  seated: 'Tickets with seats cannot be transferred.',
  pastDate: 'The delivery date cannot be in the past.',
  toYourself: 'These tickets are already yours: send them to someone else.',
  tooMany: (left: number, ticketName: string) =>
    left === 0
      ? `Every ${ticketName} ticket of this order has already been transferred.`
      : `Only ${left} ${ticketName} ${left === 1 ? 'ticket is' : 'tickets are'} left to transfer.`,
  linkNotFound: 'This transfer link is not valid. Ask the sender to send the tickets again.',
  linkExpired: 'This transfer link has expired. Ask the sender to send the tickets again.',
  linkUsed: 'This transfer link has already been used.',
} as const;

/** Days a transfer's link can be accepted after its e-mail went; after that the sender keeps the tickets. */
export const TRANSFER_LINK_DAYS = 30;
const linkEnded = (t: { sentAt: Date | null; acceptedAt: Date | null }, now: Date) =>
  t.acceptedAt === null && t.sentAt !== null && t.sentAt.getTime() + TRANSFER_LINK_DAYS * 86_400_000 <= now.getTime();

export interface TransferMail {
  mailer: Mailer;
  brandName: string;
}

/** 32 random bytes, base64url: the acceptance link cannot be guessed. */
export function newTransferToken(): string {
  return randomBytes(32).toString('base64url');
}

/** When a row's e-mail goes: a scheduled gift at its UK date and time, anything else at once. */
export function sendAtOf(
  row: Pick<TransferRow, 'is_gift' | 'send_gift' | 'delivery_date' | 'delivery_time'>,
  now: Date,
): Date {
  if (!row.is_gift || row.send_gift !== 'Schedule') return now;
  return ukInstant(parseTransferDate(row.delivery_date)!, row.delivery_time);
}

/**
 * Records the rows of set_transfers for the sale and sends the e-mails that are due now. Refuses
 * (4xx, nothing written) a sale that is not paid, a seated ticket, a ticket not in the order, a
 * scheduled date in the past, or more tickets of a type than the sale still holds untransferred.
 */
export async function setTransfers(
  db: Database,
  mail: TransferMail,
  opts: { saleId: string; rows: TransferRow[]; acceptUrl: (token: string) => string; now: Date },
): Promise<{ transferIds: number[] }> {
  const today = ukToday(opts.now);
  for (const row of opts.rows) {
    if (row.is_gift && row.send_gift === 'Schedule' && compareDates(parseTransferDate(row.delivery_date)!, today) < 0) {
      throw new Refusal('invalid-details', TRANSFER_REFUSALS.pastDate);
    }
  }
  const ids = await db.transaction(async (tx) => {
    const sale = await lockSale(tx, opts.saleId);
    if (!sale.paidAt) throw new Refusal('not-paid', TRANSFER_REFUSALS.notPaid);
    if (sale.userId === null) throw new Refusal('no-account', TRANSFER_REFUSALS.notDelivered);
    const senderId = sale.userId;
    const [sender] = await tx.select({ email: users.email }).from(users).where(eq(users.id, senderId));
    if (opts.rows.some((row) => row.email === sender?.email.toLowerCase()))
      throw new Refusal('invalid-details', TRANSFER_REFUSALS.toYourself);

    // Tickets are claimed type by type, in id order, so two transfers of one sale meet in the same order.
    const wanted = new Map<number, number>();
    for (const row of opts.rows) wanted.set(row.ticket_id, (wanted.get(row.ticket_id) ?? 0) + row.qty);
    const free = new Map<number, number[]>();
    for (const typeId of [...wanted.keys()].sort((a, b) => a - b)) {
      const held = await tx
        .select({ id: tickets.id, seat: tickets.seat })
        .from(tickets)
        .where(and(eq(tickets.saleId, opts.saleId), eq(tickets.ticketTypeId, typeId)))
        .orderBy(asc(tickets.id))
        .for('update');
      const [type] = await tx.select({ name: ticketTypes.name }).from(ticketTypes).where(eq(ticketTypes.id, typeId));
      if (held.length === 0) {
        const [line] = await tx
          .select({ qty: saleLines.qty })
          .from(saleLines)
          .where(and(eq(saleLines.saleId, opts.saleId), eq(saleLines.ticketTypeId, typeId)));
        throw new Refusal('conflict', line ? TRANSFER_REFUSALS.notDelivered : TRANSFER_REFUSALS.notInOrder);
      }
      if (held.some((t) => t.seat !== null)) throw new Refusal('conflict', TRANSFER_REFUSALS.seated);
      const untransferred = await tx
        .select({ id: tickets.id })
        .from(tickets)
        .where(
          and(
            eq(tickets.saleId, opts.saleId),
            eq(tickets.ticketTypeId, typeId),
            eq(tickets.userId, senderId),
            notExists(
              tx
                .select({ one: sql`1` })
                .from(transferTickets)
                .where(eq(transferTickets.ticketId, tickets.id)),
            ),
          ),
        )
        .orderBy(asc(tickets.id));
      if (untransferred.length < wanted.get(typeId)!)
        throw new Refusal('conflict', TRANSFER_REFUSALS.tooMany(untransferred.length, type?.name ?? 'ticket'));
      free.set(
        typeId,
        untransferred.map((t) => t.id),
      );
    }

    const made: number[] = [];
    for (const row of opts.rows) {
      const token = newTransferToken();
      const [transfer] = await tx
        .insert(transfers)
        .values({
          token,
          saleId: opts.saleId,
          senderUserId: senderId,
          ticketTypeId: row.ticket_id,
          recipientName: row.name,
          recipientEmail: row.email,
          qty: row.qty,
          isGift: row.is_gift,
          message: row.is_gift ? row.message.trim() : '',
          acceptUrl: opts.acceptUrl(token),
          createdAt: opts.now,
          sendAt: sendAtOf(row, opts.now),
        })
        .returning({ id: transfers.id });
      const given = free.get(row.ticket_id)!.splice(0, row.qty);
      await tx.insert(transferTickets).values(given.map((ticketId) => ({ ticketId, transferId: transfer!.id })));
      made.push(transfer!.id);
    }
    return made;
  });
  for (const id of ids) await sendTransfer(db, mail, id, opts.now);
  return { transferIds: ids };
}

interface TransferDetails {
  recipientName: string;
  recipientEmail: string;
  qty: number;
  isGift: boolean;
  message: string;
  acceptUrl: string;
  senderFirstName: string;
  senderLastName: string;
  ticketName: string;
  eventTitle: string;
  startsAt: Date;
}

function detailsQuery(db: Pick<Executor, 'select'>) {
  return db
    .select({
      id: transfers.id,
      recipientName: transfers.recipientName,
      recipientEmail: transfers.recipientEmail,
      qty: transfers.qty,
      isGift: transfers.isGift,
      message: transfers.message,
      acceptUrl: transfers.acceptUrl,
      sentAt: transfers.sentAt,
      acceptedAt: transfers.acceptedAt,
      recipientUserId: transfers.recipientUserId,
      senderFirstName: users.firstName,
      senderLastName: users.lastName,
      ticketName: ticketTypes.name,
      eventTitle: events.title,
      startsAt: eventDates.startsAt,
    })
    .from(transfers)
    .innerJoin(users, eq(users.id, transfers.senderUserId))
    .innerJoin(ticketTypes, eq(ticketTypes.id, transfers.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
    .innerJoin(events, eq(events.id, eventDates.eventId));
}

const senderOf = (t: Pick<TransferDetails, 'senderFirstName' | 'senderLastName'>) =>
  `${t.senderFirstName} ${t.senderLastName}`.trim();

/**
 * Sends one transfer's e-mail if it is due and not yet sent. The row is claimed by one conditional
 * statement, so a sweep and a request never both send it; a failed delivery gives the claim back
 * for the next sweep.
 */
export async function sendTransfer(db: Database, mail: TransferMail, transferId: number, now: Date): Promise<boolean> {
  const claimed = await db
    .update(transfers)
    .set({ sentAt: now })
    .where(and(eq(transfers.id, transferId), isNull(transfers.sentAt), lte(transfers.sendAt, now)))
    .returning({ id: transfers.id });
  if (claimed.length === 0) return false;
  const [details] = await detailsQuery(db).where(eq(transfers.id, transferId));
  try {
    // To the recipient, from the sender's request or a sweep: in the recipient's language (their account's, else English).
    const content = await writtenFor(db, { email: details!.recipientEmail }, () =>
      transferMail(mail.brandName, { ...details!, senderName: senderOf(details!) }),
    );
    await sendMail(db, mail.mailer, mail.brandName, { to: details!.recipientEmail, ...content }, now);
  } catch {
    await db.update(transfers).set({ sentAt: null }).where(eq(transfers.id, transferId));
    return false;
  }
  return true;
}

/** The sweep: every transfer whose moment has come (scheduled gifts, retries) is sent. */
export async function sendDueTransfers(db: Database, mail: TransferMail, now: Date): Promise<number> {
  const due = await db
    .select({ id: transfers.id })
    .from(transfers)
    .where(and(isNull(transfers.sentAt), lte(transfers.sendAt, now)))
    .orderBy(asc(transfers.sendAt))
    .limit(200);
  let sent = 0;
  for (const { id } of due) if (await sendTransfer(db, mail, id, now)) sent++;
  return sent;
}

export interface TransferOffer {
  from: string;
  tickets: { event_name: string; ticket_name: string; qty: number }[];
  message: string;
  accepted: boolean;
  /** Who accepted the tickets, once accepted: only they are told what the link gave. */
  recipientUserId: number | null;
}

/** What a sent transfer offers its recipient; null for an unknown link or a gift not yet delivered. */
export async function transferOffer(db: Database, token: string, now: Date): Promise<TransferOffer | 'expired' | null> {
  const [t] = await detailsQuery(db).where(eq(transfers.token, token));
  if (!t || t.sentAt === null) return null;
  if (linkEnded(t, now)) return 'expired';
  return {
    from: senderOf(t),
    tickets: [{ event_name: t.eventTitle, ticket_name: t.ticketName, qty: t.qty }],
    message: t.message,
    accepted: t.acceptedAt !== null,
    recipientUserId: t.recipientUserId,
  };
}

function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/);
  return { firstName: parts[0] ?? name, lastName: parts.slice(1).join(' ') };
}

/**
 * The recipient accepts: the tickets the sender still holds move to the recipient's account (made
 * from the name and e-mail the sender gave, if they have none), each with the recipient as holder.
 * Accepting twice moves nothing more. Answers the recipient's user id.
 */
export async function acceptTransfer(
  db: Database,
  token: string,
  now: Date,
): Promise<{ userId: number; alreadyAccepted: boolean }> {
  return db.transaction(async (tx) => {
    const [t] = await tx.select().from(transfers).where(eq(transfers.token, token)).for('update');
    if (!t || t.sentAt === null) throw new Refusal('not-found', TRANSFER_REFUSALS.linkNotFound);
    if (t.acceptedAt !== null && t.recipientUserId !== null)
      return { userId: t.recipientUserId, alreadyAccepted: true };
    if (linkEnded(t, now)) throw new Refusal('not-found', TRANSFER_REFUSALS.linkExpired);
    const [made] = await tx
      .insert(users)
      .values({ email: t.recipientEmail, ...splitName(t.recipientName), viewType: 'customer', emailProvenAt: now })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    const recipientId =
      made?.id ?? (await tx.select({ id: users.id }).from(users).where(eq(users.email, t.recipientEmail)))[0]!.id;
    // The link came only to this address: following it proves the address, as its one-time code would.
    await tx
      .update(users)
      .set({ emailProvenAt: now })
      .where(and(eq(users.id, recipientId), isNull(users.emailProvenAt)));
    const given = await tx
      .select({ ticketId: transferTickets.ticketId })
      .from(transferTickets)
      .where(eq(transferTickets.transferId, t.id));
    if (given.length > 0) {
      await tx
        .update(tickets)
        .set({ userId: recipientId, holderName: t.recipientName })
        .where(
          and(
            inArray(
              tickets.id,
              given.map((g) => g.ticketId),
            ),
            eq(tickets.userId, t.senderUserId),
          ),
        );
    }
    await tx.update(transfers).set({ acceptedAt: now, recipientUserId: recipientId }).where(eq(transfers.id, t.id));
    return { userId: recipientId, alreadyAccepted: false };
  });
}

/** A sale's transfers, oldest first (for tests and support). */
export async function transfersOfSale(db: Pick<Executor, 'select'>, saleId: string) {
  return db.select().from(transfers).where(eq(transfers.saleId, saleId)).orderBy(asc(transfers.id));
}
