/**
 * Issued tickets, the wallet e-mail, and tickets sent or gifted to someone else after the sale.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment } from './columns.ts';
import { users } from './accounts.ts';
import { ticketTypes } from './catalogue.ts';

/**
 * A ticket issued to a paid sale's buyer: one row per admission, numbered within its sale line,
 * so issuing the same sale again (or at the same moment) adds nothing. `code` is the unguessable
 * value in the ticket's QR code.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    /** Not a foreign key: a ticket stays the holder's even if its sale row is ever purged. */
    saleId: text('sale_id').notNull(),
    /** The sale's reference when the ticket was issued. */
    saleReference: text('sale_reference'),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    /** 1 to the line's quantity. */
    copy: integer('copy').notNull(),
    /** The holder's account; null while the buyer's address is unproven (an express sale), until they sign in with its code. */
    userId: integer('user_id').references(() => users.id),
    holderName: text('holder_name').notNull(),
    /** 'Section Row Number' for a seated ticket; null for general admission. */
    seat: text('seat'),
    issuedAt: moment('issued_at').notNull(),
  },
  (t) => [
    uniqueIndex('tickets_code').on(t.code),
    uniqueIndex('tickets_sale_type_copy').on(t.saleId, t.ticketTypeId, t.copy),
    index('tickets_user').on(t.userId, t.id),
    check('tickets_copy_positive', sql`${t.copy} >= 1`),
  ],
);

/** The wallet e-mail of a sale: a row claims the sending, so it is sent once. */
export const walletDeliveries = pgTable('wallet_deliveries', {
  saleId: text('sale_id').primaryKey(),
  recipient: text('recipient').notNull(),
  sentAt: moment('sent_at').notNull(),
});

/**
 * One transfer row a buyer sent (spec 001 §3 Transfer row): some tickets of one type for one
 * recipient. The e-mail goes at `sendAt` (at once, or a scheduled gift's moment); accepting it
 * through `token` moves the tickets to the recipient's account.
 */
export const transfers = pgTable(
  'transfers',
  {
    id: serial('id').primaryKey(),
    /** The unguessable part of the acceptance link. */
    token: text('token').notNull(),
    saleId: text('sale_id').notNull(),
    senderUserId: integer('sender_user_id')
      .notNull()
      .references(() => users.id),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    recipientName: text('recipient_name').notNull(),
    recipientEmail: text('recipient_email').notNull(),
    qty: integer('qty').notNull(),
    isGift: boolean('is_gift').notNull(),
    message: text('message').notNull().default(''),
    /** The link the e-mail carries, as the site was addressed when the transfer was made. */
    acceptUrl: text('accept_url').notNull(),
    createdAt: moment('created_at').notNull(),
    sendAt: moment('send_at').notNull(),
    sentAt: moment('sent_at'),
    acceptedAt: moment('accepted_at'),
    recipientUserId: integer('recipient_user_id').references(() => users.id),
  },
  (t) => [
    uniqueIndex('transfers_token').on(t.token),
    index('transfers_sale').on(t.saleId),
    index('transfers_due')
      .on(t.sendAt)
      .where(sql`${t.sentAt} IS NULL`),
    check('transfers_qty_positive', sql`${t.qty} >= 1`),
  ],
);

/** The tickets a transfer gives: a ticket is given once, so it is in at most one transfer. */
export const transferTickets = pgTable(
  'transfer_tickets',
  {
    ticketId: integer('ticket_id')
      .primaryKey()
      .references(() => tickets.id),
    transferId: integer('transfer_id')
      .notNull()
      .references(() => transfers.id),
  },
  (t) => [index('transfer_tickets_transfer').on(t.transferId)],
);
