/**
 * Stock held for sales until their hold deadline, in total per pool (capacity_pools.held) and per
 * buyer and event date (buyer_held), beside the rows those totals sum.
 */
import { sql } from 'drizzle-orm';
import { check, index, primaryKey, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { moment } from './columns.ts';
import { capacityPools, ticketTypes } from './catalogue.ts';
import { sales } from './sales.ts';

/**
 * Stock held for a sale until `deadline`. A hold stops counting the instant its deadline
 * passes; the sweeper only tidies up.
 */
export const holds = pgTable(
  'holds',
  {
    id: serial('id').primaryKey(),
    saleId: text('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    poolId: integer('pool_id')
      .notNull()
      .references(() => capacityPools.id),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    qty: integer('qty').notNull(),
    deadline: moment('deadline').notNull(),
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
    deadline: moment('deadline').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.saleId, t.buyerKey, t.eventDateId] }),
    index('buyer_holds_key_date_deadline').on(t.buyerKey, t.eventDateId, t.deadline),
  ],
);
