/**
 * Reads that may be a moment stale: the catalogue's event lists, which a replica may answer a
 * commit or two behind the leader. With DATABASE_READ_URL they go to their own pool (a replica, or a
 * balancer port in front of the replicas); without it, and always on PGlite, to the one database.
 * Stock, holds, money and sessions never read through here: they read the database they write.
 *
 * The stale-read handle is found from the database handle the server was given, so a domain
 * function that may read stale asks for it where it reads, and every other read is untouched.
 */
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { unchecked } from '../../contract/unchecked.ts';
import * as schema from './schema.ts';
import { isDatabaseUnavailable } from './unavailable.ts';
import type { Database } from './database.ts';

const readers = new WeakMap<object, Database>();

/** Where `db`'s stale-tolerant reads go: the read pool when one was opened for it, otherwise `db` itself. */
export function staleReads(db: Database): Database {
  return readers.get(db) ?? db;
}

/** Sends `db`'s stale-tolerant reads to `reads`. */
export function readStaleFrom(db: Database, reads: Database): void {
  readers.set(db, reads);
}

/** How long a connection to the replicas may take before the read goes to the write pool instead. */
const CONNECT_TIMEOUT_MS = 3000;

/**
 * The read pool for `url`. A read the replicas cannot answer just then (none up, one cut off mid-read,
 * a failover) is answered by the write pool instead: a page that may be a moment stale is never
 * refused for want of a replica.
 */
export function openStaleReads(url: string, size: number, writes: pg.Pool): { db: Database; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: url,
    max: size,
    keepAlive: true,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  // Drizzle reads outside a transaction with the promise form of pool.query; the fallback keeps it.
  const read = unchecked<(...args: unknown[]) => Promise<unknown>>(pool.query.bind(pool));
  const write = unchecked<(...args: unknown[]) => Promise<unknown>>(writes.query.bind(writes));
  pool.query = unchecked<pg.Pool['query']>((...args: unknown[]) =>
    read(...args).catch((err: unknown) => (isDatabaseUnavailable(err) ? write(...args) : Promise.reject(err))),
  );
  // Both drivers answer every query `Database` names; drizzle types each by its own driver.
  return { db: unchecked<Database>(drizzle(pool, { schema })), pool };
}
