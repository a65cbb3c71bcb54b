/**
 * The sending half of the error reporting (src/telemetry.ts), loaded with the first error or the
 * first user once Sentry is in use: Sentry's browser SDK when the page carries a DSN, otherwise the
 * server's own log (POST ERROR_REPORT_PATH).
 */
import { ERROR_REPORT_PATH, MAX_ERROR_MESSAGE, MAX_ERROR_STACK } from '../contract/errorReportLimits';
import { SENTRY_DSN_META, type ReportedUser } from './reportedUser';

const sentryUser = (user: ReportedUser | null) => (user ? { id: String(user.id), email: user.email } : null);
type Sentry = typeof import('@sentry/browser');
let sentry: Promise<Sentry | null> | null = null;

function dsnOf(doc: Document): string | null {
  return doc.querySelector<HTMLMetaElement>(`meta[name="${SENTRY_DSN_META}"]`)?.content || null;
}

/** Sentry's SDK, loaded and started on first use; null when no DSN is keyed or it cannot load. */
function loadSentry(user: ReportedUser | null): Promise<Sentry | null> {
  const dsn = typeof document === 'undefined' ? null : dsnOf(document);
  if (!dsn) return Promise.resolve(null);
  sentry ??= import('@sentry/browser')
    .then((s) => {
      // Errors come through reportError alone: Sentry's own global handlers are left out.
      s.init({ dsn, defaultIntegrations: false });
      s.setUser(sentryUser(user));
      return s;
    })
    .catch(() => null);
  return sentry;
}

/** The user changed: Sentry, once started, is told. */
export function userChanged(user: ReportedUser | null): void {
  if (sentry) void sentry.then((s) => s?.setUser(sentryUser(user)));
}

/** Text as the server takes it: no control characters but a stack's line breaks, and not too long. */
function clean(text: string, max: number, keepLineBreaks = false): string {
  const stripped = keepLineBreaks
    ? // eslint-disable-next-line no-control-regex -- control characters are what it finds
      text.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ')
    : text.replace(/[\p{Cc}\p{Cs}]/gu, ' ');
  return stripped.slice(0, max);
}

/** Sends an error, with the current user. */
export async function sendError(error: unknown, user: ReportedUser | null): Promise<void> {
  const s = await loadSentry(user);
  if (s) {
    s.captureException(error);
    return;
  }
  const err =
    error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'A non-error value was thrown');
  const body = new URLSearchParams({
    message: clean(`${err.name}: ${err.message}`, MAX_ERROR_MESSAGE) || 'Error',
    page: clean(`${window.location.pathname}${window.location.search}`, 2000) || '/',
  });
  if (err.stack) body.set('stack', clean(err.stack, MAX_ERROR_STACK, true));
  if (user) {
    body.set('user_id', String(user.id));
    body.set('email', clean(user.email, 320));
  }
  await fetch(ERROR_REPORT_PATH, { method: 'POST', body, credentials: 'same-origin', keepalive: true });
}
