/**
 * The checkout read runs on nearly every request, so on PostgreSQL it is a prepared statement:
 * parsed and planned once per connection, then only executed. PGlite and open transactions run
 * the same text as a plain statement, with the same answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { preparedRows, rows, type OpenDatabase } from './index.ts';
import { openTestDatabase, testDrivers } from './testing.ts';

describe.each(testDrivers())('a prepared statement on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    // One connection, so the statement it prepared is seen by the next query.
    database = await openTestDatabase(driver, 1);
  });
  afterAll(async () => database?.close());

  it('binds each parameter by its number, wherever it appears in the text', async () => {
    const text = 'SELECT $2::int - $1::int AS difference, $1::text AS first, $3::text IS NULL AS none';
    for (const values of [
      [3, 10, null],
      [5, 5, 'x'],
    ]) {
      const [row] = await preparedRows<{ difference: number; first: string; none: boolean }>(
        database.db,
        'difference',
        text,
        values,
      );
      expect(row).toEqual({
        difference: Number(values[1]) - Number(values[0]),
        first: String(values[0]),
        none: values[2] === null,
      });
    }
  });

  it('runs inside a transaction as a plain statement', async () => {
    const answer = await database.db.transaction(async (tx) =>
      preparedRows<{ n: number }>(tx, 'in_transaction', 'SELECT $1::int + 1 AS n', [41]),
    );
    expect(answer).toEqual([{ n: 42 }]);
  });

  // PGlite has one connection and no statement names to keep: this promise is PostgreSQL's alone.
  if (driver === 'postgres') {
    it('is prepared once on the connection and kept there under its name', async () => {
      await preparedRows(database.db, 'kept_statement', 'SELECT $1::int AS n', [1]);
      await preparedRows(database.db, 'kept_statement', 'SELECT $1::int AS n', [2]);
      const prepared = await rows<{ name: string; statement: string }>(
        database.db,
        sql`SELECT name, statement FROM pg_prepared_statements WHERE name = 'kept_statement'`,
      );
      expect(prepared).toEqual([{ name: 'kept_statement', statement: 'SELECT $1::int AS n' }]);
    });
  }
});
