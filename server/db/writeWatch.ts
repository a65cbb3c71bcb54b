/**
 * Whether anything may have been written to an embedded database since a moment: a count of the
 * statements that can write, moved on as each one ends.
 *
 * Only PGlite is watched. It lives inside this process, which is the only one that can open its
 * data directory, so every write to it passes through its client here: while the count stands
 * still, nothing in the database has changed, and a read made after the count was taken still
 * holds. PostgreSQL is shared with other processes and is never watched (`writeWatchOf` answers
 * null); its readers ask the database.
 *
 * A statement counts as a possible write unless it plainly reads: a SELECT (or WITH … SELECT)
 * naming no writing command, no `FOR UPDATE`/`FOR SHARE` lock and none of the database's own
 * VOLATILE functions (PostgreSQL refuses a write inside a STABLE or IMMUTABLE function, so only
 * VOLATILE ones can write). A transaction, a multi-statement `exec` and anything unrecognised count
 * too. Counting a read as a write only costs a read; the reverse cannot happen.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from './database.ts';

export interface WriteWatch {
  /** Moves on after every statement or transaction that may have written, once it has ended. */
  readonly count: number;
}

const WRITING_WORDS =
  /\b(insert|update|delete|merge|truncate|copy|call|do|nextval|setval|for\s+(no\s+key\s+)?(update|share|key\s+share))\b/i;
const READING_START = /^\s*(\(\s*)*(select|with|values|table)\b/i;

/** Whether `text` may write, given the names of the database's VOLATILE functions (lower case). */
export function mayWrite(text: string, volatileFunctions: ReadonlySet<string>): boolean {
  if (!READING_START.test(text) || WRITING_WORDS.test(text)) return true;
  for (const [, name] of text.matchAll(/\b([a-z_][a-z0-9_]*)\s*\(/gi))
    if (volatileFunctions.has(name!.toLowerCase())) return true;
  return false;
}

const WATCH = Symbol.for('holdfast.writeWatch');

/** The watch on this database's writes, or null when it is not a watched embedded database. */
export function writeWatchOf(db: Pick<Database, 'execute'>): WriteWatch | null {
  const client = (db as { $client?: { [WATCH]?: WriteWatch } } | null)?.$client;
  return client?.[WATCH] ?? null;
}

/**
 * Starts watching an embedded database's writes. Called as it is opened, once migrated: the
 * functions a migration creates later are not known to it.
 */
export async function watchWrites(client: PGlite): Promise<void> {
  if ((client as { [WATCH]?: WriteWatch })[WATCH]) return;
  const state = { count: 0 };
  const volatile = new Set<string>();
  const found = await client.query<{ name: string }>(
    `SELECT DISTINCT lower(p.proname) AS name FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE p.provolatile = 'v' AND n.nspname NOT IN ('pg_catalog', 'information_schema')`,
  );
  for (const { name } of found.rows) volatile.add(name);
  const ended = <T>(work: Promise<T>): Promise<T> =>
    work.finally(() => {
      state.count++;
    });
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  Object.assign(client, {
    query: ((text: string, params?: unknown[], options?: never) =>
      mayWrite(text, volatile) ? ended(query(text, params, options)) : query(text, params, options)) as PGlite['query'],
    exec: ((text: string, options?: never) => ended(exec(text, options))) as PGlite['exec'],
    transaction: ((callback: Parameters<PGlite['transaction']>[0]) =>
      ended(transaction(callback))) as PGlite['transaction'],
    [WATCH]: state,
  });
}
