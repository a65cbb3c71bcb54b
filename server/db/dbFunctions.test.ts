/**
 * The PL/pgSQL functions' source files (server/db/functions/) are what the migrations create: a
 * file edited without a migration (`npm run db:functions`) fails here, as does a function the
 * migrations create that has no file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OpenDatabase } from './index.ts';
import { changedFunctions, functionDefinitions, functionSources } from './functions.ts';
import { openTestDatabase, testDrivers } from './testing.ts';
import { rows } from './index.ts';

describe.each(testDrivers())('the database functions on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(driver);
  });
  afterAll(async () => database?.close());

  it('are each defined by a source file', async () => {
    const created = [...(await functionDefinitions(database.db)).keys()];
    expect(functionSources().map((s) => s.name)).toEqual(created.sort());
  });

  it('are what their source files define', async () => {
    expect(await changedFunctions(database.db)).toEqual([]);
  });

  it('plan each reservation statement once per connection and never scan a whole table', async () => {
    // A custom plan made on every call (plan_cache_mode auto, once the generic plan's estimate
    // looked dearer) cost a reservation a third of its database CPU: 1.03 ms against 0.65 ms.
    const settings = await rows<{ name: string; config: string[] | null }>(
      database.db,
      sql`SELECT p.proname AS name, p.proconfig AS config FROM pg_proc p
           WHERE p.pronamespace = current_schema()::regnamespace
             AND (p.proname LIKE 'reserv%' OR p.proname = 'claim_hold') ORDER BY 1`,
    );
    expect(settings.map((f) => f.name)).toEqual([
      'claim_hold',
      'reservation_basket',
      'reserve_attempt',
      'reserve_basket',
      'reserve_claims',
      'reserve_sale',
    ]);
    for (const f of settings)
      expect({ name: f.name, config: [...(f.config ?? [])].sort() }).toEqual({
        name: f.name,
        config: ['enable_seqscan=off', 'plan_cache_mode=force_generic_plan'],
      });
  });

  it('are told apart from a source file changed since the migrations', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'holdfast-functions-'));
    const claimHold = functionSources().find((s) => s.name === 'claim_hold')!;
    writeFileSync(path.join(folder, 'claim_hold.sql'), claimHold.text.replace('SET enable_seqscan = off ', ''));
    writeFileSync(
      path.join(folder, 'reserve_nothing.sql'),
      'CREATE OR REPLACE FUNCTION reserve_nothing() RETURNS void LANGUAGE plpgsql AS $fn$ BEGIN END $fn$;\n',
    );
    expect(await changedFunctions(database.db, functionSources(folder))).toEqual([
      { name: 'claim_hold', change: 'changed' },
      { name: 'reserve_nothing', change: 'new' },
    ]);
    // Trying a file leaves the database as it was.
    expect((await functionDefinitions(database.db)).has('reserve_nothing')).toBe(false);
    expect(await changedFunctions(database.db)).toEqual([]);
  });
});
