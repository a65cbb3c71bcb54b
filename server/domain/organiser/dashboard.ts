/**
 * The console's live figures for one date's on-sale: queue length, admitted in the last minute,
 * buyers shopping, tickets held and sold, and when it sold out; and their recent history, sampled
 * into `on_sale_samples` at most every few seconds while someone watches.
 */
import { sql } from 'drizzle-orm';
import { rows, type Database } from '../../db/index.ts';
import { admittedAt } from '../waitingRoom/admission.ts';
import type { ConsoleDate } from './console.ts';

export const SAMPLE_EVERY_MS = 3000;
/** The chart's span. */
export const HISTORY_MS = 10 * 60_000;

export interface Figures {
  state: 'no-on-sale' | 'before-sale' | 'open' | 'paused' | 'sold-out';
  /** Buyers in the queue not let in yet. */
  waiting: number;
  admittedLastMinute: number;
  /** Buyers let in whose time to buy has not ended and who have not reserved. */
  shoppers: number;
  held: number;
  sold: number;
  capacity: number;
  soldOutAt: Date | null;
  admitPerMinute: number | null;
  message: string | null;
}

export interface Sample {
  at: Date;
  waiting: number;
  admittedThrough: number;
  shoppers: number;
  held: number;
  sold: number;
}

export async function figuresOf(db: Database, date: ConsoleDate, now: Date): Promise<Figures> {
  const iso = now.toISOString();
  const [stock] = await rows<{ capacity: number; sold: number; held: number; sold_out_at: string | Date | null }>(
    db,
    sql`SELECT p.capacity, p.sold,
          COALESCE((SELECT sum(h.qty) FROM holds h WHERE h.pool_id = p.id AND h.deadline > ${iso}::timestamptz), 0)::int AS held,
          CASE WHEN p.sold >= p.capacity THEN (
            SELECT max(s.paid_at) FROM sales s WHERE s.paid_at IS NOT NULL AND EXISTS (
              SELECT 1 FROM sale_lines l JOIN ticket_types t ON t.id = l.ticket_type_id WHERE l.sale_id = s.id AND t.event_date_id = ${date.dateId}))
          END AS sold_out_at
        FROM capacity_pools p WHERE p.id = ${date.poolId}`,
  );
  const capacity = Number(stock?.capacity ?? 0);
  const sold = Number(stock?.sold ?? 0);
  const held = Number(stock?.held ?? 0);
  const soldOutAt = stock?.sold_out_at ? new Date(stock.sold_out_at) : null;
  const q = date.queue;
  if (!q)
    return {
      state: 'no-on-sale',
      waiting: 0,
      admittedLastMinute: 0,
      shoppers: 0,
      held,
      sold,
      capacity,
      soldOutAt,
      admitPerMinute: null,
      message: null,
    };
  const [shopping] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM queue_places
        WHERE event_date_id = ${date.dateId} AND admitted_at > ${new Date(now.getTime() - q.admissionSeconds * 1000).toISOString()}::timestamptz AND sale_id IS NULL`,
  );
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const state =
    sold >= capacity || q.soldOut ? 'sold-out' : now < q.onSaleAt ? 'before-sale' : q.paused ? 'paused' : 'open';
  return {
    state,
    waiting: Math.max(0, q.joined - q.admittedThrough),
    admittedLastMinute: Math.max(0, q.admittedThrough - admittedAt(q.marks, nowSeconds - 60)),
    shoppers: Number(shopping?.n ?? 0),
    held,
    sold,
    capacity,
    soldOutAt,
    admitPerMinute: q.admitPerMinute,
    message: q.message,
  };
}

/**
 * Notes the figures as a sample when the date's last is older than SAMPLE_EVERY_MS (one
 * conditional insert, so processes watching at once write one), and answers the last HISTORY_MS.
 */
export async function sampleAndHistory(
  db: Database,
  date: ConsoleDate,
  figures: Figures,
  now: Date,
): Promise<Sample[]> {
  if (date.queue) {
    const since = new Date(now.getTime() - SAMPLE_EVERY_MS).toISOString();
    await db.execute(
      sql`INSERT INTO on_sale_samples (event_date_id, at, waiting, admitted_through, shoppers, held, sold)
          SELECT ${date.dateId}, ${now.toISOString()}::timestamptz, ${figures.waiting}, ${date.queue.admittedThrough}, ${figures.shoppers}, ${figures.held}, ${figures.sold}
          WHERE NOT EXISTS (SELECT 1 FROM on_sale_samples WHERE event_date_id = ${date.dateId} AND at > ${since}::timestamptz AND at <= ${now.toISOString()}::timestamptz)`,
    );
    // What is older than the chart shows is no longer needed.
    await db.execute(
      sql`DELETE FROM on_sale_samples WHERE event_date_id = ${date.dateId} AND at < ${new Date(now.getTime() - 2 * HISTORY_MS).toISOString()}::timestamptz`,
    );
  }
  const found = await rows<{
    at: string | Date;
    waiting: number;
    admitted_through: number;
    shoppers: number;
    held: number;
    sold: number;
  }>(
    db,
    sql`SELECT at, waiting, admitted_through, shoppers, held, sold FROM on_sale_samples
        WHERE event_date_id = ${date.dateId} AND at > ${new Date(now.getTime() - HISTORY_MS).toISOString()}::timestamptz AND at <= ${now.toISOString()}::timestamptz
        ORDER BY at`,
  );
  const history = found.map((r) => ({
    at: new Date(r.at),
    waiting: Number(r.waiting),
    admittedThrough: Number(r.admitted_through),
    shoppers: Number(r.shoppers),
    held: Number(r.held),
    sold: Number(r.sold),
  }));
  // The chart ends with what the figures say now, whether or not this moment was kept as a sample.
  if (date.queue && history.at(-1)?.at.getTime() !== now.getTime()) {
    history.push({
      at: now,
      waiting: figures.waiting,
      admittedThrough: date.queue.admittedThrough,
      shoppers: figures.shoppers,
      held: figures.held,
      sold: figures.sold,
    });
  }
  return history;
}
