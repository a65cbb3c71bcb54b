/**
 * A sale's donation to its basket's charity, the Gift Aid declaration that goes with it, and the
 * charity's access to its declarations.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, moment } from './columns.ts';
import { users } from './accounts.ts';
import { charities } from './catalogue.ts';
import { sales } from './sales.ts';

/**
 * A sale's donation to its basket's charity: the amount the buyer chose and the fee worked out
 * then. A new reservation (after Edit basket or expiry) leaves it behind until it is saved again.
 */
export const saleDonations = pgTable(
  'sale_donations',
  {
    saleId: text('sale_id')
      .primaryKey()
      .references(() => sales.id, { onDelete: 'cascade' }),
    charityId: integer('charity_id')
      .notNull()
      .references(() => charities.id),
    /** The reservation it was given in: a donation counts only while its sale keeps that reference. */
    saleReference: text('sale_reference').notNull(),
    amount: money('amount').notNull(),
    fee: money('fee').notNull(),
    isGiftAid: boolean('is_gift_aid').notNull().default(false),
    /** The charity's newsletter box on the Gift Aid step. */
    subscribe: boolean('subscribe').notNull().default(false),
  },
  (t) => [check('sale_donations_amount_positive', sql`${t.amount} >= 1 AND ${t.fee} >= 0`)],
);

/**
 * A Gift Aid declaration as the donor made it, with its date, name and address, for the
 * charity's claim. It belongs to its donation and is replaced whenever the donation is.
 */
export const giftAidDeclarations = pgTable(
  'gift_aid_declarations',
  {
    id: serial('id').primaryKey(),
    saleId: text('sale_id')
      .notNull()
      .references(() => saleDonations.saleId, { onDelete: 'cascade' }),
    charityId: integer('charity_id')
      .notNull()
      .references(() => charities.id),
    /** Known when the donor was signed in at the time; otherwise the sale's buyer once identified. */
    userId: integer('user_id').references(() => users.id),
    title: text('title').notNull().default(''),
    firstName: text('first_name'),
    lastName: text('last_name'),
    ukBased: boolean('uk_based').notNull(),
    /** Line 1 for a UK resident, the whole address for an overseas taxpayer; empty below the address threshold. */
    address1: text('address1').notNull().default(''),
    postcode: text('postcode').notNull().default(''),
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    declaredAt: moment('declared_at').notNull(),
  },
  (t) => [
    uniqueIndex('gift_aid_declarations_sale').on(t.saleId),
    index('gift_aid_declarations_charity').on(t.charityId, t.declaredAt),
  ],
);

/** The secret a charity uses to download its Gift Aid declarations; only its SHA-256 is kept. */
export const charityDownloadTokens = pgTable('charity_download_tokens', {
  charityId: integer('charity_id')
    .primaryKey()
    .references(() => charities.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
});
