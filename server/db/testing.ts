/**
 * Databases for tests, each file its own: a PGlite restored from a snapshot, or on TEST_DATABASE_URL
 * a database cloned from a template, so test files run side by side without seeing each other's rows.
 *
 * Migrating (and seeding) is done once per test run by server/test/globalSetup.ts, which leaves a
 * migrated and a seeded PGlite data directory and, with TEST_DATABASE_URL, a migrated and a seeded
 * template database; each test file then starts from a copy in a fraction of the time. Without the
 * snapshots (a script outside Vitest), each database is migrated from the committed migrations.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { unchecked } from '../../contract/unchecked.ts';
import * as schema from './schema.ts';
import { watchWrites } from './writeWatch.ts';
import { migrationsFolder, type Database, type OpenDatabase } from './index.ts';
import { seed, type Demo } from '../seed.ts';

export type TestDriver = 'pglite' | 'postgres';

/** The moment the test catalogue is seeded at: every test's clock starts from it. */
export const TEST_SEED_DATE = new Date('2026-06-01T09:00:00Z');

/**
 * The drivers the database tests run on. Under CI a missing TEST_DATABASE_URL is not a
 * reason to skip PostgreSQL: the PostgreSQL variant stays listed and fails when opened.
 */
export function testDrivers(): TestDriver[] {
  return process.env.TEST_DATABASE_URL || process.env.CI ? ['pglite', 'postgres'] : ['pglite'];
}

/** What the run's global set-up left for the test files (server/test/globalSetup.ts). */
export interface TestSnapshots {
  pglite: { migrated: string; seeded: string; demo: Demo };
  postgres: { migrated: string; seeded: string; demo: Demo } | null;
}

export const SNAPSHOTS_ENV = 'HOLDFAST_TEST_SNAPSHOTS';

let snapshots: TestSnapshots | null | undefined;
function runSnapshots(): TestSnapshots | null {
  if (snapshots !== undefined) return snapshots;
  const file = process.env[SNAPSHOTS_ENV];
  snapshots = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8'), reviveDates) as TestSnapshots) : null;
  return snapshots;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
function reviveDates(_key: string, value: unknown): unknown {
  return typeof value === 'string' && ISO.test(value) ? new Date(value) : value;
}

/** A migrated database with no rows. */
export async function openTestDatabase(driver: TestDriver = 'pglite', poolSize = 8): Promise<OpenDatabase> {
  return open(driver, poolSize, 'migrated');
}

/** A migrated database holding the demo catalogue seeded at TEST_SEED_DATE, and the seed's ids. */
export async function openSeededTestDatabase(
  driver: TestDriver = 'pglite',
  poolSize = 8,
): Promise<{ database: OpenDatabase; demo: Demo }> {
  const snap = runSnapshots();
  const database = await open(driver, poolSize, 'seeded');
  const kept = driver === 'pglite' ? snap?.pglite.demo : snap?.postgres?.demo;
  return { database, demo: kept ? structuredClone(kept) : await seed(database.db, TEST_SEED_DATE) };
}

async function open(driver: TestDriver, poolSize: number, kind: 'migrated' | 'seeded'): Promise<OpenDatabase> {
  const snap = runSnapshots();
  if (driver === 'pglite') {
    const file = snap?.pglite[kind];
    const client = file ? await PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) }) : await PGlite.create();
    const db = unchecked<Database>(drizzlePglite(client, { schema }));
    if (!file) await migratePglite(db as never, { migrationsFolder });
    await watchWrites(client);
    return { db, driver, jobsTurn: async () => true, close: () => client.close() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL must be set to run the PostgreSQL tests (CI is set)');
  const template = snap?.postgres?.[kind];
  return template ? cloneDatabase(url, template, poolSize) : migratedSchema(url, poolSize);
}

/** The URL of another database on the same server. */
export function databaseUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new database copied from a template (the server copies its files: no migration runs). */
async function cloneDatabase(url: string, template: string, poolSize: number): Promise<OpenDatabase> {
  const name = `holdfast_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await admin(url, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
  const pool = new pg.Pool({ connectionString: databaseUrl(url, name), max: poolSize });
  const db = unchecked<Database>(drizzlePg(pool, { schema }));
  return {
    db,
    driver: 'postgres',
    jobsTurn: async () => true,
    close: async () => {
      // Dropping the database ends any connection still open on it; that is the point, not an error.
      pool.on('error', () => undefined);
      await pool.end();
      await admin(url, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** Without a template: a private schema on the test database, migrated here. */
async function migratedSchema(url: string, poolSize: number): Promise<OpenDatabase> {
  const schemaName = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await admin(url, async (c) => {
    await c.query(`CREATE SCHEMA "${schemaName}"`);
    await c.query(`SET search_path TO "${schemaName}"`);
    for (const statement of migrationStatements()) await c.query(statement);
  });
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: `-c search_path=${schemaName}` });
  const db = unchecked<Database>(drizzlePg(pool, { schema }));
  return {
    db,
    driver: 'postgres',
    jobsTurn: async () => true,
    close: async () => {
      await pool.end();
      await admin(url, (c) => c.query(`DROP SCHEMA "${schemaName}" CASCADE`));
    },
  };
}

/** The committed migrations, unpinned from the public schema so they land in the current schema. */
export function migrationStatements(): string[] {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return journal.entries.flatMap(({ tag }) =>
    readFileSync(path.join(migrationsFolder, `${tag}.sql`), 'utf8')
      .replaceAll('"public".', '')
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}
