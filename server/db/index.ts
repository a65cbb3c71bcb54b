/**
 * One schema, two drivers: embedded PGlite by default, PostgreSQL when DATABASE_URL is set (and a
 * second pool for reads that may be a moment stale when DATABASE_READ_URL is: staleReads.ts).
 * Each driver gets its own Drizzle adapter; the node-postgres adapter is never run on top of
 * PGlite (its parameterised queries fail there and the single connection hangs).
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { unchecked } from '../../contract/unchecked.ts';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.ts';
import { watchWrites } from './writeWatch.ts';
import { jobLease } from './jobLease.ts';
import { openStaleReads, readStaleFrom } from './staleReads.ts';

import type { Database } from './database.ts';

export type { Database, Executor } from './database.ts';

export interface OpenDatabase {
  db: Database;
  driver: 'pglite' | 'postgres';
  /** Whether this process runs the scheduled jobs now (see jobLease.ts): always on PGlite, one process at a time on PostgreSQL. */
  jobsTurn: () => Promise<boolean>;
  close: () => Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** How long a new connection may take before the query is told the database is unavailable. */
const CONNECT_TIMEOUT_MS = 10_000;

/** The advisory lock under which a starting process migrates and seeds (any number may start at once). */
export const STARTUP_LOCK = 724_110_001;

/**
 * Opens and migrates the database, then runs `prepare` (the seed), all under one advisory lock on
 * PostgreSQL, so processes started together take turns: the first migrates and seeds, the others
 * find it done.
 */
export async function openDatabase(
  config: { databaseUrl: string | null; databaseReadUrl?: string | null; pgliteDir: string; databasePoolSize?: number },
  prepare: (db: Database) => Promise<unknown> = async () => undefined,
): Promise<OpenDatabase> {
  if (config.databaseUrl) {
    // A connection the server drops (a failover, a restart) is left out of the pool and a new one is
    // made on the next query, through DATABASE_URL again: to the new leader behind the balancer.
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.databasePoolSize ?? 10,
      keepAlive: true,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    pool.on('error', (err) =>
      console.error(`A database connection was lost (${err.message}); the next query opens a new one.`),
    );
    // A connection lost while checked out between two statements (inside a transaction) tells its
    // client, not the pool: heard here, it fails that request (503) instead of the process.
    pool.on('connect', (client) => client.on('error', () => undefined));
    // Both drivers answer every query `Database` names; drizzle types each by its own driver.
    const db = unchecked<Database>(drizzlePg(pool, { schema }));
    const lock = await pool.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
      await migratePg(db as never, { migrationsFolder });
      await prepare(db);
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
      lock.release();
    }
    const lease = jobLease(config.databaseUrl, (holding) =>
      console.log(
        holding ? 'This process runs the scheduled jobs.' : 'This process no longer runs the scheduled jobs.',
      ),
    );
    const reads = config.databaseReadUrl
      ? openStaleReads(config.databaseReadUrl, config.databasePoolSize ?? 10, pool)
      : null;
    if (reads) readStaleFrom(db, reads.db);
    return {
      db,
      driver: 'postgres',
      jobsTurn: lease.turn,
      close: async () => {
        await lease.close();
        await reads?.pool.end();
        await pool.end();
      },
    };
  }
  mkdirSync(path.resolve(config.pgliteDir), { recursive: true });
  const client = await PGlite.create(path.resolve(config.pgliteDir));
  const db = unchecked<Database>(drizzlePglite(client, { schema }));
  await migratePglite(db as never, { migrationsFolder });
  await watchWrites(client);
  await prepare(db);
  return { db, driver: 'pglite', jobsTurn: async () => true, close: () => client.close() };
}

/**
 * Rows of a statement the server runs on nearly every request, prepared once per connection under
 * `name` on PostgreSQL, so the database parses and plans it once per connection instead of once
 * per call. PGlite and open transactions run it as a plain statement. `text` numbers its parameters
 * $1, $2, …; one name is always one text.
 */
export async function preparedRows<T>(
  db: Pick<Database, 'execute'>,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) return (await client.query<T & pg.QueryResultRow>({ name, text, values })).rows;
  // split with a capture group: text, parameter number, text, parameter number, …
  const chunks = text
    .split(/\$(\d+)/)
    .map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`));
  return rows<T>(db, sql.join(chunks));
}

/** Rows of a raw statement, the same on both drivers. */
export async function rows<T>(db: Pick<Database, 'execute'>, query: SQL): Promise<T[]> {
  // Both drivers answer a raw statement with its rows under `rows`.
  const result = unchecked<{ rows: T[] }>(await db.execute(query));
  return result.rows;
}
