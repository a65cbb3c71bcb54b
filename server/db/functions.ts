/**
 * The PL/pgSQL functions. Each one's current definition is its file in server/db/functions/, the
 * source a change is reviewed in; the migrations are what put it in a database. `npm run
 * db:functions` writes a migration for each file that no longer matches what the migrations
 * create, and a test fails while one does not.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { rows, type Database } from './index.ts';

export const functionsFolder = fileURLToPath(new URL('./functions', import.meta.url));

export interface FunctionSource {
  name: string;
  /** The file's whole text: comments, then one CREATE OR REPLACE FUNCTION statement. */
  text: string;
}

/** Every function's source file, by name. */
export function functionSources(folder: string = functionsFolder): FunctionSource[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ name: path.basename(file, '.sql'), text: readFileSync(path.join(folder, file), 'utf8') }));
}

/** The PL/pgSQL functions of the current schema, as PostgreSQL prints them back (`pg_get_functiondef`). */
export async function functionDefinitions(db: Pick<Database, 'execute'>): Promise<Map<string, string>> {
  const found = await rows<{ name: string; definition: string }>(
    db,
    sql`SELECT p.proname AS name, pg_get_functiondef(p.oid) AS definition
          FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
         WHERE p.pronamespace = current_schema()::regnamespace AND l.lanname = 'plpgsql'
         ORDER BY p.proname`,
  );
  return new Map(found.map((f) => [f.name, f.definition]));
}

export interface FunctionChange {
  name: string;
  /** new: the migrations do not create it; changed: they create another definition; or why running the file failed. */
  change: 'new' | 'changed' | { error: string };
}

class RolledBack extends Error {}

/**
 * The source files that would change what the migrated database holds. Each file is run in a
 * transaction that is then rolled back, and the definition PostgreSQL prints for the function
 * after it is compared with the one before: the comparison is PostgreSQL's own, so a file differs
 * only where the function would (its body, arguments, result, volatility, settings).
 */
export async function changedFunctions(
  db: Database,
  sources: FunctionSource[] = functionSources(),
): Promise<FunctionChange[]> {
  const before = await functionDefinitions(db);
  const changes: FunctionChange[] = [];
  for (const source of sources) {
    let after: string | undefined;
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql.raw(source.text));
        after = (await functionDefinitions(tx)).get(source.name);
        throw new RolledBack();
      });
    } catch (err) {
      if (!(err instanceof RolledBack)) {
        changes.push({ name: source.name, change: { error: err instanceof Error ? err.message : String(err) } });
        continue;
      }
    }
    const was = before.get(source.name);
    if (was === undefined) changes.push({ name: source.name, change: 'new' });
    else if (after !== was) changes.push({ name: source.name, change: 'changed' });
  }
  return changes;
}
