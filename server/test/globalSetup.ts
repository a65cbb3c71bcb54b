/**
 * Once per Vitest run, before any test file: a PGlite migrated (and one also seeded) is saved as a
 * data directory, and with TEST_DATABASE_URL two template databases are made the same way, so each
 * server test file starts from a copy instead of migrating and seeding again (server/db/testing.ts).
 * Everything is removed when the run ends.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from '../db/schema.ts';
import { migrationsFolder, type Database } from '../db/index.ts';
import {
  databaseUrl,
  migrationStatements,
  SNAPSHOTS_ENV,
  TEST_SEED_DATE,
  testDrivers,
  type TestSnapshots,
} from '../db/testing.ts';
import { seed, type Demo } from '../seed.ts';

async function pgliteSnapshots(dir: string): Promise<{ migrated: string; seeded: string; demo: Demo }> {
  const client = await PGlite.create();
  try {
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    await migratePglite(db as never, { migrationsFolder });
    const migrated = path.join(dir, 'pglite-migrated.tar');
    writeFileSync(migrated, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    const demo = await seed(db, TEST_SEED_DATE);
    const seeded = path.join(dir, 'pglite-seeded.tar');
    writeFileSync(seeded, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    return { migrated, seeded, demo };
  } finally {
    await client.close();
  }
}

async function query(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A template database, migrated and optionally seeded (its seed's ids answered); no connection is left open to it. */
async function template(url: string, name: string, seeded: boolean): Promise<Demo | null> {
  await query(url, `CREATE DATABASE "${name}"`);
  const pool = new pg.Pool({ connectionString: databaseUrl(url, name), max: 1 });
  try {
    const client = await pool.connect();
    try {
      for (const statement of migrationStatements()) await client.query(statement);
    } finally {
      client.release();
    }
    return seeded ? await seed(drizzlePg(pool, { schema }) as unknown as Database, TEST_SEED_DATE) : null;
  } finally {
    await pool.end();
  }
}

export default async function setup(): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'holdfast-test-db-'));
  const url = process.env.TEST_DATABASE_URL;
  const withPostgres = testDrivers().includes('postgres') && Boolean(url);
  const id = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const names = { migrated: `holdfast_tpl_${id}_migrated`, seeded: `holdfast_tpl_${id}_seeded` };
  const [local, remote] = await Promise.all([
    pgliteSnapshots(dir),
    withPostgres
      ? Promise.all([template(url!, names.migrated, false), template(url!, names.seeded, true)])
      : Promise.resolve(null),
  ]);
  const snapshots: TestSnapshots = {
    pglite: { migrated: local.migrated, seeded: local.seeded, demo: local.demo },
    postgres: remote ? { ...names, demo: remote[1]! } : null,
  };
  const file = path.join(dir, 'snapshots.json');
  writeFileSync(file, JSON.stringify(snapshots));
  process.env[SNAPSHOTS_ENV] = file;

  return async () => {
    if (withPostgres) {
      for (const name of Object.values(names))
        await query(url!, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
