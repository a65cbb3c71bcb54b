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
  primaryKey,
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
  /** Where the organiser is told about its buyers' payment plans (a plan whose charge failed every retry). */
  contactEmail: text('contact_email'),
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
  /** Tickets of one type one order may hold when the type sets no maximum of its own; null for the site's default. */
  maxPerOrder: integer('max_per_order'),
  /** Where a ticket holder watches the event online; null when it has no livestream. */
  accessOnline: text('access_online'),
  /** The organiser's reward for each friend who books through a buyer's referral link (both or neither). */
  rewardText: text('reward_text'),
  rewardShortText: text('reward_short_text'),
  /** The organiser's message to the event's buyers, shown once their order is paid (spec 001 "After sale messages"). */
  afterSaleMessage: text('after_sale_message'),
}, (t) => [check('events_reward_whole', sql`(${t.rewardText} IS NULL) = (${t.rewardShortText} IS NULL)`)]);

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

export const sales = pgTable(
  'sales',
  {
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
    /** How many times the buyer asked for more time on the current hold. */
    holdExtensions: integer('hold_extensions').notNull().default(0),
    hadMismatchingCurrencies: boolean('had_mismatching_currencies').notNull().default(false),
    basketErrors: jsonb('basket_errors').$type<string[]>().notNull().default([]),
    basketSuccess: jsonb('basket_success').$type<string[]>().notNull().default([]),
    reservingError: text('reserving_error'),
    editBasketClicked: boolean('edit_basket_clicked').notNull().default(false),
    /** The e-mail address whose one-time code this sale's visitor proved, until the buyer is saved. */
    verifiedEmail: text('verified_email'),
    /** When the buyer chose their marketing preferences for this sale; null while still to ask. */
    marketingSetAt: timestamp('marketing_set_at', { withTimezone: true, mode: 'date' }),
    /** The client address that last reserved the sale, for the per-buyer cap on held tickets. */
    buyerIp: text('buyer_ip'),
    /** When the sale was paid for (or claimed free) and its holds became sold stock; null until then. */
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date', precision: 3 }),
    /** When the sale last changed, so the sweeper can purge empty and abandoned ones. */
    touchedAt: timestamp('touched_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('sales_buyer_ip_hold').on(t.buyerIp, t.holdDeadline),
    index('sales_user_hold').on(t.userId, t.holdDeadline),
    index('sales_code_hold').on(t.discountCodeId, t.holdDeadline),
  ],
);

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

/**
 * What one buyer (`user:<id>` or `ip:<address>`) holds of one event date, kept as a count beside
 * the rows it sums, like a pool's `held`: the per-buyer cap reads one row however many live holds
 * the buyer has (a whole venue behind one address included). Reserving takes the buyer's advisory
 * lock and first releases that buyer's expired rows for the date (through the key-date-deadline
 * index), so a row stops counting the instant the sale's hold deadline passes.
 */
export const buyerHeld = pgTable(
  'buyer_held',
  {
    buyerKey: text('buyer_key').notNull(),
    eventDateId: integer('event_date_id').notNull(),
    held: integer('held').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.buyerKey, t.eventDateId] }), check('buyer_held_not_negative', sql`${t.held} >= 0`)],
);

/** The rows `buyer_held` sums: one per reserved sale, buyer key and event date, until the sale's hold deadline. */
export const buyerHolds = pgTable(
  'buyer_holds',
  {
    // No foreign key: a purged sale's rows are released (and counted off) like any expired row.
    saleId: text('sale_id').notNull(),
    buyerKey: text('buyer_key').notNull(),
    eventDateId: integer('event_date_id').notNull(),
    qty: integer('qty').notNull(),
    deadline: timestamp('deadline', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.saleId, t.buyerKey, t.eventDateId] }),
    index('buyer_holds_key_date_deadline').on(t.buyerKey, t.eventDateId, t.deadline),
  ],
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

/**
 * The live one-time code of an address: only its HMAC is kept. A resend replaces it (and its
 * tries); a right guess deletes it, so it works once.
 */
export const oneTimeCodes = pgTable('one_time_codes', {
  email: text('email').primaryKey(),
  codeHash: text('code_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  wrongTries: integer('wrong_tries').notNull().default(0),
});

/** One row per code sent, for the limits per address and per client address. */
export const codeSends = pgTable(
  'code_sends',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  },
  (t) => [index('code_sends_email_at').on(t.email, t.at), index('code_sends_ip_at').on(t.ip, t.at)],
);

/**
 * Every message the product sends. Delivered by SMTP when configured (the body is then
 * cleared); otherwise it stays here and the development mailbox shows it.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date', precision: 3 }),
    failure: text('failure'),
  },
  (t) => [index('outbox_recipient').on(t.recipient, t.id)],
);

/**
 * Each marketing consent (or refusal) a buyer gave, with when and where: the record an organiser
 * needs to show that a subscriber opted in.
 */
export const marketingConsents = pgTable(
  'marketing_consents',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id),
    email: text('email').notNull(),
    topic: text('topic', { enum: ['community', 'events', 'organiser'] }).notNull(),
    /** Set for the 'organiser' topic. */
    organiserId: integer('organiser_id').references(() => organisers.id),
    subscribed: boolean('subscribed').notNull(),
    source: text('source').notNull(),
    saleId: text('sale_id'),
    at: timestamp('at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  },
  (t) => [index('marketing_consents_email').on(t.email, t.at), index('marketing_consents_organiser').on(t.organiserId, t.at)],
);

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
    amount: integer('amount').notNull(),
    fee: integer('fee').notNull(),
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
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    declaredAt: timestamp('declared_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  },
  (t) => [uniqueIndex('gift_aid_declarations_sale').on(t.saleId), index('gift_aid_declarations_charity').on(t.charityId, t.declaredAt)],
);

/** The secret a charity uses to download its Gift Aid declarations; only its SHA-256 is kept. */
export const charityDownloadTokens = pgTable('charity_download_tokens', {
  charityId: integer('charity_id')
    .primaryKey()
    .references(() => charities.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
});

/** Requests per client address in the current window, shared by every process on one database. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
});

/* ---------- Delivery: issued tickets and the wallet e-mail (spec 001 §4 Delivery) ---------- */

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
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    holderName: text('holder_name').notNull(),
    /** 'Section Row Number' for a seated ticket; null for general admission. */
    seat: text('seat'),
    issuedAt: timestamp('issued_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
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
  sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
});

/* ---------- Payment: the card processor's payments and refunds, the sale's payment details ---------- */

/** Payment providers: card processors, and banks for instant bank transfer. */
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe', 'square', 'truelayer', 'sandbox_bank'] as const;

/**
 * One payment attempt of a sale at a card processor (the sandbox processor or Stripe). The
 * idempotency key is the sale and its attempt number, so paying twice for one attempt charges
 * once; the provider's payment id is unique, so a webhook or return replayed has one effect.
 * `outcome` says what settling it did: booked the tickets, or refunded a late payment.
 */
/** What a payment was made for (payments.paid_for): `basket` is compared at settlement, `reference` restores a late sale's. */
export interface PaidFor {
  basket: string;
  reference: string | null;
  total: number;
}

export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    /** No foreign key: a payment is a money record and outlives the purge of an abandoned sale. */
    saleId: text('sale_id').notNull(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    providerPaymentId: text('provider_payment_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    clientSecret: text('client_secret').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['requires_payment_method', 'requires_action', 'succeeded', 'failed'] }).notNull(),
    failureMessage: text('failure_message'),
    outcome: text('outcome', { enum: ['booked', 'refunded'] }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true, mode: 'date', precision: 3 }),
    /**
     * What the payment is for: the basket as it stood when the payment was made (lines, vouchers,
     * discounts, refund protection, donation, delivery, currency, total) and the sale's reference.
     * Settlement books only when the basket still matches it.
     */
    paidFor: jsonb('paid_for').$type<PaidFor>(),
    /** When the reconciliation job next asks the processor about this payment; null once its word is in. */
    checkAfter: timestamp('check_after', { withTimezone: true, mode: 'date', precision: 3 }),
  },
  (t) => [
    uniqueIndex('payments_provider_payment_id').on(t.provider, t.providerPaymentId),
    index('payments_check_after').on(t.checkAfter).where(sql`${t.checkAfter} IS NOT NULL`),
    uniqueIndex('payments_idempotency_key').on(t.idempotencyKey),
    index('payments_sale').on(t.saleId, t.id),
    check('payments_amount_positive', sql`${t.amount} >= 1`),
  ],
);

/**
 * The sandbox bank's answer to a bank payment the buyer approved slowly: the outcome arrives at
 * `settlesAt`, read by the status check or the sweeper, whichever comes first.
 */
export const sandboxBankDecisions = pgTable('sandbox_bank_decisions', {
  providerPaymentId: text('provider_payment_id').primaryKey(),
  outcome: text('outcome', { enum: ['approved', 'cancelled'] }).notNull(),
  settlesAt: timestamp('settles_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
});

/**
 * A refund of a whole payment: at most one per payment. It is owed from the moment it is written;
 * `pending` until the processor accepts it, retried at `retryAt` when the processor refused or failed.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
    status: text('status', { enum: ['pending', 'done'] }).notNull().default('done'),
    attempts: integer('attempts').notNull().default(0),
    retryAt: timestamp('retry_at', { withTimezone: true, mode: 'date', precision: 3 }),
    lastError: text('last_error'),
  },
  (t) => [uniqueIndex('payment_refunds_payment').on(t.paymentId), index('payment_refunds_pending').on(t.retryAt).where(sql`${t.status} = 'pending'`)],
);

/** Provider webhook events already handled, so a replayed event has no second effect. */
export const paymentWebhookEvents = pgTable('payment_webhook_events', {
  eventId: text('event_id').primaryKey(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
});

/**
 * What the payment step saved for a sale: the contact number, the billing address, the attempt
 * number of the next card payment, and when a payment started (the hold is then kept up to
 * PAYMENT_GRACE past its deadline). `notice` is a late payment's outcome told to the buyer.
 */
export const salePaymentDetails = pgTable('sale_payment_details', {
  saleId: text('sale_id')
    .primaryKey()
    .references(() => sales.id, { onDelete: 'cascade' }),
  contactNumber: text('contact_number'),
  billingAddress: jsonb('billing_address').$type<Record<string, string>>(),
  attempt: integer('attempt').notNull().default(1),
  paymentStartedAt: timestamp('payment_started_at', { withTimezone: true, mode: 'date', precision: 3 }),
  /** The hold's own deadline when the payment started; the grace runs from here. */
  heldUntil: timestamp('held_until', { withTimezone: true, mode: 'date', precision: 3 }),
  notice: text('notice'),
  /** The bank's return (spec 001 truelayer_returned_from): 1 back from the bank, 0 cancelled there; null before. */
  truelayerReturnedFrom: integer('truelayer_returned_from'),
});

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

/* ---------- Addresses: saved addresses, a sale's delivery address, the local lookup index, postal events ---------- */

/** A signed-in buyer's saved address (spec 000 §3): offered again on later checkouts until deleted. */
export const userAddresses = pgTable(
  'user_addresses',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    address1: text('address_1').notNull(),
    address2: text('address_2').notNull().default(''),
    town: text('town').notNull(),
    postcode: text('postcode').notNull(),
    /** The server's country id ('1' UK, '2' USA, ...). */
    country: text('country').notNull(),
    /** A US state's code; empty elsewhere. */
    state: text('state').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  },
  (t) => [index('user_addresses_user').on(t.userId, t.createdAt)],
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
  setAt: timestamp('set_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
});

/** The local address lookup's index (used when no address API key is configured). */
export const addressIndex = pgTable(
  'address_index',
  {
    id: serial('id').primaryKey(),
    line1: text('line_1').notNull(),
    line2: text('line_2').notNull().default(''),
    town: text('town').notNull(),
    postcode: text('postcode').notNull(),
    country: text('country').notNull(),
    state: text('state').notNull().default(''),
    /** Lower-case words of the whole address plus the postcode without spaces, for matching. */
    search: text('search').notNull(),
  },
  (t) => [index('address_index_postcode').on(t.postcode)],
);

/** Events whose tickets are posted: a basket with one of them needs a delivery address. */
export const postalDeliveryEvents = pgTable('postal_delivery_events', {
  eventId: integer('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
});

/* ---------- Ticket questions (spec 001 §3 Question, §7 save_question_answers) ---------- */

/**
 * A question an organiser asks about a ticket type, before or after payment: on every copy of the
 * ticket, or once per checkout. Questions that are one organiser question on several ticket types
 * share an `osq_id` and are asked once.
 */
export const ticketQuestions = pgTable(
  'ticket_questions',
  {
    id: serial('id').primaryKey(),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    question: text('question').notNull(),
    type: text('type', { enum: ['text', 'checkbox', 'dropdown'] }).notNull(),
    mandatory: boolean('mandatory').notNull().default(false),
    oncePerCheckout: boolean('once_per_checkout').notNull().default(false),
    osqId: integer('osq_id'),
    /** The dropdown's options, in order. */
    options: jsonb('options').$type<string[]>().notNull().default([]),
    beforeOrAfter: text('before_or_after', { enum: ['before', 'after'] }).notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('ticket_questions_ticket_type').on(t.ticketTypeId)],
);

/** The intro of the questions' Basket step, for an event or for all of an organiser's events. */
export const questionIntros = pgTable(
  'question_intros',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id').references(() => events.id),
    organiserId: integer('organiser_id').references(() => organisers.id),
    text: text('text').notNull(),
  },
  (t) => [
    uniqueIndex('question_intros_event').on(t.eventId),
    uniqueIndex('question_intros_organiser').on(t.organiserId),
    check('question_intros_one_owner', sql`(${t.eventId} IS NULL) <> (${t.organiserId} IS NULL)`),
  ],
);

/**
 * A buyer's answer to a question, per ticket copy (`copy` null for a question asked once per
 * checkout). Each save of a phase replaces that phase's answers of the sale.
 */
export const saleQuestionAnswers = pgTable(
  'sale_question_answers',
  {
    id: serial('id').primaryKey(),
    saleId: text('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => ticketQuestions.id),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    copy: integer('copy'),
    beforeOrAfter: text('before_or_after', { enum: ['before', 'after'] }).notNull(),
    /** A string for text and dropdown questions, a boolean for a checkbox. */
    answer: jsonb('answer').$type<string | boolean>().notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  },
  (t) => [index('sale_question_answers_sale').on(t.saleId, t.beforeOrAfter)],
);

/* ---------- Instalment plans (spec 001 §2, §4, §7, §9) and the sandbox processor's cards ---------- */

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
  (t) => [uniqueIndex('event_payment_plans_option').on(t.eventId, t.option), check('event_payment_plans_count', sql`${t.instalments} >= 1`)],
);

/** A buyer's card kept for off-session charges (spec 001 §3 Saved payment method). */
export const savedPaymentMethods = pgTable(
  'saved_payment_methods',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    provider: text('provider', { enum: ['sandbox', 'stripe'] }).notNull(),
    /** The processor's id of the card (pm_…). */
    providerMethodId: text('provider_method_id').notNull(),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    funding: text('funding').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  },
  (t) => [uniqueIndex('saved_payment_methods_provider_id').on(t.provider, t.providerMethodId), index('saved_payment_methods_user').on(t.userId)],
);

/**
 * A sale paid by instalments: its schedule lives in `instalments`. `status` is authenticating while
 * the buyer's bank confirms the first instalment, then active until the final payment (completed)
 * or until a charge has failed every retry (failed).
 */
export const instalmentPlans = pgTable('instalment_plans', {
  saleId: text('sale_id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id),
  option: text('option').notNull(),
  currency: text('currency').notNull(),
  total: integer('total').notNull(),
  paymentMethodId: integer('payment_method_id')
    .notNull()
    .references(() => savedPaymentMethods.id),
  contactNumber: text('contact_number').notNull(),
  status: text('status', { enum: ['authenticating', 'active', 'completed', 'failed'] }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date', precision: 3 }),
});

/**
 * One payment of a plan. The job charges a scheduled one when `next_attempt_at` has come, under
 * the key `instalment:<id>:<attempt>`, holding the row's lock while it charges: a second runner
 * skips a locked row and finds it paid once the first commits, so no instalment is charged twice.
 */
export const instalments = pgTable(
  'instalments',
  {
    id: serial('id').primaryKey(),
    saleId: text('sale_id')
      .notNull()
      .references(() => instalmentPlans.saleId),
    seq: integer('seq').notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
    amount: integer('amount').notNull(),
    status: text('status', { enum: ['scheduled', 'paid', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true, mode: 'date', precision: 3 }),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date', precision: 3 }),
    providerPaymentId: text('provider_payment_id'),
    lastError: text('last_error'),
  },
  (t) => [
    uniqueIndex('instalments_sale_seq').on(t.saleId, t.seq),
    index('instalments_due').on(t.status, t.nextAttemptAt),
    check('instalments_amount_positive', sql`${t.amount} >= 1`),
  ],
);

/**
 * The sandbox processor's own records: cards it tokenised (a saved card `pm_sandbox_…` or a
 * Square-style single-use nonce `cnon:sandbox-…`), and every charge it took, once per
 * idempotency key, as a real processor keeps them.
 */
export const sandboxCards = pgTable('sandbox_cards', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['payment_method', 'nonce'] }).notNull(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expMonth: integer('exp_month').notNull(),
  expYear: integer('exp_year').notNull(),
  funding: text('funding').notNull(),
  /** What charging the card does: test numbers decline, run short, or fail only when charged later. */
  behaviour: text('behaviour', { enum: ['approve', 'decline', 'insufficient_funds', 'fail_off_session', 'challenge'] }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date', precision: 3 }),
});

export const sandboxCharges = pgTable('sandbox_charges', {
  id: text('id').primaryKey(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  cardId: text('card_id')
    .notNull()
    .references(() => sandboxCards.id),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  status: text('status', { enum: ['succeeded', 'failed'] }).notNull(),
  failureMessage: text('failure_message'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
});
/* ---------- Seat selection (spec 001 §2 Seat-selection page, §3 Seat-plan info, §5 Seat selection) ---------- */

/**
 * A seated event date's plan: drawn by our own seat map, or by seats.io when the provider is
 * 'seatsio' and its key is configured (`providerIdentifier` is then the seats.io event key).
 */
export const seatPlans = pgTable('seat_plans', {
  eventDateId: integer('event_date_id')
    .primaryKey()
    .references(() => eventDates.id),
  provider: text('provider', { enum: ['holdfast', 'seatsio'] }).notNull().default('holdfast'),
  providerIdentifier: text('provider_identifier').notNull(),
});

/**
 * One seat of a plan, and who has it. A seat is taken for a buyer holding `holder` when it is sold,
 * or when another holder's hold has not reached `held_until`: an expired hold simply stops counting.
 * `sale_id` is set while a sale's reservation holds it (its deadline is then the sale's).
 */
export const seats = pgTable(
  'seats',
  {
    id: serial('id').primaryKey(),
    eventDateId: integer('event_date_id')
      .notNull()
      .references(() => eventDates.id),
    section: text('section').notNull(),
    row: text('row').notNull(),
    number: text('number').notNull(),
    /** The seat's place along its row; a gap of more than one is an aisle. */
    position: integer('position').notNull(),
    /** Where the seat map draws it, in plan units. */
    x: integer('x').notNull(),
    y: integer('y').notNull(),
    /** The ticket type (and so the price) it sells as; null when the seat has no pricing. */
    ticketTypeId: integer('ticket_type_id').references(() => ticketTypes.id),
    holder: text('holder'),
    heldUntil: timestamp('held_until', { withTimezone: true, mode: 'date', precision: 3 }),
    saleId: text('sale_id'),
    /** Not a foreign key: a sold seat stays sold even if its sale row is ever purged. */
    soldSaleId: text('sold_sale_id'),
  },
  (t) => [
    uniqueIndex('seats_date_place').on(t.eventDateId, t.section, t.row, t.number),
    index('seats_date_row').on(t.eventDateId, t.section, t.row, t.position),
    index('seats_holder').on(t.holder),
    index('seats_sale').on(t.saleId),
  ],
);

/** The seats a sale's basket lines are for, with the hold token they were chosen under. */
export const saleSeats = pgTable(
  'sale_seats',
  {
    saleId: text('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    seatId: integer('seat_id')
      .notNull()
      .references(() => seats.id),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    holdToken: text('hold_token').notNull(),
  },
  (t) => [uniqueIndex('sale_seats_sale_seat').on(t.saleId, t.seatId), index('sale_seats_sale_type').on(t.saleId, t.ticketTypeId)],
);

/* ---------- Transfers: tickets sent or gifted to someone else after the sale ---------- */

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
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
    sendAt: timestamp('send_at', { withTimezone: true, mode: 'date', precision: 3 }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date', precision: 3 }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date', precision: 3 }),
    recipientUserId: integer('recipient_user_id').references(() => users.id),
  },
  (t) => [
    uniqueIndex('transfers_token').on(t.token),
    index('transfers_sale').on(t.saleId),
    index('transfers_due').on(t.sendAt).where(sql`${t.sentAt} IS NULL`),
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
