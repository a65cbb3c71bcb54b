/**
 * A sale and what is in it: ticket lines, gift voucher lines, and where it is posted.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, moment, timestamptz } from './columns.ts';
import { users, userAddresses } from './accounts.ts';
import { ticketTypes, giftVouchers, discountCodes } from './catalogue.ts';

export const sales = pgTable(
  'sales',
  {
    id: text('id').primaryKey(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    userId: integer('user_id').references(() => users.id),
    state: text('state').notNull().default('basket'),
    currency: text('currency'),
    refundProtection: boolean('refund_protection').notNull().default(false),
    discountCodeId: integer('discount_code_id').references(() => discountCodes.id),
    /** Set while the sale holds stock. */
    reference: text('reference'),
    holdDeadline: moment('hold_deadline'),
    /** How many times the buyer asked for more time on the current hold. */
    holdExtensions: integer('hold_extensions').notNull().default(0),
    hadMismatchingCurrencies: boolean('had_mismatching_currencies').notNull().default(false),
    basketErrors: jsonb('basket_errors').$type<string[]>().notNull().default([]),
    basketSuccess: jsonb('basket_success').$type<string[]>().notNull().default([]),
    reservingError: text('reserving_error'),
    editBasketClicked: boolean('edit_basket_clicked').notNull().default(false),
    /** The e-mail address whose one-time code this sale's visitor proved, until the buyer is saved. */
    verifiedEmail: text('verified_email'),
    /**
     * An express buyer's details for an address no one has proven yet: where the tickets are
     * delivered, and nothing more. The account is made (and these choices applied) only when the
     * address's one-time code is proven; until then the sale names no account.
     */
    buyerEmail: text('buyer_email'),
    buyerName: text('buyer_name'),
    buyerMarketing: jsonb('buyer_marketing').$type<{
      ct_subscribed: boolean;
      organiser_subscribed_marketing: Record<string, boolean>;
    }>(),
    /** When the buyer chose their marketing preferences for this sale; null while still to ask. */
    marketingSetAt: timestamptz('marketing_set_at'),
    /** The client address that last reserved the sale, for the per-buyer cap on held tickets. */
    buyerIp: text('buyer_ip'),
    /** When the sale was paid for (or claimed free) and its holds became sold stock; null until then. */
    paidAt: moment('paid_at'),
    /** The buyer whose share link this sale's tickets were added through, for their reward. */
    referrerUserId: integer('referrer_user_id').references(() => users.id),
    /** The reference of the hold whose continue-your-order e-mail went to the buyer, so it goes once a hold. */
    resumeLinkSentFor: text('resume_link_sent_for'),
    /** When the sale last changed, so the sweeper can purge empty and abandoned ones. */
    touchedAt: timestamptz('touched_at').notNull().defaultNow(),
  },
  (t) => [
    index('sales_user_hold').on(t.userId, t.holdDeadline),
    index('sales_code_hold').on(t.discountCodeId, t.holdDeadline),
    index('sales_reference').on(t.reference),
    index('sales_buyer_email')
      .on(t.buyerEmail)
      .where(sql`${t.buyerEmail} IS NOT NULL`),
  ],
);

export const saleLines = pgTable(
  'sale_lines',
  {
    id: serial('id').primaryKey(),
    saleId: text('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    qty: integer('qty').notNull(),
  },
  (t) => [
    uniqueIndex('sale_lines_sale_ticket').on(t.saleId, t.ticketTypeId),
    check('sale_lines_qty_positive', sql`${t.qty} >= 1`),
  ],
);

export const saleVouchers = pgTable(
  'sale_vouchers',
  {
    id: serial('id').primaryKey(),
    saleId: text('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    giftVoucherId: integer('gift_voucher_id')
      .notNull()
      .references(() => giftVouchers.id),
    value: money('value').notNull(),
    qty: integer('qty').notNull(),
  },
  (t) => [
    uniqueIndex('sale_vouchers_sale_voucher_value').on(t.saleId, t.giftVoucherId, t.value),
    check('sale_vouchers_qty_positive', sql`${t.qty} >= 1`),
  ],
);

/** Where a sale's tickets or vouchers are posted, and the gift vouchers' from and to names. */
export const saleDeliveryAddresses = pgTable('sale_delivery_addresses', {
  saleId: text('sale_id')
    .primaryKey()
    .references(() => sales.id, { onDelete: 'cascade' }),
  /** The saved address it was copied from, if any. */
  userAddressId: integer('user_address_id').references(() => userAddresses.id, { onDelete: 'set null' }),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  address1: text('address_1').notNull(),
  address2: text('address_2').notNull().default(''),
  town: text('town').notNull(),
  postcode: text('postcode').notNull(),
  country: text('country').notNull(),
  state: text('state').notNull().default(''),
  giftVoucherFrom: text('gift_voucher_from').notNull().default(''),
  giftVoucherTo: text('gift_voucher_to').notNull().default(''),
  setAt: moment('set_at').notNull(),
});

/**
 * A referrer's reward for one referred sale, claimed once when that sale's tickets are delivered:
 * a single-use discount code when the event's reward is money off, otherwise a reference to show
 * the organiser. `sentAt` is set once the referrer's e-mail went.
 */
export const referralRewards = pgTable(
  'referral_rewards',
  {
    saleId: text('sale_id')
      .primaryKey()
      .references(() => sales.id, { onDelete: 'cascade' }),
    referrerUserId: integer('referrer_user_id')
      .notNull()
      .references(() => users.id),
    /** The referred buyer's (proven) address: one reward per referrer and referred buyer. */
    referredEmail: text('referred_email'),
    code: text('code').notNull().unique(),
    discountCodeId: integer('discount_code_id').references(() => discountCodes.id),
    createdAt: moment('created_at').notNull(),
    sentAt: moment('sent_at'),
  },
  (t) => [uniqueIndex('referral_rewards_referrer_referred').on(t.referrerUserId, t.referredEmail)],
);
