import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { mayWrite, writeWatchOf } from './writeWatch.ts';
import { openTestDatabase } from './testing.ts';
import type { OpenDatabase } from './index.ts';

describe('what counts as a possible write on the embedded database', () => {
  const volatile = new Set(['reserve_basket', 'claim_hold']);

  it('lets plain reads and the STABLE functions read', () => {
    expect(mayWrite('select "id", "name" from "ticket_types" where "id" = $1', volatile)).toBe(false);
    expect(mayWrite('SELECT sale_id, version FROM checkout_versions($1::text[], $2::int[])', volatile)).toBe(false);
    expect(mayWrite('  with x as (select 1) select count(*) from x', volatile)).toBe(false);
    // A column named like a command is still only read.
    expect(mayWrite('select "updated_at", "deleted" from "sales"', volatile)).toBe(false);
  });

  it('counts commands, locks, sequences and VOLATILE functions as writes', () => {
    for (const text of [
      'insert into "sales" ("id") values ($1)',
      'UPDATE sale_lines SET qty = 1',
      'delete from "sale_lines" where "sale_id" = $1',
      'WITH gone AS (DELETE FROM holds RETURNING id) SELECT count(*) FROM gone',
      'select * from "sales" where "id" = $1 for update',
      'SELECT id FROM pools WHERE id = 1 FOR NO KEY UPDATE',
      "select nextval('sales_id_seq')",
      'SELECT reserve_basket($1, $2)',
      'select Claim_Hold ($1)',
      'BEGIN',
      'vacuum',
      'truncate sales',
    ])
      expect(mayWrite(text, volatile), text).toBe(true);
  });
});

describe('the write watch on a real embedded database', () => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('pglite');
  });
  afterAll(async () => database?.close());

  it('moves on after a write, a transaction or a VOLATILE function, and stands still for reads', async () => {
    const watch = writeWatchOf(database.db)!;
    const { db } = database;
    let last = watch.count;
    const moved = () => {
      const did = watch.count !== last;
      last = watch.count;
      return did;
    };
    await db.execute(sql`SELECT count(*) FROM sales`);
    expect(moved()).toBe(false);
    await db.execute(sql`CREATE TEMP TABLE t (n int)`);
    expect(moved()).toBe(true);
    await db.execute(sql`INSERT INTO t VALUES (1)`);
    expect(moved()).toBe(true);
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
    });
    expect(moved()).toBe(true);
    await db.execute(sql`SELECT reserve_sale('none', '[]'::jsonb, now(), now(), 0, 0)`).catch(() => undefined);
    expect(moved()).toBe(true);
    await db.execute(sql`SELECT * FROM checkout_versions(ARRAY['none']::text[], ARRAY[NULL]::int[])`);
    expect(moved()).toBe(false);
  });

  it('is not set on PostgreSQL, which other processes share', () => {
    expect(writeWatchOf({ $client: {} } as never)).toBeNull();
  });
});
