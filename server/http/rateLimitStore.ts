/**
 * A store for @fastify/rate-limit kept in the database, so every process serving one database
 * counts an address's requests together. The window is the database's clock, one statement per
 * request: an upsert that starts a new window when the old one has passed.
 */
import { sql } from 'drizzle-orm';
import { rows, type Database } from '../db/index.ts';

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

export function databaseRateLimitStore(db: Pick<Database, 'execute'>) {
  return class DatabaseRateLimitStore {
    private readonly prefix: string;
    constructor(options: { keyPrefix?: string } = {}) {
      this.prefix = options.keyPrefix ?? '';
    }

    incr(key: string, cb: Callback, timeWindow: number): void {
      const seconds = timeWindow / 1000;
      rows<{ hits: number; ttl: number }>(
        db,
        sql`INSERT INTO rate_limits (key, hits, started_at) VALUES (${this.prefix + key}, 1, now())
            ON CONFLICT (key) DO UPDATE SET
              hits = CASE WHEN rate_limits.started_at + make_interval(secs => ${seconds}) <= now() THEN 1 ELSE rate_limits.hits + 1 END,
              started_at = CASE WHEN rate_limits.started_at + make_interval(secs => ${seconds}) <= now() THEN now() ELSE rate_limits.started_at END
            RETURNING hits, GREATEST(0, ceil(extract(epoch FROM (started_at + make_interval(secs => ${seconds}) - now())) * 1000))::int AS ttl`,
      ).then(
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
      const Store = databaseRateLimitStore(db);
      return new Store({ keyPrefix: `${this.prefix}${routeOptions.routeInfo?.method ?? ''}${routeOptions.routeInfo?.url ?? ''}:` });
    }
  };
}

/** Forgets windows long past, from the sweeper. */
export async function purgeRateLimits(db: Pick<Database, 'execute'>): Promise<void> {
  await db.execute(sql`DELETE FROM rate_limits WHERE started_at < now() - interval '1 hour'`);
}
