/**
 * What the app's pages tell its script about the site's outside services, as meta tags: Sentry's
 * DSN when errors go to Sentry, and where analytics' scripts load from once a buyer consents.
 */
import type { Config } from '../config.ts';
import { esc } from '../views/html.ts';

export function telemetryMeta(config: Pick<Config, 'sentryDsn' | 'analytics'>): string {
  const tags: [string, string | null | undefined][] = [
    ['sentry-dsn', config.sentryDsn],
    ['analytics-tag-url', config.analytics?.tagUrl],
    ['analytics-pixel-url', config.analytics?.pixelUrl],
  ];
  return tags
    .filter((t): t is [string, string] => typeof t[1] === 'string' && t[1] !== '')
    .map(([name, content]) => `<meta name="${name}" content="${esc(content)}">`)
    .join('');
}
