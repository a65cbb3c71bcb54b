/**
 * The accented pseudo-locale's check (docs/i18n.md): in en-XA every word that came through the
 * catalogue has accents, so a piece of visible or spoken text with a letter and no accented letter
 * was written in place, unless it is data (an event's title, a venue, a name, a date, an amount).
 * The browser's check (e2e/languages.phone.spec.ts) and the server's (server/pseudoLocale.test.ts)
 * share it.
 */

/** A letter of the source's alphabet. */
export const LETTER = /[A-Za-z]/;
/** A letter the accented pseudo-locale writes (Latin-1 Supplement to Latin Extended-B, Latin Extended Additional). */
export const ACCENTED = /[\u00C0-\u024F\u1E00-\u1EFF]/;

/** Whether `text` reads as untranslated: it has a letter, no accented letter, and is not data. */
export function untranslated(text: string, isData: (text: string) => boolean): boolean {
  return LETTER.test(text) && !ACCENTED.test(text) && !isData(text.trim());
}
