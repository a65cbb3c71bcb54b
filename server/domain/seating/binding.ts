/**
 * The seating provider a database's seated sales go through: seats.io when keyed, else none (our
 * own holds in the database). Bound once where the server's providers are built, and read by the
 * domain's basket, reservation and completion, which all start from the same database handle.
 */
import type { Database } from '../../db/index.ts';
import type { SeatingProvider } from './provider.ts';

const bound = new WeakMap<Database, SeatingProvider>();

export function bindSeating(db: Database, provider: SeatingProvider | null): void {
  if (provider) bound.set(db, provider);
  else bound.delete(db);
}

export function seatingOf(db: Database): SeatingProvider | null {
  return bound.get(db) ?? null;
}
