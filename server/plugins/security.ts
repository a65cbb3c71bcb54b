/**
 * Security headers on every reply. Pages (and anything that is not an API call) get a strict
 * Content-Security-Policy (this origin only, widened exactly for the captcha provider and the card
 * processor that are configured), no framing, no MIME sniffing, a referrer policy, a
 * Permissions-Policy and the rest of helmet's document headers. The API's JSON replies (`/ajax/`,
 * `/health`, unless a browser asks for a page) get what a reply that is never a document needs, as OWASP's REST cheat sheet lists it:
 * a policy that allows nothing and no framing (`default-src 'none'; frame-ancestors 'none'`), no
 * sniffing, no framing for old browsers, same-origin resource policy and the referrer policy;
 * headers that only steer a document (Permissions-Policy, COOP, DNS prefetching…) would be bytes on
 * every call for nothing. Both get HSTS when the site is served over HTTPS (the request came over
 * HTTPS, as a trusted proxy tells it, or PUBLIC_URL is https).
 *
 * Inline code is allowed by hash, computed once at start from the pages' own stylesheet and
 * scripts. The checkout app's page gets a fresh style nonce per response, published in a
 * `csp-nonce` meta tag: the captcha widget reads it for the stylesheet it injects.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { telemetrySources } from '../http/telemetrySources.ts';

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()';
export const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers of the API's replies, which are JSON and never a document. */
export const API_HEADERS: readonly [string, string][] = [
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
  ['cross-origin-resource-policy', 'same-origin'],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

const isHttpsSite = (publicUrl: string | undefined) => publicUrl?.startsWith('https://') === true;

/** The headers of every API reply of a site at `publicUrl` (HSTS too when that is HTTPS). */
export function apiHeadersFor(publicUrl: string | undefined): [string, string][] {
  return isHttpsSite(publicUrl) ? [...API_HEADERS, ['strict-transport-security', HSTS]] : [...API_HEADERS];
}

/**
 * Whether a request is an API call answered in JSON: a call under /ajax/ or /health, unless a
 * browser asks for a document (a plain form posted to a call that answers it with a page, such as
 * the waiting list's), as the routes themselves tell the two apart.
 */
export function isApiRequest(url: string, accept: string | undefined): boolean {
  if (!(url.startsWith('/ajax/') || url === '/health' || url.startsWith('/health?'))) return false;
  const wanted = accept ?? '';
  return !(wanted.includes('text/html') && !wanted.includes('application/json'));
}

/** Where each provider's browser code lives, per directive. Only configured providers are added. */
const HCAPTCHA_SOURCES = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];
/** Stripe.js and its Payment Element's frames (3-D Secure pages come from hooks.stripe.com), and its API. */
const STRIPE_SCRIPT = ['https://js.stripe.com'];
const STRIPE_FRAMES = ['https://js.stripe.com', 'https://hooks.stripe.com'];
const STRIPE_CONNECT = ['https://api.stripe.com'];
/** Square's Web Payments SDK (square.js and its card frame) and the endpoint it tokenises with, live and sandbox. */
const SQUARE_SCRIPT = [
  'https://web.squarecdn.com',
  'https://sandbox.web.squarecdn.com',
  'https://js.squareup.com',
  'https://js.squareupsandbox.com',
];
const SQUARE_FRAMES = ['https://web.squarecdn.com', 'https://sandbox.web.squarecdn.com'];
const SQUARE_CONNECT = [
  'https://pci-connect.squareup.com',
  'https://pci-connect.squareupsandbox.com',
  'https://web.squarecdn.com',
  'https://sandbox.web.squarecdn.com',
];
const SQUARE_STYLES = ['https://web.squarecdn.com', 'https://sandbox.web.squarecdn.com'];

/**
 * seats.io's chart for the configured region: its chart.js and the frame it draws the chart in
 * (cdn-{region}.seatsio.net), and its API (api-{region}.seatsio.net).
 */
export function seatsioSources(region: string) {
  const cdn = `https://cdn-${region}.seatsio.net`;
  return { script: [cdn], frame: [cdn], connect: [`https://api-${region}.seatsio.net`] };
}

/** The providers the policy is widened for: the captcha when keyed, Stripe when keyed. */
export interface CspProviders extends Pick<Config, 'hcaptcha'> {
  stripe?: boolean;
  /** Square keyed: its SDK loads on the payment step of a Square organiser's basket. */
  square?: boolean;
  /** The accommodation map's embed URL: order completed frames it (its origin only). */
  accommodationMap?: { url: string } | null;
  /** The site's own address (PUBLIC_URL): when it is https, every reply carries HSTS. */
  publicUrl?: string;
  /** seats.io keyed: its chart loads on the seat page of a seats.io plan, from the region's hosts. */
  seatsio?: { region: string } | null;
  /** Analytics' scripts (loaded after a buyer's consent) and Sentry's DSN: their origins are allowed. */
  analytics?: Config['analytics'];
  sentryDsn?: string | null;
}

export function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export type Directives = Record<string, string[]>;

export function cspDirectives(
  config: CspProviders,
  inline: { styles: Iterable<string>; scripts: Iterable<string> },
): Directives {
  const captcha = config.hcaptcha ? HCAPTCHA_SOURCES : [];
  const stripe = config.stripe === true;
  const square = config.square === true;
  const accommodation = config.accommodationMap ? [new URL(config.accommodationMap.url).origin] : [];
  const telemetry = telemetrySources(config);
  const seatsio = config.seatsio ? seatsioSources(config.seatsio.region) : { script: [], frame: [], connect: [] };
  const frames = [
    ...captcha,
    ...(stripe ? STRIPE_FRAMES : []),
    ...(square ? SQUARE_FRAMES : []),
    ...seatsio.frame,
    ...accommodation,
    ...telemetry.frame,
  ];
  return {
    'default-src': ["'self'"],
    'script-src': [
      "'self'",
      ...[...inline.scripts].map(sha256Source),
      ...captcha,
      ...(stripe ? STRIPE_SCRIPT : []),
      ...(square ? SQUARE_SCRIPT : []),
      ...seatsio.script,
      ...telemetry.script,
    ],
    'style-src': ["'self'", ...[...inline.styles].map(sha256Source), ...captcha, ...(square ? SQUARE_STYLES : [])],
    'img-src': ["'self'", 'data:', ...telemetry.img],
    'font-src': ["'self'", 'data:'],
    'connect-src': [
      "'self'",
      ...captcha,
      ...(stripe ? STRIPE_CONNECT : []),
      ...(square ? SQUARE_CONNECT : []),
      ...seatsio.connect,
      ...telemetry.connect,
    ],
    'frame-src': frames.length ? frames : ["'none'"],
    // The local captcha solves its proof of work in web workers started from a blob.
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

export function serializeCsp(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The headers' helmet options, for a scope that sets a reply's policy of its own (pageStyleNonces). */
    helmetOptions: FastifyHelmetOptions;
  }
  interface FastifyReply {
    /**
     * A fresh nonce this reply's injected stylesheets may carry, added to its policy's style-src;
     * the page publishes it in its `csp-nonce` meta tag. Where pageStyleNonces is registered.
     */
    styleNonce(): string;
  }
}

export interface SecurityOptions {
  providers: CspProviders;
  /** The pages' own inline stylesheets and scripts, allowed by hash. */
  inline: { styles: Iterable<string>; scripts: Iterable<string> };
}

/**
 * The headers, on every reply before any route runs (so a 404 or a 429 carries them too), from
 * @fastify/helmet registered with these options and `global: false`: a page (anything that is not
 * an API call) gets `reply.helmet()`'s headers and the Permissions-Policy; an API call gets the
 * short list above, set as they are. Both get HSTS on an HTTPS site. A page that needs a policy of
 * its own calls `reply.helmet()` again with its options (pageStyleNonces), replacing these.
 */
async function securityHeaders(app: FastifyInstance, { providers, inline }: SecurityOptions): Promise<void> {
  const directives = cspDirectives(providers, inline);
  const options = {
    contentSecurityPolicy: { useDefaults: false, directives },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  } satisfies FastifyHelmetOptions;
  app.decorate('helmetOptions', options);
  await app.register(fastifyHelmet, { ...options, global: false });
  // Behind a proxy that terminates TLS but is not trusted (no TRUST_PROXY), the request looks like
  // plain HTTP: PUBLIC_URL says the site is HTTPS. A browser heeds the header only over HTTPS.
  const httpsSite = isHttpsSite(providers.publicUrl);
  const apiHeaders = apiHeadersFor(providers.publicUrl);
  // Helmet's middleware sets its headers at once (it calls back before returning): the hook needs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    if (isApiRequest(request.url, request.headers.accept)) {
      for (const [name, value] of apiHeaders) raw.setHeader(name, value);
    } else {
      void reply.helmet();
      raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
      if (httpsSite) raw.setHeader('strict-transport-security', HSTS);
    }
    if (!httpsSite && request.protocol === 'https') raw.setHeader('strict-transport-security', HSTS);
    done();
  });
}

export const security = fp(securityHeaders, { name: 'security', fastify: '5.x' });

/**
 * `reply.styleNonce()` for the routes of the scope it is registered in, with @fastify/helmet's
 * per-reply options: the nonce is added to that reply's style-src. Not with its `enableCSPNonces`,
 * which would add a script nonce as well: the pages' scripts are allowed by hash only.
 */
async function styleNonces(app: FastifyInstance): Promise<void> {
  const policy = app.helmetOptions.contentSecurityPolicy;
  const directives = (typeof policy === 'object' ? policy.directives : undefined) as Directives;
  app.decorateReply('styleNonce', function (this: FastifyReply) {
    const nonce = randomBytes(16).toString('base64');
    const styles = [...(directives['style-src'] ?? []), `'nonce-${nonce}'`];
    void this.helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { ...directives, 'style-src': styles } },
    });
    return nonce;
  });
}

export const pageStyleNonces = fp(styleNonces, {
  name: 'page-style-nonces',
  fastify: '5.x',
  dependencies: ['security'],
});
