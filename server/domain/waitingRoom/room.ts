/**
 * The waiting room of every queued event date, as one process sees it. The shared row of each queue
 * is read at most once a second per process (however many buyers poll), and whichever process finds
 * admission due moves it on with one conditional update (`version`), so several processes share one
 * queue through the database and a poll costs no database work of its own.
 */
import { and, eq, sql } from 'drizzle-orm';
import { rows, type Database, type Executor } from '../../db/index.ts';
import { eventDateQueues } from '../../db/schema.ts';
import { poolAvailability } from '../stock.ts';
import { admittedAt, dueForStep, measuredRate, pollMs, step, STEP_EVERY_MS, type QueueRow } from './admission.ts';
import type { Place } from './tokens.ts';

export interface QueuedType {
  id: number;
  name: string;
  poolId: number | null;
}

export interface QueuedDate {
  row: QueueRow;
  eventId: number;
  title: string;
  poolId: number;
  /** How many places one client address may take. */
  placesPerAddress: number;
  /** Whether only signed-in buyers may join, one place per account. */
  signInToQueue: boolean;
  types: QueuedType[];
  /** The organiser's message to every waiting buyer, or null. */
  message: string | null;
}

/** What a waiting buyer is told (the wire shape is contract/waitingRoom.ts). */
export type QueueView =
  | { state: 'before-sale'; opensInSeconds: number; pollMs: number }
  | { state: 'waiting'; position: number; ahead: number; waitSeconds: number; progress: number; pollMs: number }
  | { state: 'admitted'; pollMs: number }
  | { state: 'sold-out'; pollMs: number }
  /** The place's admission has ended: the place is spent. */
  | { state: 'ended'; pollMs: number };

export class WaitingRooms {
  private dates = new Map<number, QueuedDate>();
  private byEvent = new Map<number, number[]>();
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;
  /** Whether any waiting list has an entry still to offer, as of the last read (or a join since in this process). */
  private listed = false;

  constructor(
    private readonly db: Database,
    private readonly clock: () => Date,
  ) {}

  /** The queued dates, read again when the last read is a second old (one read shared by every caller). */
  async current(): Promise<Map<number, QueuedDate>> {
    const now = this.clock().getTime();
    if (now - this.readAt >= STEP_EVERY_MS || now < this.readAt) {
      this.reading ??= this.read().finally(() => {
        this.reading = null;
      });
      await this.reading;
    }
    return this.dates;
  }

  async date(dateId: number): Promise<QueuedDate | null> {
    return (await this.current()).get(dateId) ?? null;
  }

  /**
   * The queued date as last read, while that read is current (no read is due): what `date` would
   * answer, without waiting. Undefined when a read is due, so the caller asks `date`.
   */
  dateNow(dateId: number): QueuedDate | null | undefined {
    const now = this.clock().getTime();
    if (now - this.readAt >= STEP_EVERY_MS || now < this.readAt) return undefined;
    return this.dates.get(dateId) ?? null;
  }

  async datesOfEvent(eventId: number): Promise<number[]> {
    await this.current();
    return this.byEvent.get(eventId) ?? [];
  }

  /** Reads every queue's row again now (after a change this process made). */
  async refresh(): Promise<void> {
    this.readAt = -Infinity;
    await this.current();
  }

  /**
   * Whether any waiting list may have an entry still to offer: read with the queues once a second,
   * and true at once in the process that takes a join. Stock-taking routes give freed stock to the
   * lists first only then, so a checkout with no one waiting pays nothing for it.
   */
  async waitingListed(): Promise<boolean> {
    await this.current();
    return this.listed;
  }

  /** A join was taken here: the lists have an entry, whatever the last read found. */
  markListed(): void {
    this.listed = true;
  }

  private async read(): Promise<void> {
    const now = this.clock();
    const [listed] = await rows<{ pending: boolean }>(
      this.db,
      sql`SELECT EXISTS (SELECT 1 FROM waiting_list_entries WHERE offered_at IS NULL AND left_at IS NULL AND removed_at IS NULL) AS pending`,
    );
    this.listed = listed?.pending === true;
    let found = await readQueues(this.db);
    const due = [...found.values()].filter((d) => dueForStep(d.row, now));
    if (due.length > 0) {
      await Promise.all(due.map((d) => moveOn(this.db, d, now)));
      found = await readQueues(this.db);
    }
    this.dates = found;
    this.byEvent = new Map();
    for (const d of found.values())
      this.byEvent.set(d.eventId, [...(this.byEvent.get(d.eventId) ?? []), d.row.eventDateId]);
    this.readAt = now.getTime();
  }

  /** What the holder of `place` is told now; `place.number` is 0 only before the draw. */
  view(date: QueuedDate, place: Pick<Place, 'number' | 'startedAt' | 'admittedUntil'>): QueueView {
    const now = this.clock();
    const { row } = date;
    if (place.admittedUntil > 0 && place.admittedUntil * 1000 <= now.getTime())
      return { state: 'ended', pollMs: 60_000 };
    if (now < row.onSaleAt || !row.drawn || place.number === 0) {
      const opensIn = Math.max(0, Math.ceil((row.onSaleAt.getTime() - now.getTime()) / 1000));
      return {
        state: 'before-sale',
        opensInSeconds: opensIn,
        pollMs: Math.max(1000, Math.min(opensIn * 1000, row.pollSeconds * 1000 * 3)),
      };
    }
    if (place.number <= row.admittedThrough) return { state: 'admitted', pollMs: row.pollSeconds * 1000 };
    const perSecond = measuredRate(row, now);
    if (row.soldOut) return { state: 'sold-out', pollMs: row.pollSeconds * 1000 * 2 };
    const ahead = place.number - row.admittedThrough - 1;
    const span = Math.max(1, place.number - place.startedAt);
    return {
      state: 'waiting',
      position: ahead + 1,
      ahead,
      waitSeconds: Math.ceil((ahead + 1) / perSecond),
      progress: Math.min(1, Math.max(0, (place.number - place.startedAt - ahead - 1) / span)),
      pollMs: pollMs(row.pollSeconds, ahead, perSecond),
    };
  }
}

type QueueDbRow = {
  event_date_id: number;
  on_sale_at: string | Date;
  max_shoppers: number;
  admit_per_minute: number;
  admission_seconds: number;
  poll_seconds: number;
  places_per_address: number;
  sign_in_to_queue: boolean;
  joined: string | number;
  drawn: boolean;
  admitted_through: string | number;
  credit: number;
  sold_out: boolean;
  marks: QueueRow['marks'] | string;
  stepped_at: string | Date | null;
  version: number;
  paused: boolean;
  message: string | null;
  event_id: number;
  title: string;
  pool_id: number;
  types: QueuedType[] | string;
};

async function readQueues(db: Pick<Executor, 'execute'>): Promise<Map<number, QueuedDate>> {
  const found = await rows<QueueDbRow>(
    db,
    sql`SELECT q.*, d.event_id, d.pool_id, e.title,
          (SELECT COALESCE(json_agg(json_build_object('id', t.id, 'name', t.name, 'poolId', t.pool_id) ORDER BY t.sort_order, t.id), '[]'::json)
           FROM ticket_types t WHERE t.event_date_id = q.event_date_id) AS types
        FROM event_date_queues q JOIN event_dates d ON d.id = q.event_date_id JOIN events e ON e.id = d.event_id`,
  );
  const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  return new Map(
    found.map((r) => [
      Number(r.event_date_id),
      {
        eventId: Number(r.event_id),
        title: r.title,
        poolId: Number(r.pool_id),
        placesPerAddress: Number(r.places_per_address),
        signInToQueue: r.sign_in_to_queue === true,
        types: json(r.types),
        message: r.message ?? null,
        row: {
          eventDateId: Number(r.event_date_id),
          onSaleAt: new Date(r.on_sale_at),
          maxShoppers: Number(r.max_shoppers),
          admitPerMinute: Number(r.admit_per_minute),
          admissionSeconds: Number(r.admission_seconds),
          pollSeconds: Number(r.poll_seconds),
          joined: Number(r.joined),
          drawn: r.drawn,
          admittedThrough: Number(r.admitted_through),
          credit: Number(r.credit),
          soldOut: r.sold_out,
          marks: json(r.marks),
          steppedAt: r.stepped_at === null ? null : new Date(r.stepped_at),
          version: Number(r.version),
          paused: r.paused === true,
        },
      },
    ]),
  );
}

/** The most tickets one buyer could still get on this date: sales and live holds taken off each pool. */
export async function ticketsLeft(
  db: Pick<Executor, 'execute'>,
  date: Pick<QueuedDate, 'poolId' | 'types'>,
  now: Date,
): Promise<number> {
  const pools = [date.poolId, ...date.types.flatMap((t) => (t.poolId ? [t.poolId] : []))];
  const left = await poolAvailability(db, pools, now);
  const dateLeft = left.get(date.poolId) ?? 0;
  if (date.types.length === 0) return 0;
  return Math.max(0, ...date.types.map((t) => Math.min(dateLeft, t.poolId ? (left.get(t.poolId) ?? 0) : Infinity)));
}

/**
 * One step of admission for a queue, if no other process has taken it: at the on-sale first the
 * draw, which numbers the early arrivals in a random order, then the admission rule.
 */
async function moveOn(db: Database, date: QueuedDate, now: Date): Promise<void> {
  const { row } = date;
  if (!row.drawn) await draw(db, row.eventDateId);
  const available = await ticketsLeft(db, date, now);
  const [fresh] = await db
    .select({ joined: eventDateQueues.joined, drawn: eventDateQueues.drawn })
    .from(eventDateQueues)
    .where(eq(eventDateQueues.eventDateId, row.eventDateId));
  if (!fresh) return;
  const next = step({ ...row, joined: fresh.joined }, available, now, { shoppers: await stillShopping(db, row, now) });
  await db
    .update(eventDateQueues)
    .set({ ...next, version: sql`${eventDateQueues.version} + 1` })
    .where(and(eq(eventDateQueues.eventDateId, row.eventDateId), eq(eventDateQueues.version, row.version)));
}

/**
 * How many buyers let in may still take tickets: admitted (by number), not reserved, and their turn
 * not ended. A turn ends `admission_seconds` after it was first handed out; one never handed out (the
 * buyer has not come back to the page) counts for `admission_seconds` after admission reached it.
 */
export async function stillShopping(
  db: Pick<Executor, 'execute'>,
  row: Pick<QueueRow, 'eventDateId' | 'admittedThrough' | 'admissionSeconds' | 'marks'>,
  now: Date,
): Promise<number> {
  const windowStart = admittedAt(row.marks, Math.floor(now.getTime() / 1000) - row.admissionSeconds);
  const since = new Date(now.getTime() - row.admissionSeconds * 1000).toISOString();
  const [found] = await rows<{ n: number | string }>(
    db,
    sql`SELECT count(*) AS n FROM queue_places
        WHERE event_date_id = ${row.eventDateId} AND sale_id IS NULL AND number <= ${row.admittedThrough}
          AND (admitted_at > ${since}::timestamptz OR (admitted_at IS NULL AND number > ${windowStart}))`,
  );
  return Number(found?.n ?? 0);
}

/**
 * Numbers the places taken before the on-sale, 1 to n in a random order. Marking the queue drawn
 * first waits for every join in flight (each holds the queue's row until it commits), so the
 * second statement sees them all; every later join is numbered in order of arrival.
 */
export async function draw(db: Database, dateId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [marked] = await rows<{ joined: number }>(
      tx,
      sql`UPDATE event_date_queues SET drawn = true WHERE event_date_id = ${dateId} AND NOT drawn RETURNING joined`,
    );
    if (!marked) return;
    await tx.execute(
      sql`UPDATE queue_places p SET number = r.n
          FROM (SELECT id, row_number() OVER (ORDER BY draw, id) AS n FROM queue_places WHERE event_date_id = ${dateId} AND number IS NULL) r
          WHERE p.id = r.id`,
    );
  });
}

/**
 * A new place in a queue: one statement, counted on the queue's row. Numbered at once after the draw.
 * Null when the client address already has as many places as the queue allows (`places_per_address`).
 */
export async function joinAs(
  db: Pick<Executor, 'execute'>,
  dateId: number,
  now: Date,
  by: { ip?: string | null; userId?: number | null } = {},
): Promise<{ placeId: number; number: number; startedAt: number } | null> {
  const ip = by.ip ?? null;
  const [row] = await rows<{ id: number; number: string | number | null; started: string | number }>(
    db,
    sql`WITH q AS (
          UPDATE event_date_queues SET joined = joined + 1 WHERE event_date_id = ${dateId}
            AND (${ip}::text IS NULL OR (SELECT count(*) FROM queue_places WHERE event_date_id = ${dateId} AND client_ip = ${ip}::text) < places_per_address)
          RETURNING joined, drawn, admitted_through
        )
        INSERT INTO queue_places (event_date_id, number, draw, joined_at, client_ip, user_id)
        SELECT ${dateId}, CASE WHEN q.drawn THEN q.joined END, random(), ${now.toISOString()}::timestamptz, ${ip}::text, ${by.userId ?? null}::int FROM q
        RETURNING id, number, (SELECT admitted_through FROM q) AS started`,
  );
  if (!row) return null;
  return {
    placeId: Number(row.id),
    number: row.number === null ? 0 : Number(row.number),
    startedAt: row.number === null ? 0 : Number(row.started),
  };
}

/** A new place, whatever the client address (tests and benchmarks placing buyers in bulk). */
export async function join(
  db: Pick<Executor, 'execute'>,
  dateId: number,
  now: Date,
): Promise<{ placeId: number; number: number; startedAt: number }> {
  const placed = await joinAs(db, dateId, now);
  if (!placed) throw new Error(`Event date ${dateId} has no queue`);
  return placed;
}

/** The account's latest place in a queue (when the queue gives one place per account): its id, number and first admission. */
export async function placeOfAccount(
  db: Pick<Executor, 'execute'>,
  dateId: number,
  userId: number,
): Promise<{ placeId: number; number: number; admittedAt: Date | null } | null> {
  const [row] = await rows<{ id: number; number: string | number | null; admitted_at: string | Date | null }>(
    db,
    sql`SELECT id, number, admitted_at FROM queue_places WHERE event_date_id = ${dateId} AND user_id = ${userId} ORDER BY id DESC LIMIT 1`,
  );
  if (!row) return null;
  return {
    placeId: Number(row.id),
    number: row.number === null ? 0 : Number(row.number),
    admittedAt: row.admitted_at ? new Date(row.admitted_at) : null,
  };
}

/** The number the draw gave an early place (0 while it has none). */
export async function numberOf(db: Pick<Executor, 'execute'>, placeId: number, dateId: number): Promise<number> {
  const [row] = await rows<{ number: string | number | null }>(
    db,
    sql`SELECT number FROM queue_places WHERE id = ${placeId} AND event_date_id = ${dateId}`,
  );
  return row?.number == null ? 0 : Number(row.number);
}

/**
 * When the place's admission was first handed out: set now if it never was (one conditional
 * statement, so two requests racing for it agree), otherwise the time set then. Null when the place
 * is gone (a queue started again).
 */
export async function admitOnce(
  db: Pick<Executor, 'execute'>,
  placeId: number,
  dateId: number,
  now: Date,
): Promise<Date | null> {
  const [set] = await rows<{ admitted_at: string | Date }>(
    db,
    sql`UPDATE queue_places SET admitted_at = ${now.toISOString()}::timestamptz WHERE id = ${placeId} AND event_date_id = ${dateId} AND admitted_at IS NULL RETURNING admitted_at`,
  );
  if (set) return new Date(set.admitted_at);
  const [found] = await rows<{ admitted_at: string | Date | null }>(
    db,
    sql`SELECT admitted_at FROM queue_places WHERE id = ${placeId} AND event_date_id = ${dateId}`,
  );
  return found?.admitted_at ? new Date(found.admitted_at) : null;
}

/** Ends a place's turn now (the buyer left): it counts among the shoppers no more, and is spent. */
export async function endTurn(
  db: Pick<Executor, 'execute'>,
  placeId: number,
  dateId: number,
  now: Date,
  admissionSeconds: number,
): Promise<void> {
  const ended = new Date(now.getTime() - admissionSeconds * 1000).toISOString();
  await db.execute(
    sql`UPDATE queue_places SET admitted_at = LEAST(COALESCE(admitted_at, ${ended}::timestamptz), ${ended}::timestamptz) WHERE id = ${placeId} AND event_date_id = ${dateId}`,
  );
}

/**
 * Records that the place's admission reserves `saleId`: true when it does (the first sale to ask, or
 * the same one again), false when another sale has it already. One conditional statement.
 */
export async function useAdmissionFor(
  db: Pick<Executor, 'execute'>,
  placeId: number,
  dateId: number,
  saleId: string,
): Promise<boolean> {
  const [used] = await rows<{ id: number }>(
    db,
    sql`UPDATE queue_places SET sale_id = ${saleId}
        WHERE id = ${placeId} AND event_date_id = ${dateId} AND admitted_at IS NOT NULL AND (sale_id IS NULL OR sale_id = ${saleId})
        RETURNING id`,
  );
  return used !== undefined;
}

/**
 * The queued dates among `dateIds` whose tickets the sale has, each with whether the sale is held
 * at `now` (a sale already held carries on without spending an admission).
 */
export function queuedDatesOfSale(
  db: Pick<Executor, 'execute'>,
  saleId: string,
  dateIds: number[],
  now: Date,
): Promise<{ event_date_id: number; held: boolean }[]> {
  return rows<{ event_date_id: number; held: boolean }>(
    db,
    sql`SELECT DISTINCT t.event_date_id, COALESCE(s.hold_deadline > ${now.toISOString()}::timestamptz, false) AS held
        FROM sale_lines l JOIN ticket_types t ON t.id = l.ticket_type_id JOIN sales s ON s.id = l.sale_id
        WHERE l.sale_id = ${saleId} AND t.event_date_id IN (${sql.join(
          dateIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
}

/** How many dates the event has, queued or not. */
export async function eventDateCount(db: Pick<Executor, 'execute'>, eventId: number): Promise<number> {
  const [dates] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM event_dates WHERE event_id = ${eventId}`,
  );
  return Number(dates?.n ?? 0);
}

/** The numbers the draw gave these places of the date (null for one it has not numbered), in one read. */
export function numbersOfPlaces(
  db: Pick<Executor, 'execute'>,
  dateId: number,
  placeIds: number[],
): Promise<{ id: number; number: string | number | null }[]> {
  return rows<{ id: number; number: string | number | null }>(
    db,
    sql`SELECT id, number FROM queue_places WHERE event_date_id = ${dateId} AND id IN (${sql.join(
      placeIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
}
