/**
 * The language kept on a buyer's account (docs/i18n.md): the pages a signed-in buyer opens are in
 * it until they choose another in the browser, and their choice is kept on it; e-mails sent
 * outside the recipient's own request are written in it.
 */
import { eq } from 'drizzle-orm';
import { isLanguage, SOURCE_LOCALE, type Language } from '../../i18n/locales.ts';
import type { Database } from '../db/index.ts';
import { organisers, users } from '../db/schema.ts';
import { currentScope, inLocale } from '../languageScope.ts';

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

/**
 * The language of an e-mail or text message that is not an answer to its recipient's own request
 * (a job's, or one sent to someone else): the language saved on the recipient's account, else the
 * organiser's default, else the source's English.
 */
export async function recipientLanguage(
  db: Database,
  who: { userId?: number | null; email?: string | null; organiserId?: number | null },
): Promise<Language> {
  const [account] =
    who.userId != null
      ? await db.select({ language: users.language }).from(users).where(eq(users.id, who.userId))
      : who.email
        ? await db.select({ language: users.language }).from(users).where(eq(users.email, who.email))
        : [];
  if (isLanguage(account?.language)) return account.language;
  if (who.organiserId != null) {
    const [organiser] = await db
      .select({ language: organisers.defaultLanguage })
      .from(organisers)
      .where(eq(organisers.id, who.organiserId));
    if (isLanguage(organiser?.language)) return organiser.language;
  }
  return SOURCE_LOCALE;
}

/** Writes what `write` returns (an e-mail, a text) in the language of its recipient (recipientLanguage). */
export async function writtenFor<T>(
  db: Database,
  who: Parameters<typeof recipientLanguage>[1],
  write: () => T | Promise<T>,
): Promise<T> {
  return inLocale(await recipientLanguage(db, who), write);
}

/**
 * Writes a message to the buyer whose work may run in their own request or in a job (their wallet,
 * their plan's schedule): in the language their request chose, else as recipientLanguage says.
 */
export async function writtenForBuyer<T>(
  db: Database,
  who: Parameters<typeof recipientLanguage>[1],
  write: () => T | Promise<T>,
): Promise<T> {
  return currentScope() ? write() : writtenFor(db, who, write);
}
