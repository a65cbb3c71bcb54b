/**
 * Error reporting (spec 000 §1, §7): the error-reporting service is told who the current user is
 * (id and e-mail) once the user is fetched, and is sent the app's errors. With a Sentry DSN on the
 * page (SENTRY_DSN), Sentry's browser SDK, loaded only when the first error comes; without one, the
 * server's own log (POST ERROR_REPORT_PATH). Telemetry, not product behaviour: it never throws.
 */
import { ERROR_REPORT_PATH, MAX_ERROR_MESSAGE, MAX_ERROR_STACK } from '../contract/errorReportLimits';

export interface ReportedUser {
  id: number;
  email: string;
}

/** The page's meta tag that carries Sentry's DSN when one is keyed. */
export const SENTRY_DSN_META = 'sentry-dsn';

let currentUser: ReportedUser | null = null;
const sentryUser = () => (currentUser ? { id: String(currentUser.id), email: currentUser.email } : null);
type Sentry = typeof import('@sentry/browser');
let sentry: Promise<Sentry | null> | null = null;

function dsnOf(doc: Document): string | null {
  return doc.querySelector<HTMLMetaElement>(`meta[name="${SENTRY_DSN_META}"]`)?.content || null;
}

/** Sentry's SDK, loaded and started on first use; null when no DSN is keyed or it cannot load. */
function loadSentry(): Promise<Sentry | null> {
  const dsn = typeof document === 'undefined' ? null : dsnOf(document);
  if (!dsn) return Promise.resolve(null);
  sentry ??= import('@sentry/browser')
    .then((s) => {
      // Errors come through reportError alone: Sentry's own global handlers are left out.
      s.init({ dsn, defaultIntegrations: false });
      s.setUser(sentryUser());
      return s;
    })
    .catch(() => null);
  return sentry;
}

/** Tells the error-reporting service who the current user is (null: nobody is signed in). */
export function reportUser(user: ReportedUser | null): void {
  currentUser = user ? { id: user.id, email: user.email } : null;
  if (sentry) void sentry.then((s) => s?.setUser(sentryUser()));
}

/** Text as the server takes it: no control characters but a stack's line breaks, and not too long. */
function clean(text: string, max: number, keepLineBreaks = false): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  const stripped = keepLineBreaks ? text.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ') : text.replace(/[\p{Cc}\p{Cs}]/gu, ' ');
  return stripped.slice(0, max);
}

/** Sends an error to the error-reporting service, with the current user. */
export async function reportError(error: unknown): Promise<void> {
  try {
    const s = await loadSentry();
    if (s) {
      s.captureException(error);
      return;
    }
    const err = error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'A non-error value was thrown');
    const body = new URLSearchParams({
      message: clean(`${err.name}: ${err.message}`, MAX_ERROR_MESSAGE) || 'Error',
      page: clean(`${window.location.pathname}${window.location.search}`, 2000) || '/',
    });
    if (err.stack) body.set('stack', clean(err.stack, MAX_ERROR_STACK, true));
    if (currentUser) {
      body.set('user_id', String(currentUser.id));
      body.set('email', clean(currentUser.email, 320));
    }
    await fetch(ERROR_REPORT_PATH, { method: 'POST', body, credentials: 'same-origin', keepalive: true });
  } catch {
    // The report is lost; the buyer's page carries on.
  }
}

/** Reports the page's uncaught errors and unhandled rejections. */
export function installErrorReporting(target: Window = window): void {
  target.addEventListener('error', (event) => void reportError(event.error ?? event.message));
  target.addEventListener('unhandledrejection', (event) => void reportError(event.reason));
}
