/**
 * The rate limit's counts in the database (the `rate_limits` table), for the store in
 * server/http/rateLimitStore.ts: one row per key, its hits and when its window started, by the
 * database's clock. An upsert counts a batch of keys and starts a new window for a key whose old
 * one has passed.
 *
 * On PostgreSQL the upsert commits without waiting for its WAL to reach the disk
 * (`synchronous_commit = off` for that transaction alone, sent with it as one query).
 */
import { sql } from 'drizzle-orm';
import { rows, type Database } from './index.ts';

/** A string as an SQL literal (standard_conforming_strings is on in every supported PostgreSQL). */
const literal = (s: string) => `'${s.replaceAll('\0', '').replaceAll("'", "''")}'`;

/** The upsert's text for several keys (each with how many requests it counts) and one window, values written in (a query of several statements takes no parameters). */
export function upsertText(counts: ReadonlyMap<string, number>, seconds: number): string {
  const window = `make_interval(secs => ${Number(seconds)})`;
  const values = [...counts.keys()]
    .sort()
    .map((key) => `(${literal(key)}, ${Number(counts.get(key))})`)
    .join(', ');
  return `INSERT INTO rate_limits AS r (key, hits, started_at)
    SELECT k, n, now() FROM (VALUES ${values}) AS t(k, n) ORDER BY k
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.started_at + ${window} <= now() THEN EXCLUDED.hits ELSE r.hits + EXCLUDED.hits END,
      started_at = CASE WHEN r.started_at + ${window} <= now() THEN now() ELSE r.started_at END
    RETURNING key, hits, GREATEST(0, ceil(extract(epoch FROM (started_at + ${window} - now())) * 1000))::int AS ttl`;
}

/** The rows of the last statement of a query of several (node-postgres answers one result per statement). */
function lastRows<T>(result: unknown): T[] {
  const last = (Array.isArray(result) ? result.at(-1) : result) as { rows: T[] };
  return last.rows;
}

export type Counted = { key: string; hits: number; ttl: number };

/** Counts several keys' requests (each key with how many) in one window: one upsert; each key's hits and the time left in its window. */
export async function countRequests(
  db: Pick<Database, 'execute'>,
  counts: Map<string, number>,
  seconds: number,
  relaxedCommit: boolean,
): Promise<Counted[]> {
  const text = upsertText(counts, seconds);
  return relaxedCommit
    ? lastRows<Counted>(await db.execute(sql.raw(`SET LOCAL synchronous_commit = off; ${text}`)))
    : rows<Counted>(db, sql.raw(text));
}

/** A key's count in its current window, and the time left in it; none when its window has passed. */
export function readCount(
  db: Pick<Database, 'execute'>,
  key: string,
  seconds: number,
): Promise<{ hits: number; ttl: number }[]> {
  return rows<{ hits: number; ttl: number }>(
    db,
    sql`SELECT hits, GREATEST(0, ceil(extract(epoch FROM (started_at + make_interval(secs => ${seconds}) - now())) * 1000))::int AS ttl
        FROM rate_limits WHERE key = ${key} AND started_at + make_interval(secs => ${seconds}) > now()`,
  );
}

/** Forgets windows long past, from the sweeper. */
export async function purgeRateLimits(db: Pick<Database, 'execute'>): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limits WHERE started_at < now() - interval '1 hour'`);
}
