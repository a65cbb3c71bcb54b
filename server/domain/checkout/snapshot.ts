/**
 * The checkout's one read: everything the checkout object shows for a sale, from the database
 * function `checkout_snapshot` (server/db/functions/checkout_snapshot.sql), turned into the rows a
 * Drizzle select of each table returns.
 */
import { getTableColumns, type Column, type Table } from 'drizzle-orm';
import { preparedRows, type Database } from '../../db/index.ts';
import {
  charities,
  discountCodes,
  eventDates,
  eventPaymentPlans,
  events,
  giftVouchers,
  organiserPaymentSettings,
  organisers,
  questionIntros,
  saleLines,
  sales,
  saleVouchers,
  ticketQuestions,
  ticketTypes,
  users,
} from '../../db/schema.ts';
import type { SaleSeat } from '../seats.ts';

type Row<T extends Table> = T['$inferSelect'];

/** A ticket line with what it is for. */
export interface BasketLine {
  line: Row<typeof saleLines>;
  type: Row<typeof ticketTypes>;
  date: Row<typeof eventDates>;
  event: Row<typeof events>;
  organiser: Row<typeof organisers>;
}

/** A gift-voucher line with its voucher and the voucher's organiser. */
export interface BasketVoucher {
  line: Row<typeof saleVouchers>;
  voucher: Row<typeof giftVouchers>;
  organiser: Row<typeof organisers>;
}

/** Another event of a basket organiser, on one of its future dates. */
export interface UpcomingDate {
  event: Row<typeof events>;
  startsAt: Date;
}

export interface CheckoutSnapshot {
  sale: Row<typeof sales>;
  /** In display order: by date, then the type's sort order. */
  lines: BasketLine[];
  vouchers: BasketVoucher[];
  code: Row<typeof discountCodes> | null;
  /** The signed-in user, when there is one. */
  user: Row<typeof users> | null;
  /** Soonest first. */
  upcoming: UpcomingDate[];
  /** The charities of the basket organisers. */
  charities: Row<typeof charities>[];
  /** How many of the basket's events post their tickets. */
  postalEvents: number;
  /** The basket types' questions, in display order. */
  questions: Row<typeof ticketQuestions>[];
  /** The question intros of the basket's events and their organisers. */
  intros: Row<typeof questionIntros>[];
  seats: SaleSeat[];
  /** The basket organisers' payment settings. */
  paymentSettings: Row<typeof organiserPaymentSettings>[];
  /** The payment plans the basket's events offer, by option. */
  plans: Row<typeof eventPaymentPlans>[];
}

type Json = Record<string, unknown>;

/** The function's answer as JSON: each row whole (`to_json(row)`), null for an empty list. */
export interface SnapshotJson {
  sale: Json | null;
  lines: [Json, Json, Json, Json, Json][] | null;
  vouchers: [Json, Json, Json][] | null;
  code: Json | null;
  user: Json | null;
  upcoming: [Json, string][] | null;
  charities: Json[] | null;
  postal_events: number;
  questions: Json[] | null;
  intros: Json[] | null;
  seats: SaleSeat[] | null;
  payment_settings: Json[] | null;
  plans: Json[] | null;
}

/**
 * Everything the checkout shows, in one round trip and one snapshot, so the lines, the sale and
 * its hold cannot disagree with each other; null when the sale is gone. The statement lives in the
 * database so that its plan is prepared once per session, and the call to it is a prepared
 * statement, parsed once per connection: it is the call every step repeats.
 */
export async function readCheckoutSnapshot(
  db: Pick<Database, 'execute'>,
  saleId: string,
  userId: number | null,
  now: Date,
): Promise<CheckoutSnapshot | null> {
  const [result] = await preparedRows<{ snapshot: SnapshotJson }>(
    db,
    'checkout_snapshot',
    'SELECT checkout_snapshot($1, $2::int, $3::timestamptz) AS snapshot',
    [saleId, userId, now.toISOString()],
  );
  return snapshotOf(result!.snapshot);
}

/** The function's JSON as table rows. */
export function snapshotOf(found: SnapshotJson): CheckoutSnapshot | null {
  if (!found.sale) return null;
  return {
    sale: fromJson(sales, found.sale),
    lines: (found.lines ?? []).map(([line, type, date, event, organiser]) => ({
      line: fromJson(saleLines, line),
      type: fromJson(ticketTypes, type),
      date: fromJson(eventDates, date),
      event: fromJson(events, event),
      organiser: fromJson(organisers, organiser),
    })),
    vouchers: (found.vouchers ?? []).map(([line, voucher, organiser]) => ({
      line: fromJson(saleVouchers, line),
      voucher: fromJson(giftVouchers, voucher),
      organiser: fromJson(organisers, organiser),
    })),
    code: found.code ? fromJson(discountCodes, found.code) : null,
    user: found.user ? fromJson(users, found.user) : null,
    upcoming: (found.upcoming ?? []).map(([event, startsAt]) => ({
      event: fromJson(events, event),
      startsAt: new Date(startsAt),
    })),
    charities: (found.charities ?? []).map((c) => fromJson(charities, c)),
    postalEvents: Number(found.postal_events ?? 0),
    questions: (found.questions ?? []).map((q) => fromJson(ticketQuestions, q)),
    intros: (found.intros ?? []).map((i) => fromJson(questionIntros, i)),
    seats: found.seats ?? [],
    paymentSettings: (found.payment_settings ?? []).map((r) => fromJson(organiserPaymentSettings, r)),
    plans: (found.plans ?? []).map((r) => fromJson(eventPaymentPlans, r)),
  };
}

/** Each table's columns as [property, column] pairs, worked out once per table rather than per read. */
const columnsByTable = new WeakMap<Table, [string, Column][]>();
function columnsOf(table: Table): [string, Column][] {
  let columns = columnsByTable.get(table);
  if (!columns) columnsByTable.set(table, (columns = Object.entries(getTableColumns(table))));
  return columns;
}

/**
 * A row that came back as `to_json(alias)`, turned into what a Drizzle select of the table
 * returns: property names, and each value through its column's own driver mapping (so
 * timestamps become Dates exactly as they do in a select).
 */
function fromJson<T extends Table>(table: T, json: Json): Row<T> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of columnsOf(table)) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as Row<T>;
}
