/**
 * Databases for tests: a fresh in-memory PGlite, or a private schema on TEST_DATABASE_URL so
 * test files can run side by side on one PostgreSQL server without seeing each other's rows.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';
import { migrationsFolder, type Database, type OpenDatabase } from './index.ts';

export type TestDriver = 'pglite' | 'postgres';

/**
 * The drivers the database tests run on. Under CI a missing TEST_DATABASE_URL is not a
 * reason to skip PostgreSQL: the PostgreSQL variant stays listed and fails when opened.
 */
export function testDrivers(): TestDriver[] {
  return process.env.TEST_DATABASE_URL || process.env.CI ? ['pglite', 'postgres'] : ['pglite'];
}

export async function openTestDatabase(driver: TestDriver = 'pglite', poolSize = 8): Promise<OpenDatabase> {
  if (driver === 'pglite') {
    const client = await PGlite.create();
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    await migratePglite(db as never, { migrationsFolder });
    return { db, driver, close: () => client.close() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL must be set to run the PostgreSQL tests (CI is set)');
  const schemaName = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA "${schemaName}"`);
    await admin.query(`SET search_path TO "${schemaName}"`);
    for (const statement of migrationStatements()) await admin.query(statement);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: url, max: poolSize, options: `-c search_path=${schemaName}` });
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    driver,
    close: async () => {
      await pool.end();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA "${schemaName}" CASCADE`).finally(() => cleanup.end());
    },
  };
}

/** The committed migrations, unpinned from the public schema so they land in the test schema. */
function migrationStatements(): string[] {
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
