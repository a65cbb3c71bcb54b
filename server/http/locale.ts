/**
 * The language of each request (docs/i18n.md). In order: the buyer's choice (the `hf_lang`
 * cookie, set by the footer's picker, which also keeps it on their account); a signed-in buyer's
 * account; the browser's Accept-Language; the organiser's default language, where a page knows its
 * organiser; en-GB. The request's catalogue is what every message read during it is written in
 * (i18n/runtime.ts `t`), the server's pages, its answers and the checkout's page alike.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  dirOf,
  isLanguage,
  isLocale,
  LOCALE_COOKIE,
  negotiate,
  SOURCE_LOCALE,
  type Locale,
} from '../../i18n/locales.ts';
import type { Database as Db } from '../db/index.ts';
import { accountLanguage, saveAccountLanguage } from '../domain/accountLanguage.ts';
import { currentScope, enterScope, leaveScope, type ScopeLanguage } from '../languageScope.ts';
import { userIdOf } from './session.ts';

/** The chosen language lasts a year. */
const COOKIE_SECONDS = 365 * 24 * 3600;

/** A locale a cookie or an account may name: a language, or in demo mode a pseudo-locale too (for tests). */
function acceptable(value: unknown, demo: boolean): Locale | undefined {
  if (isLanguage(value)) return value;
  return demo && isLocale(value) ? value : undefined;
}

/**
 * Requests answered in another language than the source, and pages whose language their organiser
 * or account may still choose, run in a language scope (server/languageScope.ts); a request in the
 * source language that nothing else can change answers outside any.
 */
const isPage = (request: FastifyRequest) => request.method === 'GET' && !request.url.startsWith('/ajax/');
/** How each scoped request's scope ends, until it has. */
const scopeEnds = new WeakMap<FastifyReply['raw'], () => void>();

/**
 * Ends a request's language scope before its response does: for a reply that stays open long after
 * its words are written (a queue page's event stream, which carries states, not words), so the
 * scope's hooks do not slow every other request for as long as it is open.
 */
export function endLanguageScope(reply: FastifyReply): void {
  const end = scopeEnds.get(reply.raw);
  if (!end) return;
  reply.raw.off('close', end);
  end();
}

export function registerLocale(app: FastifyInstance, { db, demo }: { db: Db; demo: boolean }): void {
  app.addHook('onRequest', (request, reply, done) => {
    const chosen = acceptable(request.cookies[LOCALE_COOKIE], demo);
    const browser = negotiate(request.headers['accept-language']);
    const current: ScopeLanguage = chosen
      ? { locale: chosen, from: 'cookie' }
      : browser
        ? { locale: browser, from: 'browser' }
        : { locale: SOURCE_LOCALE, from: 'default' };
    const run = () => {
      // A request whose connection closed meanwhile (while its account was read) has nothing to answer in a scope.
      if (reply.raw.destroyed) return done();
      // The response's close, whether it was sent or its connection dropped, ends the scope. Only a
      // scoped request listens: a hook on every response would cost every request (a read of the
      // checkout, say) for the few that are scoped.
      const end = () => {
        scopeEnds.delete(reply.raw);
        leaveScope();
      };
      scopeEnds.set(reply.raw, end);
      reply.raw.once('close', end);
      enterScope(current, done);
    };
    const page = isPage(request);
    const userId = page && current.from !== 'cookie' ? userIdOf(request) : null;
    if (userId === null)
      return current.locale !== SOURCE_LOCALE || (page && current.from === 'default') ? run() : done();
    // A signed-in buyer who has not chosen in this browser gets their account's language on the pages they open.
    accountLanguage(db, userId).then((language) => {
      const saved = acceptable(language, demo);
      if (saved) Object.assign(current, { locale: saved, from: 'account' });
      if (current.locale !== SOURCE_LOCALE || current.from === 'default') run();
      else done();
    }, done);
  });
}

/** The request's locale. */
export function requestLocale(): Locale {
  return currentScope()?.locale ?? SOURCE_LOCALE;
}

/** The request's writing direction. */
export function requestDir(): 'ltr' | 'rtl' {
  return dirOf(requestLocale());
}

/** Where the request's locale came from: the organiser's default applies only when nothing else chose. */
export function organiserLanguage(language: string | null | undefined): void {
  const current = currentScope();
  if (current && current.from === 'default' && isLanguage(language))
    Object.assign(current, { locale: language, from: 'organiser' });
}

/** The buyer's choice: kept in the cookie, and on their account when they are signed in. */
export async function chooseLanguage(
  request: FastifyRequest,
  reply: FastifyReply,
  db: Db,
  locale: Locale,
): Promise<void> {
  reply.setCookie(LOCALE_COOKIE, locale, {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secure: request.protocol === 'https',
    maxAge: COOKIE_SECONDS,
  });
  const userId = userIdOf(request);
  if (userId !== null) await saveAccountLanguage(db, userId, locale);
}

/** The `lang` and `dir` attributes of a page's html element. */
export function htmlAttributes(): string {
  return `lang="${requestLocale()}" dir="${requestDir()}"`;
}

export { acceptable as acceptableLocale };
