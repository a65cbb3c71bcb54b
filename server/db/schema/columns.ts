/** Column types the tables share, so each kind of value is stored one way everywhere. */
import { integer, timestamp } from 'drizzle-orm/pg-core';

/** Money: an integer count of the currency's minor units (pence, cents), never a float. */
export const money = <N extends string>(name: N) => integer(name);

/** A moment to the millisecond, as a JavaScript Date holds it, so what is written reads back equal. */
export const moment = <N extends string>(name: N) =>
  timestamp(name, { withTimezone: true, mode: 'date', precision: 3 });

/** A moment at PostgreSQL's own precision (microseconds), for times the database stamps itself. */
export const timestamptz = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });
