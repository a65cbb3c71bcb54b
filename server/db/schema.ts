/**
 * The Holdfast database. Money is integer minor units; percentages are basis points
 * (1 % = 100) so no price is ever a float.
 *
 * The checkout is read by the SQL function `checkout_snapshot` (migration 0001), which names these
 * tables and their key and ordering columns: renaming one of those needs a migration replacing it.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const charities = pgTable('charities', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  logo: text('logo').notNull(),
  descriptionHtml: text('description_html').notNull(),
  donationCheckoutTitle: text('donation_checkout_title').notNull(),
  donationOptions: jsonb('donation_options').$type<number[]>().notNull(),
  baseFee: integer('base_fee').notNull(),
  bookingFeeBp: integer('booking_fee_bp').notNull(),
  bookingFeeIncludesVat: boolean('booking_fee_includes_vat').notNull(),
  bookingFeeVatBp: integer('booking_fee_vat_bp').notNull(),
  bookingFeeCap: integer('booking_fee_cap'),
});

export const organisers = pgTable('organisers', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  isSaas: boolean('is_saas').notNull().default(false),
  /** Null when the organiser has not connected a payment provider yet. */
  paymentProvider: text('payment_provider'),
  customRefundPolicy: text('custom_refund_policy'),
  charityId: integer('charity_id').references(() => charities.id),
  marketingSignupMessage: text('marketing_signup_message').notNull().default(''),
});

export const events = pgTable('events', {
  id: serial('id').primaryKey(),
  organiserId: integer('organiser_id').notNull().references(() => organisers.id),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  currency: text('currency').notNull(),
  venueName: text('venue_name').notNull(),
  venueAddress: text('venue_address').notNull(),
  city: text('city').notNull(),
  thumbnail: text('thumbnail').notNull(),
  /** Whether refund protection can cover this event. */
  refundProtection: boolean('refund_protection').notNull().default(true),
  hideBookingFee: boolean('hide_booking_fee').notNull().default(false),
  timeslotWarning: text('timeslot_warning'),
});

/**
 * A shared stock limit: an event date's capacity, or a ticket type's own limit. Holds and
 * sales count against it; `sold` is only ever changed by a completed payment.
 */
export const capacityPools = pgTable(
  'capacity_pools',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    capacity: integer('capacity').notNull(),
    sold: integer('sold').notNull().default(0),
  },
  (t) => [check('capacity_pools_sold_within_capacity', sql`${t.sold} >= 0 AND ${t.sold} <= ${t.capacity}`)],
);

export const eventDates = pgTable('event_dates', {
  id: serial('id').primaryKey(),
  eventId: integer('event_id').notNull().references(() => events.id),
  startsAt: timestamp('starts_at', { withTimezone: true, mode: 'date' }).notNull(),
  poolId: integer('pool_id').notNull().references(() => capacityPools.id),
});

export type RequiredTicketGroup = { ids: number[]; title: string };

export const ticketTypes = pgTable('ticket_types', {
  id: serial('id').primaryKey(),
  eventDateId: integer('event_date_id').notNull().references(() => eventDates.id),
  name: text('name').notNull(),
  price: integer('price').notNull(),
  bookingFee: integer('booking_fee').notNull().default(0),
  absorbFee: boolean('absorb_fee').notNull().default(false),
  /** 0 means no limit per order. */
  maxCanReserve: integer('max_can_reserve').notNull().default(0),
  minPerCustomer: integer('min_per_customer').notNull().default(1),
  canUpdateQuantity: boolean('can_update_quantity').notNull().default(true),
  nonRefundable: boolean('non_refundable').notNull().default(false),
  requiredTickets: jsonb('required_tickets').$type<RequiredTicketGroup[]>().notNull().default([]),
  /** 'Buy N get one free': every N+1 tickets of this type, one costs nothing. */
  offerBuyN: integer('offer_buy_n'),
  /** The type's own limit, on top of its date's capacity. */
  poolId: integer('pool_id').references(() => capacityPools.id),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const giftVouchers = pgTable('gift_vouchers', {
  id: serial('id').primaryKey(),
  organiserId: integer('organiser_id').notNull().references(() => organisers.id),
  name: text('name').notNull(),
  currency: text('currency').notNull(),
  minValue: integer('min_value').notNull(),
  maxValue: integer('max_value').notNull(),
  suggestedValues: jsonb('suggested_values').$type<number[]>().notNull(),
  validityMonths: integer('validity_months').notNull().default(12),
  thumbnail: text('thumbnail').notNull(),
});

export const discountCodes = pgTable(
  'discount_codes',
  {
    id: serial('id').primaryKey(),
    /** Stored upper case; codes are matched case-insensitively. */
    code: text('code').notNull().unique(),
    kind: text('kind', { enum: ['percent', 'fixed'] }).notNull(),
    /** Basis points for 'percent', minor units for 'fixed'. */
    amount: integer('amount').notNull(),
    organiserId: integer('organiser_id').references(() => organisers.id),
    eventId: integer('event_id').references(() => events.id),
    /** Null when unlimited. */
    usageLimit: integer('usage_limit'),
    used: integer('used').notNull().default(0),
  },
  (t) => [check('discount_codes_used_within_limit', sql`${t.usageLimit} IS NULL OR ${t.used} <= ${t.usageLimit}`)],
);

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  isDarkMode: boolean('is_dark_mode').notNull().default(false),
  subscribed: boolean('subscribed').notNull().default(false),
  isEventSubscribed: boolean('is_event_subscribed').notNull().default(false),
  viewType: text('view_type', { enum: ['organiser', 'customer'] }).notNull().default('organiser'),
});

export const mailingList = pgTable('mailing_list', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export const sales = pgTable('sales', {
  id: text('id').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  userId: integer('user_id').references(() => users.id),
  state: text('state').notNull().default('basket'),
  currency: text('currency'),
  refundProtection: boolean('refund_protection').notNull().default(false),
  discountCodeId: integer('discount_code_id').references(() => discountCodes.id),
  /** Set while the sale holds stock. */
  reference: text('reference'),
  holdDeadline: timestamp('hold_deadline', { withTimezone: true, mode: 'date', precision: 3 }),
  hadMismatchingCurrencies: boolean('had_mismatching_currencies').notNull().default(false),
  basketErrors: jsonb('basket_errors').$type<string[]>().notNull().default([]),
  basketSuccess: jsonb('basket_success').$type<string[]>().notNull().default([]),
  reservingError: text('reserving_error'),
  editBasketClicked: boolean('edit_basket_clicked').notNull().default(false),
});

export const saleLines = pgTable(
  'sale_lines',
  {
    id: serial('id').primaryKey(),
    saleId: text('sale_id').notNull().references(() => sales.id, { onDelete: 'cascade' }),
    ticketTypeId: integer('ticket_type_id').notNull().references(() => ticketTypes.id),
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
    saleId: text('sale_id').notNull().references(() => sales.id, { onDelete: 'cascade' }),
    giftVoucherId: integer('gift_voucher_id').notNull().references(() => giftVouchers.id),
    value: integer('value').notNull(),
    qty: integer('qty').notNull(),
  },
  (t) => [
    uniqueIndex('sale_vouchers_sale_voucher_value').on(t.saleId, t.giftVoucherId, t.value),
    check('sale_vouchers_qty_positive', sql`${t.qty} >= 1`),
  ],
);

/**
 * Stock held for a sale until `deadline`. A hold stops counting the instant its deadline
 * passes; the sweeper only tidies up.
 */
export const holds = pgTable(
  'holds',
  {
    id: serial('id').primaryKey(),
    saleId: text('sale_id').notNull().references(() => sales.id, { onDelete: 'cascade' }),
    poolId: integer('pool_id').notNull().references(() => capacityPools.id),
    ticketTypeId: integer('ticket_type_id').notNull().references(() => ticketTypes.id),
    qty: integer('qty').notNull(),
    deadline: timestamp('deadline', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  },
  (t) => [index('holds_pool_deadline').on(t.poolId, t.deadline), index('holds_sale').on(t.saleId)],
);

/** One row per reservation attempt, for the captcha rule. */
export const reservationAttempts = pgTable(
  'reservation_attempts',
  {
    id: serial('id').primaryKey(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  },
  (t) => [index('reservation_attempts_ip_at').on(t.ip, t.at)],
);

/** Solved captcha challenges, so each one is accepted once. */
export const usedCaptchas = pgTable('used_captchas', {
  token: text('token').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});
