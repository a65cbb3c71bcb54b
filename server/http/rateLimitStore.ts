/**
 * A store for @fastify/rate-limit kept in the database, so every process serving one database
 * counts an address's requests together. The window is the database's clock, one round trip per
 * request: an upsert that starts a new window when the old one has passed.
 *
 * On PostgreSQL the upsert commits without waiting for its WAL to reach the disk
 * (`synchronous_commit = off` for that transaction alone, sent with it as one query). A count is
 * worth less than the flush: a crash can lose at most the last fraction of a second of counts,
 * and the address's row is not held locked through a disk flush, which would make every request
 * from one address (all of a venue's Wi-Fi, a proxy) wait in line for the disk.
 */
import { sql } from 'drizzle-orm';
import { rows, type Database } from '../db/index.ts';

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** A string as an SQL literal (standard_conforming_strings is on in every supported PostgreSQL). */
const literal = (s: string) => `'${s.replaceAll('\0', '').replaceAll("'", "''")}'`;

/** The upsert's text for one key and window, with its values written in (a query of several statements takes no parameters). */
function upsertText(key: string, seconds: number): string {
  const window = `make_interval(secs => ${Number(seconds)})`;
  return `INSERT INTO rate_limits (key, hits, started_at) VALUES (${literal(key)}, 1, now())
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN rate_limits.started_at + ${window} <= now() THEN 1 ELSE rate_limits.hits + 1 END,
      started_at = CASE WHEN rate_limits.started_at + ${window} <= now() THEN now() ELSE rate_limits.started_at END
    RETURNING hits, GREATEST(0, ceil(extract(epoch FROM (started_at + ${window} - now())) * 1000))::int AS ttl`;
}

/** The rows of the last statement of a query of several (node-postgres answers one result per statement). */
function lastRows<T>(result: unknown): T[] {
  const last = (Array.isArray(result) ? result.at(-1) : result) as { rows: T[] };
  return last.rows;
}

export function databaseRateLimitStore(
  db: Pick<Database, 'execute'>,
  /** PostgreSQL proper: the count commits without a disk flush. PGlite (one statement per query) commits as usual. */
  { relaxedCommit }: { relaxedCommit: boolean } = { relaxedCommit: false },
) {
  return class DatabaseRateLimitStore {
    private readonly prefix: string;
    constructor(options: { keyPrefix?: string } = {}) {
      this.prefix = options.keyPrefix ?? '';
    }

    incr(key: string, cb: Callback, timeWindow: number): void {
      const text = upsertText(this.prefix + key, timeWindow / 1000);
      const counted = relaxedCommit
        ? db.execute(sql.raw(`SET LOCAL synchronous_commit = off; ${text}`)).then((result) => lastRows<{ hits: number; ttl: number }>(result))
        : rows<{ hits: number; ttl: number }>(db, sql.raw(text));
      counted.then(
        ([row]) => cb(null, { current: Number(row!.hits), ttl: Number(row!.ttl) }),
        (err: Error) => cb(err),
      );
    }

    read(key: string, cb: Callback, timeWindow: number): void {
      const seconds = timeWindow / 1000;
      rows<{ hits: number; ttl: number }>(
        db,
        sql`SELECT hits, GREATEST(0, ceil(extract(epoch FROM (started_at + make_interval(secs => ${seconds}) - now())) * 1000))::int AS ttl
            FROM rate_limits WHERE key = ${this.prefix + key} AND started_at + make_interval(secs => ${seconds}) > now()`,
      ).then(
        ([row]) => cb(null, row ? { current: Number(row.hits), ttl: Number(row.ttl) } : { current: 0, ttl: 0 }),
        (err: Error) => cb(err),
      );
    }

    child(routeOptions: { keyPrefix?: string; routeInfo?: { method?: string; url?: string } }) {
      const Store = databaseRateLimitStore(db, { relaxedCommit });
      return new Store({ keyPrefix: `${this.prefix}${routeOptions.routeInfo?.method ?? ''}${routeOptions.routeInfo?.url ?? ''}:` });
    }
  };
}

/** Forgets windows long past, from the sweeper. */
export async function purgeRateLimits(db: Pick<Database, 'execute'>): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limits WHERE started_at < now() - interval '1 hour'`);
}
