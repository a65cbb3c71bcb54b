/**
 * The organiser's console: who may run an organiser's on-sales, what they did, and the presale
 * codes that let a fan past the queue.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment } from './columns.ts';
import { users } from './accounts.ts';
import { eventDates, organisers } from './catalogue.ts';

/** An account with the organiser role for one organiser: it may see and run that organiser's on-sales, and no other's. */
export const organiserMembers = pgTable(
  'organiser_members',
  {
    organiserId: integer('organiser_id')
      .notNull()
      .references(() => organisers.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: moment('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organiserId, t.userId] }), index('organiser_members_user').on(t.userId)],
);

/** Every change made in the console: who, when, what, and on which event date. Never updated or deleted by the console. */
export const organiserAudit = pgTable(
  'organiser_audit',
  {
    id: serial('id').primaryKey(),
    organiserId: integer('organiser_id')
      .notNull()
      .references(() => organisers.id, { onDelete: 'cascade' }),
    eventDateId: integer('event_date_id').references(() => eventDates.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    at: moment('at').notNull(),
    /** A short name of the action (set-up, open, pause, resume, rate, message, presale-code, …). */
    action: text('action').notNull(),
    /** What changed, in words. */
    detail: text('detail').notNull().default(''),
  },
  (t) => [index('organiser_audit_organiser').on(t.organiserId, t.id)],
);

/** A code the organiser gives out before the on-sale: typed on the presale page, it admits at once, past the queue, up to `max_uses` times. */
export const presaleCodes = pgTable(
  'presale_codes',
  {
    id: serial('id').primaryKey(),
    eventDateId: integer('event_date_id')
      .notNull()
      .references(() => eventDates.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    maxUses: integer('max_uses').notNull(),
    uses: integer('uses').notNull().default(0),
    createdAt: moment('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('presale_codes_date_code').on(t.eventDateId, sql`upper(${t.code})`),
    check('presale_codes_uses', sql`${t.maxUses} > 0 AND ${t.uses} >= 0 AND ${t.uses} <= ${t.maxUses}`),
  ],
);

/**
 * A wrong presale code typed for a date, by address: a few wrong tries a quarter of an hour, so the
 * codes cannot be guessed by trying many.
 */
export const presaleTries = pgTable(
  'presale_tries',
  {
    id: serial('id').primaryKey(),
    eventDateId: integer('event_date_id')
      .notNull()
      .references(() => eventDates.id, { onDelete: 'cascade' }),
    ip: text('ip').notNull(),
    at: moment('at').notNull(),
  },
  (t) => [index('presale_tries_date_ip_at').on(t.eventDateId, t.ip, t.at)],
);

/**
 * What the console's dashboard saw of one date's on-sale, at most one row every few seconds while
 * someone watches it: the chart's history, shared by every process.
 */
export const onSaleSamples = pgTable(
  'on_sale_samples',
  {
    id: serial('id').primaryKey(),
    eventDateId: integer('event_date_id')
      .notNull()
      .references(() => eventDates.id, { onDelete: 'cascade' }),
    at: moment('at').notNull(),
    waiting: integer('waiting').notNull(),
    admittedThrough: integer('admitted_through').notNull(),
    shoppers: integer('shoppers').notNull(),
    held: integer('held').notNull(),
    sold: integer('sold').notNull(),
  },
  (t) => [index('on_sale_samples_date').on(t.eventDateId, t.at)],
);
