/**
 * How admission moves on, as a pure rule over the queue's shared row: at the configured rate, never
 * more shoppers at once than the organiser allows, never more than are waiting, and never more at one
 * step than there are tickets left. When the stock left is covered by sales and live holds, the
 * queue is sold out and admits no one; it opens again as soon as expired holds free tickets.
 */
import type { AdmissionMarks } from '../../db/schema.ts';

export interface QueueSettings {
  onSaleAt: Date;
  maxShoppers: number;
  admitPerMinute: number;
  admissionSeconds: number;
  pollSeconds: number;
  /** Paused by the organiser: nobody more is let in until it resumes. */
  paused?: boolean;
}

export interface QueueCounters {
  joined: number;
  drawn: boolean;
  admittedThrough: number;
  credit: number;
  soldOut: boolean;
  marks: AdmissionMarks;
  steppedAt: Date | null;
}

export type QueueRow = QueueSettings & QueueCounters & { eventDateId: number; version: number };

/** At most this long since the last step counts: a queue nobody asked about for a while does not rush in a crowd. */
export const MAX_STEP_SECONDS = 60;
/** Admission is noted this often, to count who is shopping and to measure the real rate. */
export const MARK_EVERY_SECONDS = 5;
/** Admission moves on at most once a second, whichever process gets there first. */
export const STEP_EVERY_MS = 1000;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** How many had been admitted at `at` (epoch seconds), by the marks. */
export function admittedAt(marks: AdmissionMarks, at: number): number {
  let found = 0;
  for (const [t, through] of marks) {
    if (t > at) break;
    found = through;
  }
  return found;
}

export function dueForStep(row: Pick<QueueRow, 'onSaleAt' | 'steppedAt'>, now: Date): boolean {
  if (now < row.onSaleAt) return false;
  return row.steppedAt === null || now.getTime() - row.steppedAt.getTime() >= STEP_EVERY_MS;
}

/**
 * Who has been let in and may still take tickets: admitted, not yet reserved, and their turn not
 * ended. They count against the shoppers allowed, and each against the tickets left (one each: a
 * buyer may take more, but counting each at the most an order may hold would let one in at a time).
 */
export interface Shopping {
  /** Admitted buyers still shopping. */
  shoppers: number;
}

/**
 * The counters after one step at `now`, given how many tickets one buyer could still get
 * (`available`) and who is still shopping (by default, everyone let in within the last
 * `admission_seconds`, by the marks).
 */
export function step(
  row: QueueRow,
  available: number,
  now: Date,
  shopping?: Shopping,
): Pick<QueueCounters, 'admittedThrough' | 'credit' | 'soldOut' | 'marks' | 'steppedAt'> {
  const from = row.steppedAt && row.steppedAt > row.onSaleAt ? row.steppedAt : row.onSaleAt;
  const elapsed = Math.min(MAX_STEP_SECONDS, Math.max(0, (now.getTime() - from.getTime()) / 1000));
  const perSecond = row.admitPerMinute / 60;
  const soldOut = available <= 0;
  const nowSeconds = seconds(now);
  const credit = row.credit + perSecond * elapsed;
  const shoppers = shopping
    ? shopping.shoppers
    : row.admittedThrough - admittedAt(row.marks, nowSeconds - row.admissionSeconds);
  const room = Math.max(0, row.maxShoppers - shoppers);
  const waiting = Math.max(0, row.joined - row.admittedThrough);
  // Tickets already promised to buyers let in who have not reserved are not there for the next.
  const servable = shopping ? available - shopping.shoppers : available;
  const admit = soldOut || row.paused ? 0 : Math.max(0, Math.min(Math.floor(credit), room, waiting, servable));
  const admittedThrough = row.admittedThrough + admit;
  // What was not used carries over, up to a second's worth: no burst after a quiet spell.
  const carried = soldOut || row.paused ? 0 : Math.min(credit - admit, Math.max(1, perSecond));

  const marks: AdmissionMarks = [...row.marks];
  const last = marks.at(-1);
  if (!last || nowSeconds - last[0] >= MARK_EVERY_SECONDS) marks.push([nowSeconds, admittedThrough]);
  else marks[marks.length - 1] = [last[0], admittedThrough];
  // Keep one mark at or before the start of the admission window (and of the rate's window).
  const keepFrom = nowSeconds - Math.max(row.admissionSeconds, RATE_WINDOW_SECONDS);
  while (marks.length > 1 && marks[1]![0] <= keepFrom) marks.shift();
  return { admittedThrough, credit: carried, soldOut, marks, steppedAt: now };
}

/** The rate is measured over the last two minutes of admission. */
export const RATE_WINDOW_SECONDS = 120;

/**
 * The rate last worked out for each row, kept for the second it was worked out in and for the
 * marks, count and setting it was worked out from: every poll of a queue asks it, and the queue's
 * row changes at most once a second.
 */
const rates = new WeakMap<
  object,
  { at: number; marks: AdmissionMarks; through: number; perMinute: number; rate: number }
>();

/** Buyers admitted per second lately, or the configured rate before there is enough to measure. */
export function measuredRate(
  row: Pick<QueueRow, 'marks' | 'admitPerMinute' | 'admittedThrough' | 'steppedAt'>,
  now: Date,
): number {
  const nowSeconds = seconds(now);
  const kept = rates.get(row);
  if (
    kept &&
    kept.at === nowSeconds &&
    kept.marks === row.marks &&
    kept.through === row.admittedThrough &&
    kept.perMinute === row.admitPerMinute
  )
    return kept.rate;
  const rate = rateAt(row, nowSeconds);
  rates.set(row, {
    at: nowSeconds,
    marks: row.marks,
    through: row.admittedThrough,
    perMinute: row.admitPerMinute,
    rate,
  });
  return rate;
}

function rateAt(
  row: Pick<QueueRow, 'marks' | 'admitPerMinute' | 'admittedThrough' | 'steppedAt'>,
  nowSeconds: number,
): number {
  const configured = row.admitPerMinute / 60;
  const first = row.marks.find(([t]) => t >= nowSeconds - RATE_WINDOW_SECONDS);
  const last = row.marks.at(-1);
  if (!first || !last || last[0] - first[0] < 10) return configured;
  const span = nowSeconds - first[0];
  const rate = (row.admittedThrough - admittedAt(row.marks, first[0])) / Math.max(1, span);
  return Math.min(configured, Math.max(rate, configured / 20));
}

/** How often a waiting page should ask again: at the front every `pollSeconds`, further back less often. */
export function pollMs(pollSeconds: number, ahead: number, perSecond: number): number {
  const base = pollSeconds * 1000;
  const untilFront = perSecond > 0 ? (ahead / perSecond) * 1000 : Infinity;
  return Math.round(Math.min(60_000, Math.max(base, untilFront / 4)));
}
