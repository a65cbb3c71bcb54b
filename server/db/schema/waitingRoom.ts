/**
 * The waiting room in front of an event date's on-sale, and the waiting list after its sell-out.
 *
 * `event_date_queues` is the organiser's setting per event date and, beside it, the shared state of
 * its queue that every process reads (once a second, not once per poll): how many have joined, how
 * far admission has got (`admitted_through`, the last queue number let in) and whether the date is
 * sold out. A place in the queue is one row of `queue_places`, written when a browser joins, once
 * when its admission is first handed out, and once when that admission reserves a sale.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { moment } from './columns.ts';
import { eventDates, ticketTypes } from './catalogue.ts';

/** [epoch second, admitted_through] pairs, oldest first: how many were let in by when. */
export type AdmissionMarks = [number, number][];

export const eventDateQueues = pgTable(
  'event_date_queues',
  {
    eventDateId: integer('event_date_id')
      .primaryKey()
      .references(() => eventDates.id, { onDelete: 'cascade' }),
    /** When the on-sale opens; who joined before it is put in a random order then. */
    onSaleAt: moment('on_sale_at').notNull(),
    /** How many admitted buyers may shop at once (admitted within the last `admission_seconds`). */
    maxShoppers: integer('max_shoppers').notNull(),
    /** Buyers let in per minute while there is room and stock. */
    admitPerMinute: integer('admit_per_minute').notNull(),
    /** How long an admission lets its buyer reserve. */
    admissionSeconds: integer('admission_seconds').notNull().default(900),
    /** How often a waiting page asks, at the front of the queue; further back it asks less often. */
    pollSeconds: integer('poll_seconds').notNull().default(5),
    /** How many places one client address may take in this queue: a household behind one router, not a crowd of scripts. */
    placesPerAddress: integer('places_per_address').notNull().default(4),
    /** Only signed-in buyers may join, one place per account (the place follows the account to another browser). */
    signInToQueue: boolean('sign_in_to_queue').notNull().default(false),
    joined: bigint('joined', { mode: 'number' }).notNull().default(0),
    /** Whether the early arrivals have been numbered (in a random order) at the on-sale. */
    drawn: boolean('drawn').notNull().default(false),
    admittedThrough: bigint('admitted_through', { mode: 'number' }).notNull().default(0),
    /** Part of a buyer's worth of admission carried to the next step. */
    credit: doublePrecision('credit').notNull().default(0),
    soldOut: boolean('sold_out').notNull().default(false),
    marks: jsonb('marks').$type<AdmissionMarks>().notNull().default([]),
    /** When admission last moved on; the processes take turns by this column. */
    steppedAt: moment('stepped_at'),
    version: integer('version').notNull().default(0),
    /** Set by the organiser: while paused nobody more is let in; the queue keeps its order. */
    paused: boolean('paused').notNull().default(false),
    /** The organiser's message, shown on every waiting page of the date; null for none. */
    message: text('message'),
  },
  (t) => [
    check(
      'event_date_queues_positive',
      sql`${t.maxShoppers} > 0 AND ${t.admitPerMinute} > 0 AND ${t.admissionSeconds} > 0 AND ${t.pollSeconds} > 0`,
    ),
    check('event_date_queues_places_per_address', sql`${t.placesPerAddress} > 0`),
  ],
);

export const queuePlaces = pgTable(
  'queue_places',
  {
    id: serial('id').primaryKey(),
    eventDateId: integer('event_date_id')
      .notNull()
      .references(() => eventDateQueues.eventDateId, { onDelete: 'cascade' }),
    /** The place in line: null for an early arrival until the on-sale's draw numbers it. */
    number: bigint('number', { mode: 'number' }),
    /** The early arrivals' order at the draw. */
    draw: doublePrecision('draw').notNull(),
    joinedAt: moment('joined_at').notNull(),
    /** When the place's admission was first handed out: it ends `admission_seconds` later, and the place is spent. Set once. */
    admittedAt: moment('admitted_at'),
    /** The one sale the place's admission reserved; another sale is refused it. */
    saleId: text('sale_id'),
    /** The client address that joined, for the queue's cap of places per address. */
    clientIp: text('client_ip'),
    /** The account that joined, when the queue asks buyers to sign in: one place per account. */
    userId: integer('user_id'),
    /** Where to e-mail 'it is your turn', when the buyer asked for it: for one who has left the page. */
    notifyEmail: text('notify_email'),
    /** When that e-mail was sent: once. */
    notifiedAt: moment('notified_at'),
  },
  (t) => [
    uniqueIndex('queue_places_date_number').on(t.eventDateId, t.number),
    index('queue_places_unnumbered')
      .on(t.eventDateId)
      .where(sql`${t.number} IS NULL`),
    index('queue_places_address').on(t.eventDateId, t.clientIp),
    index('queue_places_account')
      .on(t.eventDateId, t.userId)
      .where(sql`${t.userId} IS NOT NULL`),
    /** Admitted places that have not reserved: the buyers still shopping, counted at every step. */
    index('queue_places_shopping')
      .on(t.eventDateId, t.admittedAt)
      .where(sql`${t.saleId} IS NULL`),
    /** Places whose 'your turn' e-mail is still to send. */
    index('queue_places_to_notify')
      .on(t.eventDateId, t.number)
      .where(sql`${t.notifyEmail} IS NOT NULL AND ${t.notifiedAt} IS NULL`),
  ],
);

/**
 * A buyer waiting for a sold-out ticket type. Offered once, in order of joining: the offer holds the
 * tickets in a sale of its own until `offer_expires_at`; its link (by `offer_token`) hands that sale to the
 * browser that proves the listed address with its one-time code.
 */
export const waitingListEntries = pgTable(
  'waiting_list_entries',
  {
    id: serial('id').primaryKey(),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    qty: integer('qty').notNull(),
    joinedAt: moment('joined_at').notNull(),
    offeredAt: moment('offered_at'),
    offerSaleId: text('offer_sale_id'),
    offerExpiresAt: moment('offer_expires_at'),
    offerToken: text('offer_token').unique(),
    openedAt: moment('opened_at'),
    /** When the listed address's one-time code claimed the offer for a browser: a second browser is refused it. */
    claimedAt: moment('claimed_at'),
    /** The client address that joined, for the cap of entries one address may make per date. */
    clientIp: text('client_ip'),
    /** When the buyer left the list by the link in their confirmation: never offered after. */
    leftAt: moment('left_at'),
    /** When the organiser took the entry off the list: never offered after. */
    removedAt: moment('removed_at'),
  },
  (t) => [
    uniqueIndex('waiting_list_entries_type_email')
      .on(t.ticketTypeId, sql`lower(${t.email})`)
      .where(sql`${t.leftAt} IS NULL AND ${t.removedAt} IS NULL`),
    index('waiting_list_entries_next')
      .on(t.ticketTypeId, t.id)
      .where(sql`${t.offeredAt} IS NULL AND ${t.leftAt} IS NULL AND ${t.removedAt} IS NULL`),
    index('waiting_list_entries_address').on(t.clientIp),
    check('waiting_list_entries_qty', sql`${t.qty} > 0`),
  ],
);
