/**
 * The language kept on a buyer's account (docs/i18n.md): the pages a signed-in buyer opens are in
 * it until they choose another in the browser, and their choice is kept on it.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { users } from '../db/schema.ts';

/** The language saved on the account, if any. */
export function accountLanguage(db: Database, userId: number): Promise<string | null | undefined> {
  return db
    .select({ language: users.language })
    .from(users)
    .where(eq(users.id, userId))
    .then(([row]) => row?.language);
}

/** Keeps the buyer's choice of language on their account. */
export async function saveAccountLanguage(db: Database, userId: number, language: string): Promise<void> {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}
