/** A fingerprint of every row of every table, to prove a refused request changed nothing. */
import { getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../db/schema.ts';
import { rows, type Database } from '../db/index.ts';

const tableNames = (Object.values(schema) as unknown[])
  .filter((v): v is PgTable => is(v, PgTable))
  .map((t) => getTableName(t));

export async function databaseDigest(db: Database): Promise<string> {
  const parts = tableNames.map(
    (name) =>
      sql`SELECT ${name}::text || ':' || md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS part FROM ${sql.identifier(name)} t`,
  );
  const [row] = await rows<{ digest: string }>(
    db,
    sql`SELECT string_agg(part, '|' ORDER BY part) AS digest FROM (${sql.join(parts, sql` UNION ALL `)}) d`,
  );
  return row!.digest;
}
