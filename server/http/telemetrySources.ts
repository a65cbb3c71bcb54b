/**
 * The origins the page policy must allow for analytics (after a buyer's consent) and for error
 * reporting to Sentry: Google's tag (Analytics and Ads conversions), Meta's pixel, or a stand-in's
 * own origin; nothing for a path on this site.
 */
import { GOOGLE_TAG_URL, META_PIXEL_URL, type Config } from '../config.ts';

export interface Sources {
  script: string[];
  connect: string[];
  img: string[];
  frame: string[];
}

/** Google's documented sources for the tag with Analytics and Ads conversion tracking. */
const GOOGLE: Sources = {
  script: [
    'https://*.googletagmanager.com',
    'https://www.googleadservices.com',
    'https://googleads.g.doubleclick.net',
    'https://www.google.com',
  ],
  connect: [
    'https://*.google-analytics.com',
    'https://*.analytics.google.com',
    'https://*.googletagmanager.com',
    'https://googleads.g.doubleclick.net',
    'https://www.google.com',
    'https://pagead2.googlesyndication.com',
  ],
  img: [
    'https://*.google-analytics.com',
    'https://*.googletagmanager.com',
    'https://googleads.g.doubleclick.net',
    'https://www.google.com',
  ],
  frame: ['https://td.doubleclick.net', 'https://www.googletagmanager.com'],
};
/** Meta's pixel: its script, and the endpoint its events go to. */
const META: Sources = {
  script: ['https://connect.facebook.net'],
  connect: ['https://www.facebook.com'],
  img: ['https://www.facebook.com'],
  frame: [],
};

const none = (): Sources => ({ script: [], connect: [], img: [], frame: [] });

function sourcesOf(url: string | null, real: string, known: Sources): Sources {
  if (!url || url.startsWith('/')) return none();
  if (url === real) return known;
  // A stand-in elsewhere: its script, and the hits it sends home.
  const origin = new URL(url).origin;
  return { script: [origin], connect: [origin], img: [origin], frame: [] };
}

export function telemetrySources(config: { analytics?: Config['analytics']; sentryDsn?: string | null }): Sources {
  const tag = sourcesOf(config.analytics?.tagUrl ?? null, GOOGLE_TAG_URL, GOOGLE);
  const pixel = sourcesOf(config.analytics?.pixelUrl ?? null, META_PIXEL_URL, META);
  const sentry = config.sentryDsn ? [new URL(config.sentryDsn).origin] : [];
  const unique = (list: string[]) => [...new Set(list)];
  return {
    script: unique([...tag.script, ...pixel.script]),
    connect: unique([...tag.connect, ...pixel.connect, ...sentry]),
    img: unique([...tag.img, ...pixel.img]),
    frame: unique([...tag.frame, ...pixel.frame]),
  };
}
