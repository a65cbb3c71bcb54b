/**
 * What keeps the site running rather than selling: rate limits, captcha records, the outbox of
 * messages, and the local address lookup's index.
 */
import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { moment, timestamptz } from './columns.ts';

/** One row per reservation attempt, for the captcha rule. */
export const reservationAttempts = pgTable(
  'reservation_attempts',
  {
    id: serial('id').primaryKey(),
    ip: text('ip').notNull(),
    at: moment('at').notNull(),
  },
  (t) => [index('reservation_attempts_ip_at').on(t.ip, t.at)],
);

/** Solved captcha challenges, so each one is accepted once. */
export const usedCaptchas = pgTable('used_captchas', {
  token: text('token').primaryKey(),
  expiresAt: timestamptz('expires_at').notNull(),
});

/**
 * Every message the product sends, e-mail and SMS. E-mail is delivered by SMTP when configured (the body is then
 * cleared); otherwise it stays here and the development mailbox shows it.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    recipient: text('recipient').notNull(),
    /** 'email', or 'sms' for a text message (recipient a phone number, body the text). */
    channel: text('channel', { enum: ['email', 'sms'] })
      .notNull()
      .default('email'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: moment('created_at').notNull(),
    sentAt: moment('sent_at'),
    failure: text('failure'),
  },
  (t) => [index('outbox_recipient').on(t.recipient, t.id)],
);

/** Requests per client address in the current window, shared by every process on one database. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  startedAt: moment('started_at').notNull(),
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
