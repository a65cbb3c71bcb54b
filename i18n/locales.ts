/**
 * The checkout's languages. en-GB is the source: its catalogue holds the spec's English word for
 * word, and every other catalogue has the same keys. The two pseudo-locales are generated from
 * en-GB (i18n/pseudo.ts), never written by hand, and are for tests: en-XA accents and lengthens
 * every message, ar-XB mirrors it right to left.
 */
export const SOURCE_LOCALE = 'en-GB';

/** The languages a buyer can choose, each named in itself (so the same in every language). */
export const LANGUAGES = [
  { locale: 'en-GB', name: 'English' },
  { locale: 'cy', name: 'Cymraeg' },
] as const;

export type Language = (typeof LANGUAGES)[number]['locale'];
export const PSEUDO_LOCALES = ['en-XA', 'ar-XB'] as const;
export type PseudoLocale = (typeof PSEUDO_LOCALES)[number];
export type Locale = Language | PseudoLocale;

/** The cookie that keeps a buyer's choice of language (docs/security.md). */
export const LOCALE_COOKIE = 'hf_lang';

/** The id of the page's script element that carries the active catalogue to the app. */
export const CATALOGUE_ID = 'holdfast-messages';

export function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((l) => l.locale === value);
}

export function isLocale(value: unknown): value is Locale {
  return isLanguage(value) || (PSEUDO_LOCALES as readonly unknown[]).includes(value);
}

/** The page's writing direction. */
export function dirOf(locale: string): 'ltr' | 'rtl' {
  return locale === 'ar-XB' ? 'rtl' : 'ltr';
}

/**
 * The locale Intl formats numbers, dates and plurals in: the pseudo-locales count and write
 * numbers as English does (ar-XB would otherwise bring Arabic digits and plural forms the
 * generated messages do not have).
 */
export function intlLocale(locale: string): string {
  return locale === 'en-XA' || locale === 'ar-XB' ? SOURCE_LOCALE : locale;
}

/**
 * The buyer's language from an Accept-Language header: the first range, by quality, that names
 * a language we have (`cy`, `cy-GB`; any English is en-GB). Pseudo-locales are never negotiated.
 */
export function negotiate(acceptLanguage: string | undefined): Language | undefined {
  if (!acceptLanguage) return undefined;
  const ranges = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    const primary = tag.split('-')[0];
    if (primary === 'cy') return 'cy';
    if (primary === 'en') return 'en-GB';
  }
  return undefined;
}
