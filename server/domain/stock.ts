/**
 * Stock: holds against capacity pools. Every count of taken stock is `sold` plus holds whose
 * deadline is still ahead, so a hold stops counting the instant it expires.
 */
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../db/index.ts';

/** What is left in each pool at `now` (advisory: the claim at reservation is what counts). */
export async function poolAvailability(db: Pick<Executor, 'execute'>, poolIds: number[], now: Date): Promise<Map<number, number>> {
  if (poolIds.length === 0) return new Map();
  const result = await rows<{ id: number; available: number }>(
    db,
    sql`SELECT p.id, (p.capacity - p.sold - COALESCE((
          SELECT sum(h.qty) FROM holds h WHERE h.pool_id = p.id AND h.deadline > ${now.toISOString()}::timestamptz
        ), 0))::int AS available
        FROM capacity_pools p WHERE p.id IN (${sql.join(poolIds.map((id) => sql`${id}`), sql`, `)})`,
  );
  return new Map(result.map((r) => [Number(r.id), Number(r.available)]));
}

/**
 * Claims `qty` from a pool for a sale, in one statement whose condition counts only live
 * holds plus sold. Callers hold the pool's row lock, so the count cannot change underneath.
 */
export async function claimHold(
  tx: Pick<Executor, 'execute'>,
  claim: { saleId: string; poolId: number; ticketTypeId: number; qty: number; deadline: Date; now: Date },
): Promise<boolean> {
  const inserted = await rows<{ id: number }>(
    tx,
    sql`INSERT INTO holds (sale_id, pool_id, ticket_type_id, qty, deadline)
        SELECT ${claim.saleId}, p.id, ${claim.ticketTypeId}, ${claim.qty}, ${claim.deadline.toISOString()}::timestamptz
        FROM capacity_pools p
        WHERE p.id = ${claim.poolId}
          AND p.sold + ${claim.qty} + COALESCE((
            SELECT sum(h.qty) FROM holds h WHERE h.pool_id = p.id AND h.deadline > ${claim.now.toISOString()}::timestamptz
          ), 0) <= p.capacity
        RETURNING id`,
  );
  return inserted.length === 1;
}

/** Locks pools in ascending id order, the one order every reservation uses, so none deadlock. */
export async function lockPools(tx: Pick<Executor, 'execute'>, poolIds: number[]): Promise<void> {
  const ids = [...new Set(poolIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await tx.execute(
    sql`SELECT id FROM capacity_pools WHERE id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) ORDER BY id FOR UPDATE`,
  );
}

/**
 * Releases expired holds and forgets finished sales' references. Safe to run twice at once:
 * each hold row is deleted by exactly one DELETE, which is what the count reports.
 */
export async function sweepExpiredHolds(db: Pick<Executor, 'execute'>, now: Date): Promise<number> {
  const at = now.toISOString();
  const released = await rows<{ id: number }>(db, sql`DELETE FROM holds WHERE deadline <= ${at}::timestamptz RETURNING id`);
  await db.execute(
    sql`UPDATE sales SET reference = NULL, hold_deadline = NULL WHERE hold_deadline IS NOT NULL AND hold_deadline <= ${at}::timestamptz`,
  );
  await db.execute(sql`DELETE FROM reservation_attempts WHERE at < ${at}::timestamptz - interval '1 hour'`);
  await db.execute(sql`DELETE FROM used_captchas WHERE expires_at < ${at}::timestamptz`);
  return released.length;
}
