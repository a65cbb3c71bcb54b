/**
 * The database's type, whichever driver opened it (server/db/index.ts): the handle every query is
 * made through, and what a domain function takes to run in a transaction or outside one.
 */
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database handle or an open transaction: domain functions accept either. */
export type Executor = Pick<
  Database,
  'select' | 'selectDistinctOn' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction' | 'query'
>;
