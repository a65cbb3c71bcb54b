/**
 * The language messages are written in while some work runs (docs/i18n.md): a request's, or an
 * e-mail's recipient's. The scope is Node's AsyncLocalStorage, whose hooks slow every promise of
 * the process while they are on (about 80 µs more for each read of a checkout), so they are on
 * only while scoped work runs: a request in the source language that nothing else can change
 * answers outside any scope (where every message is the source's), and the hooks go off as the
 * last scoped work ends. The web layer (server/http/locale.ts) chooses each request's language;
 * the domain writes an e-mail sent outside a request in its recipient's (inLocale).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { catalogueFor, installSourceCatalogue } from '../i18n/catalogues.ts';
import type { Locale } from '../i18n/locales.ts';
import { setCatalogueSource } from '../i18n/runtime.ts';

/** Where a scope's language came from: the organiser's default applies only when nothing else chose. */
export type LanguageSource = 'cookie' | 'account' | 'browser' | 'organiser' | 'default';
export interface ScopeLanguage {
  locale: Locale;
  from: LanguageSource;
}

const store = new AsyncLocalStorage<ScopeLanguage>();
installSourceCatalogue();
setCatalogueSource(() => {
  const current = store.getStore();
  return current ? catalogueFor(current.locale) : undefined;
});

let scoped = 0;
function enter(): void {
  scoped++;
}
/** Ends one piece of scoped work (the hooks go off with the last). */
export function leaveScope(): void {
  scoped--;
  if (scoped === 0) store.disable();
}

/** How many pieces of scoped work are running: while none is, the hooks are off. */
export function scopesOpen(): number {
  return scoped;
}

/** Runs `f` in `current`'s scope; the caller ends it with leaveScope() once its work (a request) is over. */
export function enterScope(current: ScopeLanguage, f: () => void): void {
  enter();
  store.run(current, f);
}

/** The scope's language, if any work of the moment is scoped. */
export function currentScope(): ScopeLanguage | undefined {
  return store.getStore();
}

/** Runs `f` with messages in `locale` (an e-mail in its recipient's language, say), until what it returns has settled. */
export function inLocale<T>(locale: Locale, f: () => T): T {
  enter();
  let result: T;
  try {
    result = store.run({ locale, from: 'cookie' }, f);
  } catch (err) {
    leaveScope();
    throw err;
  }
  if (result instanceof Promise) return result.finally(leaveScope) as T;
  leaveScope();
  return result;
}
