/**
 * Every locale's catalogue, read and compiled once, for the server and the tests (Node only; the
 * browser gets the active one in its page). en-GB and cy are the folder's files; en-XA and ar-XB
 * are generated from en-GB.
 */
import { readFileSync } from 'node:fs';
import { compileMessage } from './compile.ts';
import { LANGUAGES, PSEUDO_LOCALES, SOURCE_LOCALE, type Locale } from './locales.ts';
import { accented, mirrored } from './pseudo.ts';
import { installCatalogue, t, type Catalogue, type Message, type MessageKey } from './runtime.ts';

export type Sources = Record<string, string>;

/** A locale's messages as written (ICU source), by key. */
export function sources(locale: Locale): Sources {
  if (locale === 'en-XA') return mapValues(sources(SOURCE_LOCALE), accented);
  if (locale === 'ar-XB') return mapValues(sources(SOURCE_LOCALE), mirrored);
  return JSON.parse(
    readFileSync(new URL(`../contract/messages/locales/${locale}.json`, import.meta.url), 'utf8'),
  ) as Sources;
}

function mapValues(from: Sources, f: (s: string) => string): Sources {
  return Object.fromEntries(Object.entries(from).map(([k, v]) => [k, f(v)]));
}

export const ALL_LOCALES: Locale[] = [...LANGUAGES.map((l) => l.locale), ...PSEUDO_LOCALES];

const compiled = new Map<Locale, Catalogue>();

/** A locale's compiled catalogue; a key it lacks falls back to en-GB's message. */
export function catalogueFor(locale: Locale): Catalogue {
  let catalogue = compiled.get(locale);
  if (!catalogue) {
    const source = sources(SOURCE_LOCALE);
    const own = locale === SOURCE_LOCALE ? source : sources(locale);
    const messages: Record<string, Message> = {};
    for (const key of Object.keys(source))
      messages[key] = compileMessage(
        own[key] ?? source[key]!,
        locale.endsWith('-XA') || locale.endsWith('-XB') ? undefined : locale,
      );
    catalogue = { locale, messages };
    compiled.set(locale, catalogue);
  }
  return catalogue;
}

/** The part of a catalogue the app's page carries: every message but the server's own (e-mails, pages, texts). */
export function appCatalogue(locale: Locale): Catalogue {
  const full = catalogueFor(locale);
  const key = `app ${locale}`;
  let app = appCatalogues.get(key);
  if (!app) {
    app = { locale, messages: Object.fromEntries(Object.entries(full.messages).filter(([k]) => !SERVER_ONLY.test(k))) };
    appCatalogues.set(key, app);
  }
  return app;
}
const appCatalogues = new Map<string, Catalogue>();
/** The server's own messages, and the queue page's, which only the queue page carries (`queueCatalogue`). */
const SERVER_ONLY = /^(mail|page|sms|queue)\./;

/** The part of a catalogue the queue page carries for its script: the `queue.*` messages alone. */
export function queueCatalogue(locale: Locale): Catalogue {
  let queue = queueCatalogues.get(locale);
  if (!queue) {
    queue = {
      locale,
      messages: Object.fromEntries(
        Object.entries(catalogueFor(locale).messages).filter(([k]) => k.startsWith('queue.')),
      ),
    };
    queueCatalogues.set(locale, queue);
  }
  return queue;
}
const queueCatalogues = new Map<Locale, Catalogue>();

export type { MessageKey };

/** en-GB, for whatever runs before a request or a page chooses a locale (the server's start, the tests). */
export function installSourceCatalogue(): void {
  installCatalogue(catalogueFor(SOURCE_LOCALE));
}

/** A message of the source catalogue as written: for tests that assert the spec's English. */
export function sourceText(key: MessageKey): string {
  return sources(SOURCE_LOCALE)[key]!;
}

/** Keys of the domain's refusals, whose English the domain writes itself (server/domain/*: `…_MESSAGE`). */
const REFUSALS = 'page.refusal.';
let refusalKeys: Map<string, MessageKey> | undefined;

/**
 * A refusal the server's domain wrote in the source's English, in the active language: the
 * catalogue's `page.refusal.*` message whose en-GB text it is, else the text as written. The pages
 * show a refusal through it, so the domain's constants stay what its callers compare.
 */
export function inActiveLanguage(text: string): string {
  refusalKeys ??= new Map(
    Object.entries(sources(SOURCE_LOCALE))
      .filter(([key]) => key.startsWith(REFUSALS))
      .map(([key, english]) => [english, key as MessageKey]),
  );
  const key = refusalKeys.get(text);
  return key ? t(key) : text;
}
