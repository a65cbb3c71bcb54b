/**
 * What is on sale: organisers and their charities, events, their dates and ticket types, the capacity
 * pools they sell from, gift vouchers and discount codes, and each event's and organiser's settings.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, timestamptz } from './columns.ts';

export const charities = pgTable('charities', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  logo: text('logo').notNull(),
  descriptionHtml: text('description_html').notNull(),
  donationCheckoutTitle: text('donation_checkout_title').notNull(),
  donationOptions: jsonb('donation_options').$type<number[]>().notNull(),
  baseFee: money('base_fee').notNull(),
  bookingFeeBp: integer('booking_fee_bp').notNull(),
  bookingFeeIncludesVat: boolean('booking_fee_includes_vat').notNull(),
  bookingFeeVatBp: integer('booking_fee_vat_bp').notNull(),
  bookingFeeCap: money('booking_fee_cap'),
});

export const organisers = pgTable('organisers', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  isSaas: boolean('is_saas').notNull().default(false),
  /** Null when the organiser has not connected a payment provider yet. */
  paymentProvider: text('payment_provider'),
  /** The organiser's own account at its payment provider (a Stripe account `acct_…`); null until connected. */
  paymentMerchantId: text('payment_merchant_id'),
  /**
   * The provider was set for the organiser by the platform, in place of the one the organiser chose
   * (the checkout's opoa.overridden).
   */
  paymentProviderOverridden: boolean('payment_provider_overridden').notNull().default(false),
  /** The language its pages and e-mails are in for a buyer who has not asked for one we have (i18n/locales.ts). */
  defaultLanguage: text('default_language').notNull().default('en-GB'),
  customRefundPolicy: text('custom_refund_policy'),
  charityId: integer('charity_id').references(() => charities.id),
  marketingSignupMessage: text('marketing_signup_message').notNull().default(''),
  /** Where the organiser is told about its buyers' payment plans (a plan whose charge failed every retry). */
  contactEmail: text('contact_email'),
  /**
   * The organiser's analytics, fed only after a buyer accepts analytics cookies: its Google
   * Analytics measurement id (`ga`), Google Ads conversion id, Meta pixel id, and older Universal
   * Analytics properties.
   */
  gaMeasurementId: text('ga_measurement_id'),
  gaConversionId: text('ga_conversion_id'),
  fbPixelId: text('fb_pixel_id'),
  gaUaProperties: text('ga_ua_properties')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
});

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    organiserId: integer('organiser_id')
      .notNull()
      .references(() => organisers.id),
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
    /** Tickets of one type one order may hold when the type sets no maximum of its own; null for the site's default. */
    maxPerOrder: integer('max_per_order'),
    /** How long a waiting-list offer holds its tickets for the buyer it is made to (never past the date's start). */
    waitingListOfferSeconds: integer('waiting_list_offer_seconds').notNull().default(172800),
    /** Where a ticket holder watches the event online; null when it has no livestream. */
    accessOnline: text('access_online'),
    /** The organiser's reward for each friend who books through a buyer's referral link (both or neither). */
    rewardText: text('reward_text'),
    rewardShortText: text('reward_short_text'),
    /**
     * When the reward is money off: the basis points a referrer's single-use code takes off the
     * organiser's events. Null when the organiser gives the reward in person (the e-mail carries its
     * text and a reference to show).
     */
    rewardDiscount: integer('reward_discount'),
    /** The organiser's message to the event's buyers, shown once their order is paid (spec 001 "After sale messages"). */
    afterSaleMessage: text('after_sale_message'),
    /**
     * The organiser's activity terms and conditions (the waiver) every buyer of the event is asked
     * to read once paid, at the sale's waiver link (spec 001 "Waiver"); null when the event has none.
     */
    waiverText: text('waiver_text'),
  },
  (t) => [check('events_reward_whole', sql`(${t.rewardText} IS NULL) = (${t.rewardShortText} IS NULL)`)],
);

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
    /** The sum of the pool's hold rows, kept in the same transaction as they change (see domain/stock.ts). */
    held: integer('held').notNull().default(0),
  },
  (t) => [
    check('capacity_pools_sold_within_capacity', sql`${t.sold} >= 0 AND ${t.sold} <= ${t.capacity}`),
    check('capacity_pools_held_within_capacity', sql`${t.held} >= 0 AND ${t.sold} + ${t.held} <= ${t.capacity}`),
  ],
);

export const eventDates = pgTable('event_dates', {
  id: serial('id').primaryKey(),
  eventId: integer('event_id')
    .notNull()
    .references(() => events.id),
  startsAt: timestamptz('starts_at').notNull(),
  poolId: integer('pool_id')
    .notNull()
    .references(() => capacityPools.id),
});

export type RequiredTicketGroup = { ids: number[]; title: string };

export const ticketTypes = pgTable('ticket_types', {
  id: serial('id').primaryKey(),
  eventDateId: integer('event_date_id')
    .notNull()
    .references(() => eventDates.id),
  name: text('name').notNull(),
  price: money('price').notNull(),
  bookingFee: money('booking_fee').notNull().default(0),
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
  organiserId: integer('organiser_id')
    .notNull()
    .references(() => organisers.id),
  name: text('name').notNull(),
  currency: text('currency').notNull(),
  minValue: money('min_value').notNull(),
  maxValue: money('max_value').notNull(),
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

/**
 * An organiser's payment settings: a contact number required at payment (has_require_phone_number),
 * and express checkout, where a guest buyer gives name and e-mail on the payment step instead of
 * signing in.
 */
export const organiserPaymentSettings = pgTable('organiser_payment_settings', {
  organiserId: integer('organiser_id')
    .primaryKey()
    .references(() => organisers.id, { onDelete: 'cascade' }),
  requirePhoneNumber: boolean('require_phone_number').notNull().default(false),
  expressCheckout: boolean('express_checkout').notNull().default(false),
});

/** Events whose tickets are posted: a basket with one of them needs a delivery address. */
export const postalDeliveryEvents = pgTable('postal_delivery_events', {
  eventId: integer('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
});

/**
 * A payment plan an event offers: option '1' is paying in full (never offered as a plan); any
 * other option splits the total into `instalments` equal payments (the remainder on the first),
 * the first taken at once and each later one `interval_days` after the one before.
 */
export const eventPaymentPlans = pgTable(
  'event_payment_plans',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    option: text('option').notNull(),
    label: text('label').notNull(),
    instalments: integer('instalments').notNull(),
    intervalDays: integer('interval_days').notNull(),
  },
  (t) => [
    uniqueIndex('event_payment_plans_option').on(t.eventId, t.option),
    check('event_payment_plans_count', sql`${t.instalments} >= 1`),
  ],
);
