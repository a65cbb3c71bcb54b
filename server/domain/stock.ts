/**
 * Stock: holds against capacity pools.
 *
 * Each pool keeps `held`, the sum of its hold rows, changed in the same transaction as the rows.
 * A hold stops counting the instant its deadline passes: a claim first releases its pool's expired
 * holds (found through the index on pool and deadline, under the pool's row lock, so each is
 * released exactly once) and then checks `sold + held` against capacity. A claim therefore costs
 * the same with ten live holds in its pool or fifty thousand, and the database refuses a pool whose
 * `sold + held` would pass its capacity (a check constraint), whatever the code does.
 *
 * Pools are locked in ascending id order by every path that changes them, so none deadlock.
 */
import { sql } from 'drizzle-orm';
import { preparedRows, rows, type Executor } from '../db/index.ts';
import { releaseSaleSeats } from './seats.ts';

type Exec = Pick<Executor, 'execute'>;

/** What is left in each pool at `now` (advisory: the claim at reservation is what counts). */
export async function poolAvailability(db: Exec, poolIds: number[], now: Date): Promise<Map<number, number>> {
  if (poolIds.length === 0) return new Map();
  const result = await rows<{ id: number; available: number }>(
    db,
    sql`SELECT p.id, (p.capacity - p.sold - p.held + COALESCE((
          SELECT sum(h.qty) FROM holds h WHERE h.pool_id = p.id AND h.deadline <= ${now.toISOString()}::timestamptz
        ), 0))::int AS available
        FROM capacity_pools p WHERE p.id IN (${sql.join(
          poolIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  return new Map(result.map((r) => [Number(r.id), Number(r.available)]));
}

/**
 * Claims `qty` from a pool for a sale in one statement (the database function `claim_hold`):
 * releases the pool's expired holds, then adds the claim when `sold + held` stays within capacity.
 * Callers hold the pool's row lock.
 */
export async function claimHold(
  tx: Exec,
  claim: { saleId: string; poolId: number; ticketTypeId: number; qty: number; deadline: Date; now: Date },
): Promise<boolean> {
  const [row] = await rows<{ ok: boolean }>(
    tx,
    sql`SELECT claim_hold(${claim.saleId}, ${claim.poolId}::int, ${claim.ticketTypeId}::int, ${claim.qty}::int, ${claim.deadline.toISOString()}::timestamptz, ${claim.now.toISOString()}::timestamptz) AS ok`,
  );
  return row?.ok === true;
}

export interface ReserveVerdict {
  refused: null | 'buyer-limit' | 'code';
  /** Ticket types whose claim found too little left. */
  unavailable: number[];
}

export interface ReserveClaims {
  saleId: string;
  now: Date;
  deadline: Date;
  pools: number[];
  claims: { pool: number; type: number; qty: number }[];
  buyerKeys: string[];
  wanted: Map<number, number>;
  cap: number | null;
  codeId: number | null;
  /** The sale's new reference and its buyer, written first. */
  reference: string;
  buyerIp: string | null;
  userId: number | null;
}

/** The arguments both reservation functions take after their own, in their order. */
function claimArgs(r: Omit<ReserveClaims, 'saleId' | 'now' | 'deadline' | 'codeId'>) {
  const pools = `{${[...new Set(r.pools)].sort((a, b) => a - b).join(',')}}`;
  const keys = `{${r.buyerKeys.map((k) => JSON.stringify(k)).join(',')}}`;
  return sql`${pools}::int[], ${JSON.stringify(r.claims)}::jsonb, ${keys}::text[], ${JSON.stringify(Object.fromEntries(r.wanted))}::jsonb,
    ${r.cap}::int`;
}

function verdictOf(value: unknown): ReserveVerdict {
  const verdict = (typeof value === 'string' ? JSON.parse(value) : value) as {
    refused?: ReserveVerdict['refused'];
    unavailable: unknown[];
  };
  return { refused: verdict.refused ?? null, unavailable: verdict.unavailable.map(Number) };
}

/**
 * Everything a reservation does under the hot locks, in one call of the database function
 * `reserve_claims`: the sale's new reference and buyer written, the buyer's counts under each key's advisory lock (when a cap is given), the
 * pools locked in ascending id order (these and those of the sale's earlier holds), the sale's
 * earlier holds given back, the code's use claimed under its row lock, then each claim. A refusal
 * is answered; the caller rolls the transaction back.
 */
export async function reserveClaims(tx: Exec, r: ReserveClaims): Promise<ReserveVerdict> {
  const [row] = await rows<{ verdict: unknown }>(
    tx,
    sql`SELECT reserve_claims(${r.saleId}, ${r.now.toISOString()}::timestamptz, ${r.deadline.toISOString()}::timestamptz,
          ${claimArgs(r)}, ${r.codeId}::int, ${r.reference}, ${r.buyerIp}::text, ${r.userId}::int) AS verdict`,
  );
  return verdictOf(row!.verdict);
}

export type ReserveOutcome =
  | { outcome: 'reserved' }
  | { outcome: 'held'; reference: string; deadline: Date }
  | { outcome: 'changed' }
  | { outcome: 'refused'; verdict: ReserveVerdict };

/**
 * A whole reservation of a basket without seats as one statement (the database function
 * `reserve_sale`, server/db/functions/reserve_sale.sql): under the sale's row lock it checks that
 * the basket is still `basket` (else 'changed': read it again), answers 'held' for a sale already
 * holding its tickets, and otherwise does all of `reserve_claims`. A refusal undoes the statement
 * and is answered here.
 */
export async function reserveSaleAtOnce(
  db: Exec,
  r: ReserveClaims & { basket: string; lockTimeout: string },
): Promise<ReserveOutcome> {
  try {
    const [row] = await rows<{ outcome: unknown }>(
      db,
      sql`SELECT reserve_sale(${r.saleId}, ${r.basket}, ${r.codeId}::int, ${r.now.toISOString()}::timestamptz, ${r.deadline.toISOString()}::timestamptz,
            ${r.lockTimeout}, ${claimArgs(r)}, ${r.reference}, ${r.buyerIp}::text, ${r.userId}::int) AS outcome`,
    );
    const value = row!.outcome;
    const outcome = (typeof value === 'string' ? JSON.parse(value) : value) as {
      outcome: 'reserved' | 'held' | 'changed';
      reference?: string;
      deadline?: string;
    };
    if (outcome.outcome === 'held')
      return { outcome: 'held', reference: outcome.reference!, deadline: new Date(outcome.deadline!) };
    return { outcome: outcome.outcome } as ReserveOutcome;
  } catch (err) {
    const refusal = databaseError(err);
    if (refusal?.code !== 'HF001' || !refusal.detail) throw err;
    return { outcome: 'refused', verdict: verdictOf(refusal.detail) };
  }
}

export type BasketOutcome =
  ReserveOutcome | { outcome: 'check' } | { outcome: 'captcha' } | { outcome: 'queued'; dateId: number };

/**
 * A buyer's own attempt: the queued dates the request holds no turn for, and the attempt as the
 * captcha's rule counts it (null where there is no captcha): the address, the start of its window,
 * how many attempts it makes there before a captcha is asked for (0: every one), and whether this
 * one carries a solved captcha.
 */
export interface ReserveAttempt {
  queued: readonly number[];
  captcha: { ip: string; since: Date; free: number; solved: boolean } | null;
}

/**
 * The whole reservation in one round trip, basket read included (the database function
 * `reserve_basket`, server/db/functions/reserve_basket.sql): under the sale's row lock it reads the
 * basket and, when it plainly passes the basket rules and has no seats, makes the claims as
 * `reserveSaleAtOnce` does. 'check' means it did nothing: the caller reads the basket and goes the
 * longer way. With an attempt (`reserve_attempt`), a basket of a queued date without its turn
 * answers 'queued', and the address's attempt is counted and recorded in the same round trip and
 * commit first: 'captcha' means it needs a solved captcha. Either reserved nothing.
 */
export async function reserveBasketAtOnce(
  db: Exec,
  r: {
    saleId: string;
    now: Date;
    deadline: Date;
    lockTimeout: string;
    maxPerOrder: number;
    cap: number | null;
    reference: string;
    buyerIp: string | null;
    userId: number | null;
    attempt?: ReserveAttempt | null;
  },
): Promise<BasketOutcome> {
  const values = [
    r.saleId,
    r.now.toISOString(),
    r.deadline.toISOString(),
    r.lockTimeout,
    r.maxPerOrder,
    r.cap,
    r.reference,
    r.buyerIp,
    r.userId,
  ];
  try {
    // The statement an on-sale runs for every buyer: prepared once per connection (preparedRows).
    const [row] =
      r.attempt && (r.attempt.queued.length > 0 || r.attempt.captcha)
        ? await preparedRows<{ outcome: unknown }>(
            db,
            'reserve_attempt',
            'SELECT reserve_attempt($1::int[], $2, $3::timestamptz, $4::int, $5::boolean, $6, $7::timestamptz, $8::timestamptz, $9, $10::int, $11::int, $12, $13::text, $14::int) AS outcome',
            [
              `{${r.attempt.queued.map(Number).join(',')}}`,
              r.attempt.captcha?.ip ?? null,
              r.attempt.captcha?.since.toISOString() ?? null,
              r.attempt.captcha?.free ?? null,
              r.attempt.captcha?.solved ?? false,
              ...values,
            ],
          )
        : await preparedRows<{ outcome: unknown }>(
            db,
            'reserve_basket',
            'SELECT reserve_basket($1, $2::timestamptz, $3::timestamptz, $4, $5::int, $6::int, $7, $8::text, $9::int) AS outcome',
            values,
          );
    const value = row!.outcome;
    const outcome = (typeof value === 'string' ? JSON.parse(value) : value) as {
      outcome: 'reserved' | 'held' | 'check' | 'captcha' | 'refused' | 'queued';
      reference?: string;
      deadline?: string;
      verdict?: unknown;
      date?: number;
    };
    if (outcome.outcome === 'queued') return { outcome: 'queued', dateId: Number(outcome.date) };
    if (outcome.outcome === 'held')
      return { outcome: 'held', reference: outcome.reference!, deadline: new Date(outcome.deadline!) };
    if (outcome.outcome === 'refused') return { outcome: 'refused', verdict: verdictOf(outcome.verdict) };
    return { outcome: outcome.outcome };
  } catch (err) {
    const refusal = databaseError(err);
    if (refusal?.code !== 'HF001' || !refusal.detail) throw err;
    return { outcome: 'refused', verdict: verdictOf(refusal.detail) };
  }
}

/** The database's own error under a driver's or the ORM's wrapping. */
function databaseError(err: unknown): { code: string; detail?: string } | null {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, detail } = e as { code?: unknown; detail?: unknown };
    if (typeof code === 'string') return { code, ...(typeof detail === 'string' ? { detail } : {}) };
  }
  return null;
}

/**
 * Releases a pool's expired holds (the caller holds the pool's row lock), so the pool's `held`
 * counts live holds alone. Answers how many holds were released.
 */
export async function releaseExpired(tx: Exec, poolId: number, now: Date): Promise<number> {
  const [row] = await rows<{ released: number }>(
    tx,
    sql`WITH gone AS (
          DELETE FROM holds WHERE pool_id = ${poolId} AND deadline <= ${now.toISOString()}::timestamptz RETURNING qty
        )
        UPDATE capacity_pools SET held = held - (SELECT COALESCE(sum(qty), 0)::int FROM gone)
        WHERE id = ${poolId}
        RETURNING (SELECT count(*)::int FROM gone) AS released`,
  );
  return Number(row?.released ?? 0);
}

/** Locks pools in ascending id order, the one order every path uses, so none deadlock. */
export async function lockPools(tx: Exec, poolIds: number[]): Promise<void> {
  const ids = [...new Set(poolIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await tx.execute(
    sql`SELECT id FROM capacity_pools WHERE id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) ORDER BY id FOR UPDATE`,
  );
}

/** The pools a sale's holds are in, for callers that lock them together with others. */
export async function poolsHeldBy(tx: Exec, saleId: string): Promise<number[]> {
  const found = await rows<{ pool_id: number }>(tx, sql`SELECT DISTINCT pool_id FROM holds WHERE sale_id = ${saleId}`);
  return found.map((r) => Number(r.pool_id));
}

/**
 * Gives back every hold of a sale, live or expired, and takes them off their pools' counts. Locks
 * the pools first (ascending) unless the caller already holds them.
 */
export async function releaseSaleHolds(tx: Exec, saleId: string, opts: { poolsLocked?: boolean } = {}): Promise<void> {
  if (!opts.poolsLocked) {
    await tx.execute(
      sql`SELECT id FROM capacity_pools WHERE id IN (SELECT pool_id FROM holds WHERE sale_id = ${saleId}) ORDER BY id FOR UPDATE`,
    );
  }
  await tx.execute(
    sql`WITH gone AS (
          DELETE FROM holds WHERE sale_id = ${saleId} RETURNING pool_id, qty
        ), per_pool AS (
          SELECT pool_id, sum(qty)::int AS qty FROM gone GROUP BY pool_id
        ), buyers AS (
          -- The sale's rows in its buyers' counts stop counting (a row a reservation has locked
          -- has expired and is being released there already).
          UPDATE buyer_holds SET deadline = '-infinity'
          WHERE (sale_id, buyer_key, event_date_id) IN (
            SELECT sale_id, buyer_key, event_date_id FROM buyer_holds WHERE sale_id = ${saleId} FOR UPDATE SKIP LOCKED
          )
        )
        UPDATE capacity_pools p SET held = p.held - g.qty FROM per_pool g WHERE p.id = g.pool_id`,
  );
  await releaseSaleSeats(tx, saleId);
}

/**
 * Releases one buyer key's expired rows (and those of ended sales) from its counts, under the
 * key's advisory lock as a reservation would. Answers how many rows were released.
 */
async function releaseExpiredBuyerRows(tx: Exec, buyerKey: string, now: Date): Promise<number> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`holdfast-buyer:${buyerKey}`}))`);
  const [row] = await rows<{ released: number }>(
    tx,
    sql`WITH gone AS (
          DELETE FROM buyer_holds WHERE buyer_key = ${buyerKey} AND deadline <= ${now.toISOString()}::timestamptz
          RETURNING event_date_id, qty
        ), per_date AS (
          SELECT event_date_id, sum(qty)::int AS qty, count(*)::int AS n FROM gone GROUP BY event_date_id
        ), counted AS (
          UPDATE buyer_held b SET held = b.held - g.qty FROM per_date g
          WHERE b.buyer_key = ${buyerKey} AND b.event_date_id = g.event_date_id
        )
        SELECT COALESCE(sum(n), 0)::int AS released FROM per_date`,
  );
  return Number(row?.released ?? 0);
}

/**
 * Releases expired holds and forgets finished sales' references. Goes pool by pool, each under its
 * own row lock, so it never holds two pools at once and can run beside any claim (or a second
 * sweeper): each hold row is deleted by exactly one statement, which is what the count reports.
 */
export async function sweepExpiredHolds(db: Pick<Executor, 'execute' | 'transaction'>, now: Date): Promise<number> {
  const at = now.toISOString();
  const pools = await rows<{ pool_id: number }>(
    db,
    sql`SELECT DISTINCT pool_id FROM holds WHERE deadline <= ${at}::timestamptz ORDER BY pool_id`,
  );
  let released = 0;
  for (const { pool_id } of pools) {
    released += await db.transaction(async (tx) => {
      await lockPools(tx, [Number(pool_id)]);
      return releaseExpired(tx, Number(pool_id), now);
    });
  }
  const keys = await rows<{ buyer_key: string }>(
    db,
    sql`SELECT DISTINCT buyer_key FROM buyer_holds WHERE deadline <= ${at}::timestamptz ORDER BY buyer_key`,
  );
  for (const { buyer_key } of keys) await db.transaction((tx) => releaseExpiredBuyerRows(tx, buyer_key, now));
  // A sale whose holds were kept past its deadline (a payment started in time) keeps its reference.
  await db.execute(
    sql`UPDATE sales s SET reference = NULL, hold_deadline = NULL
        WHERE s.hold_deadline IS NOT NULL AND s.hold_deadline <= ${at}::timestamptz
          AND NOT EXISTS (SELECT 1 FROM holds h WHERE h.sale_id = s.id AND h.deadline > ${at}::timestamptz)`,
  );
  await db.execute(sql`DELETE FROM reservation_attempts WHERE at < ${at}::timestamptz - interval '1 hour'`);
  await db.execute(sql`DELETE FROM used_captchas WHERE expires_at < ${at}::timestamptz`);
  return released;
}
