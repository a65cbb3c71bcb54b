/**
 * Buyers: their accounts, sign-in codes, marketing consents, saved addresses and saved cards.
 */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment, timestamptz } from './columns.ts';
import { organisers } from './catalogue.ts';

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  firstName: text('first_name').notNull(),
  lastName: text('last_name').notNull(),
  isDarkMode: boolean('is_dark_mode').notNull().default(false),
  subscribed: boolean('subscribed').notNull().default(false),
  isEventSubscribed: boolean('is_event_subscribed').notNull().default(false),
  viewType: text('view_type', { enum: ['organiser', 'customer'] })
    .notNull()
    .default('organiser'),
  /**
   * When the address was last proven to be the account holder's (its one-time code typed back);
   * null for an account from before proof was kept, until its next sign-in with a code.
   */
  emailProvenAt: moment('email_proven_at'),
  /** The language the buyer chose (i18n/locales.ts), for pages and e-mails; null until they choose one. */
  language: text('language'),
});

export const mailingList = pgTable('mailing_list', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  createdAt: timestamptz('created_at').notNull().defaultNow(),
});

/**
 * A mailing-list sign-up waiting for its address to confirm it (double opt-in): only the hash of
 * the e-mailed link's token is kept, bound to its purpose; the link works once, before `expiresAt`.
 */
export const mailingListConfirmations = pgTable(
  'mailing_list_confirmations',
  {
    tokenHash: text('token_hash').primaryKey(),
    email: text('email').notNull(),
    expiresAt: moment('expires_at').notNull(),
    usedAt: moment('used_at'),
    createdAt: moment('created_at').notNull(),
  },
  (t) => [index('mailing_list_confirmations_email').on(t.email, t.createdAt)],
);

/**
 * The live one-time code of an address: only its HMAC is kept. A resend replaces it (and its
 * tries); a right guess deletes it, so it works once.
 */
export const oneTimeCodes = pgTable('one_time_codes', {
  email: text('email').primaryKey(),
  codeHash: text('code_hash').notNull(),
  expiresAt: moment('expires_at').notNull(),
  wrongTries: integer('wrong_tries').notNull().default(0),
});

/** One row per code sent, for the limits per address and per client address. */
export const codeSends = pgTable(
  'code_sends',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    at: moment('at').notNull(),
  },
  (t) => [index('code_sends_email_at').on(t.email, t.at), index('code_sends_ip_at').on(t.ip, t.at)],
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
    at: moment('at').notNull(),
  },
  (t) => [
    index('marketing_consents_email').on(t.email, t.at),
    index('marketing_consents_organiser').on(t.organiserId, t.at),
  ],
);

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
    /** The address the checkout's address steps start from; at most one per buyer, none until the buyer makes one so. */
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: moment('created_at').notNull(),
  },
  (t) => [
    index('user_addresses_user').on(t.userId, t.createdAt),
    uniqueIndex('user_addresses_one_default')
      .on(t.userId)
      .where(sql`${t.isDefault}`),
  ],
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
    createdAt: moment('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('saved_payment_methods_provider_id').on(t.provider, t.providerMethodId),
    index('saved_payment_methods_user').on(t.userId),
  ],
);

/** The buyer's customer at Stripe, which the cards saved for their plans belong to (made on first need). */
export const stripeCustomers = pgTable('stripe_customers', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  /** Stripe's id of the customer (cus_…). */
  customerId: text('customer_id').notNull().unique(),
  createdAt: moment('created_at').notNull(),
});

/**
 * A signed-in browser: the SHA-256 of its session id (the cookie holds the id, the database never
 * does), whose user, and its ends. Signing out deletes the row; signing out everywhere deletes the
 * user's rows. An anonymous visitor has no row.
 */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: moment('created_at').notNull(),
    lastSeenAt: moment('last_seen_at').notNull(),
    /** The absolute end, however active the session. */
    expiresAt: moment('expires_at').notNull(),
  },
  (t) => [index('sessions_user').on(t.userId)],
);
