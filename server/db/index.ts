/**
 * One schema, two drivers: embedded PGlite by default, PostgreSQL when DATABASE_URL is set.
 * Each driver gets its own Drizzle adapter; the node-postgres adapter is never run on top of
 * PGlite (its parameterised queries fail there and the single connection hangs).
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.ts';
import { watchWrites } from './writeWatch.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database handle or an open transaction: domain functions accept either. */
export type Executor = Pick<Database, 'select' | 'selectDistinctOn' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction' | 'query'>;

export interface OpenDatabase {
  db: Database;
  driver: 'pglite' | 'postgres';
  close: () => Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** The advisory lock under which a starting process migrates and seeds (any number may start at once). */
export const STARTUP_LOCK = 724_110_001;

/**
 * Opens and migrates the database, then runs `prepare` (the seed), all under one advisory lock on
 * PostgreSQL, so processes started together take turns: the first migrates and seeds, the others
 * find it done.
 */
export async function openDatabase(
  config: { databaseUrl: string | null; pgliteDir: string; databasePoolSize?: number },
  prepare: (db: Database) => Promise<unknown> = async () => undefined,
): Promise<OpenDatabase> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: config.databasePoolSize ?? 10 });
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    const lock = await pool.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK]);
      await migratePg(db as never, { migrationsFolder });
      await prepare(db);
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK]).catch(() => undefined);
      lock.release();
    }
    return { db, driver: 'postgres', close: () => pool.end() };
  }
  mkdirSync(path.resolve(config.pgliteDir), { recursive: true });
  const client = await PGlite.create(path.resolve(config.pgliteDir));
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  await migratePglite(db as never, { migrationsFolder });
  await watchWrites(client);
  await prepare(db);
  return { db, driver: 'pglite', close: () => client.close() };
}

/**
 * Rows of a statement the server runs on nearly every request, prepared once per connection under
 * `name` on PostgreSQL, so the database parses and plans it once per connection instead of once
 * per call. PGlite and open transactions run it as a plain statement. `text` numbers its parameters
 * $1, $2, …; one name is always one text.
 */
export async function preparedRows<T>(db: Pick<Database, 'execute'>, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) return (await client.query<T & pg.QueryResultRow>({ name, text, values })).rows;
  // split with a capture group: text, parameter number, text, parameter number, …
  const chunks = text.split(/\$(\d+)/).map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`));
  return rows<T>(db, sql.join(chunks));
}

/** Rows of a raw statement, the same on both drivers. */
export async function rows<T>(db: Pick<Database, 'execute'>, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
