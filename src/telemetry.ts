/**
 * Error reporting (spec 000 §1, §7): the error-reporting service is told who the current user is
 * (id and e-mail) once the user is fetched, and is sent the app's errors. With a Sentry DSN on the
 * page (SENTRY_DSN), Sentry's browser SDK, loaded only when the first error comes; without one, the
 * server's own log (POST ERROR_REPORT_PATH). What sends (src/telemetrySend.ts) loads with the first
 * error, so the first screen carries only this. Telemetry, not product behaviour: it never throws.
 */

import type { ReportedUser } from './reportedUser';

export { SENTRY_DSN_META, type ReportedUser } from './reportedUser';

let currentUser: ReportedUser | null = null;
let sender: Promise<typeof import('./telemetrySend')> | null = null;

/** Tells the error-reporting service who the current user is (null: nobody is signed in). */
export function reportUser(user: ReportedUser | null): void {
  currentUser = user ? { id: user.id, email: user.email } : null;
  const now = currentUser;
  if (sender)
    void sender.then(
      (s) => s.userChanged(now),
      () => undefined,
    );
}

/** Sends an error to the error-reporting service, with the current user. */
export async function reportError(error: unknown): Promise<void> {
  try {
    sender ??= import('./telemetrySend').catch((err: unknown) => {
      sender = null;
      throw err;
    });
    await (await sender).sendError(error, currentUser);
  } catch {
    // The report is lost (its sender could not load, or the report could not go); the buyer's page carries on.
  }
}

/** Reports the page's uncaught errors and unhandled rejections. */
export function installErrorReporting(target: Window = window): void {
  target.addEventListener('error', (event) => void reportError(event.error ?? event.message));
  target.addEventListener('unhandledrejection', (event) => void reportError(event.reason));
}
