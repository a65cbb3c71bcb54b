/**
 * The messages' runtime, in the browser and on the server: a few lines and Intl, no library.
 * Messages are ICU MessageFormat, compiled ahead (i18n/compile.ts) to plain data: a message
 * without placeholders is its string; any other is a list of parts, each a string, 0 for a
 * plural's `#`, or [argument] / [argument, kind, cases, offset]. The app reads the active
 * locale's compiled catalogue from the page, which the server writes into it; the server picks
 * the request's catalogue (server/http/locale.ts).
 */
import { CATALOGUE_ID, dirOf, intlLocale, SOURCE_LOCALE } from './locales.ts';

export type Part =
  | string
  | 0
  | [arg: string]
  | [arg: string, kind: 1]
  | [arg: string, kind: 2 | 3, cases: Cases, offset?: number]
  | [arg: string, kind: 4, cases: Cases];
export type Message = string | Part[];
export type Cases = Record<string, Message>;
export type Values = Record<string, string | number | undefined>;

/** A locale's compiled messages, as the page carries them. */
export interface Catalogue {
  locale: string;
  messages: Record<string, Message>;
}

/** The source catalogue's keys. */
export type MessageKey = keyof typeof import('../contract/messages/locales/en-GB.json');

const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function rules(locale: string, ordinal: boolean): Intl.PluralRules {
  const id = `${locale} ${ordinal}`;
  let r = pluralRules.get(id);
  if (!r) pluralRules.set(id, (r = new Intl.PluralRules(locale, { type: ordinal ? 'ordinal' : 'cardinal' })));
  return r;
}

/** A number written as the locale writes it. */
export function formatNumber(n: number, locale = activeIntlLocale()): string {
  let f = numberFormats.get(locale);
  if (!f) numberFormats.set(locale, (f = new Intl.NumberFormat(locale)));
  return f.format(n);
}

/** One compiled message with its values, in `locale` (an Intl locale). */
export function formatMessage(message: Message, values: Values, locale: string, hash = 0): string {
  if (typeof message === 'string') return message;
  let out = '';
  for (const part of message) {
    if (typeof part === 'string') out += part;
    else if (part === 0) out += formatNumber(hash, locale);
    else {
      const value = values[part[0]];
      if (part.length === 1) out += value ?? '';
      else if (part[1] === 1) out += formatNumber(Number(value), locale);
      else if (part[1] === 4) out += formatMessage(part[2][String(value)] ?? part[2].other ?? '', values, locale, hash);
      else {
        const n = Number(value) - (part[3] ?? 0);
        const chosen =
          part[2][`=${Number(value)}`] ?? part[2][rules(locale, part[1] === 3).select(n)] ?? part[2].other ?? '';
        out += formatMessage(chosen, values, locale, n);
      }
    }
  }
  return out;
}

let pageCatalogue: Catalogue | undefined;
let source: (() => Catalogue | undefined) | undefined;

function fromPage(): Catalogue | undefined {
  if (pageCatalogue === undefined && typeof document !== 'undefined') {
    const text = document.getElementById(CATALOGUE_ID)?.textContent;
    if (text) pageCatalogue = JSON.parse(text) as Catalogue;
  }
  return pageCatalogue;
}

/** The catalogue in use: the server's for its request, else the page's (or the one installed). */
export function activeCatalogue(): Catalogue | undefined {
  return source?.() ?? fromPage();
}

/** Installs the catalogue used where no request's is set (the server's default, tests'). */
export function installCatalogue(catalogue: Catalogue): void {
  pageCatalogue = catalogue;
}

/** Lets the server choose each request's catalogue. */
export function setCatalogueSource(choose: () => Catalogue | undefined): void {
  source = choose;
}

/** The active locale, en-GB before any catalogue is loaded. */
export function activeLocale(): string {
  return activeCatalogue()?.locale ?? SOURCE_LOCALE;
}

/** The locale Intl formats in for the active locale. */
export function activeIntlLocale(): string {
  return intlLocale(activeLocale());
}

export function activeDir(): 'ltr' | 'rtl' {
  return dirOf(activeLocale());
}

/** The message `key` in the active locale, with its values. */
export function t(key: MessageKey, values: Values = {}): string {
  const catalogue = activeCatalogue();
  const message = catalogue?.messages[key];
  if (message === undefined) return key;
  return formatMessage(message, values, intlLocale(catalogue!.locale));
}
