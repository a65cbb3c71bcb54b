/** What the error reporting (src/telemetry.ts) and its sending half (src/telemetrySend.ts) both read. */

/** The user the error-reporting service is told of. */
export interface ReportedUser {
  id: number;
  email: string;
}

/** The page's meta tag that carries Sentry's DSN when one is keyed. */
export const SENTRY_DSN_META = 'sentry-dsn';
