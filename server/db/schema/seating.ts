/**
 * Seat selection (spec 001 §2 Seat-selection page, §3 Seat-plan info, §5 Seat selection).
 */
import { index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment } from './columns.ts';
import { eventDates, ticketTypes } from './catalogue.ts';
import { sales } from './sales.ts';

/**
 * A seated event date's plan: drawn by our own seat map, or by seats.io when the provider is
 * 'seatsio' and its key is configured (`providerIdentifier` is then the seats.io event key).
 */
export const seatPlans = pgTable('seat_plans', {
  eventDateId: integer('event_date_id')
    .primaryKey()
    .references(() => eventDates.id),
  provider: text('provider', { enum: ['holdfast', 'seatsio'] })
    .notNull()
    .default('holdfast'),
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
    heldUntil: moment('held_until'),
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
  (t) => [
    uniqueIndex('sale_seats_sale_seat').on(t.saleId, t.seatId),
    index('sale_seats_sale_type').on(t.saleId, t.ticketTypeId),
  ],
);
