/**
 * Configuration from environment variables, parsed once at start. A wrong value stops the
 * server with a message naming the variable, rather than surfacing later as odd behaviour.
 */
import { z } from 'zod/mini';

const port = z.coerce.number().check(z.int(), z.minimum(0), z.maximum(65_535));
const positiveInt = z.coerce.number().check(z.int(), z.minimum(1));

const envSchema = z.object({
  PORT: z._default(port, 3000),
  HOST: z._default(z.string().check(z.minLength(1)), '127.0.0.1'),
  DATABASE_URL: z.optional(z.string().check(z.regex(/^postgres(ql)?:\/\//, 'must start with postgres://'))),
  /**
   * Where reads that may be a moment stale go (the catalogue's event lists): a replica, or a balancer
   * port in front of the replicas. Unset, they go to DATABASE_URL with everything else.
   */
  DATABASE_READ_URL: z.optional(z.string().check(z.regex(/^postgres(ql)?:\/\//, 'must start with postgres://'))),
  PGLITE_DIR: z._default(z.string().check(z.minLength(1)), 'data/pglite'),
  /** Connections each process keeps to PostgreSQL. */
  DATABASE_POOL_SIZE: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 10),
  /** Reservations one process sends to the database at once; the rest wait their turn in the process. */
  RESERVE_CONCURRENCY: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200)), 4),
  SESSION_SECRET: z.optional(z.string().check(z.minLength(32, 'must be at least 32 characters'))),
  /** Seconds a hold lasts. */
  CHECKOUT_TIME: z._default(positiveInt, 600),
  CAPTCHA: z._default(z.enum(['auto', 'always', 'never']), 'auto'),
  /** Seconds a seat picked on the seat page stays held for the buyer (each pick renews it). */
  SEAT_HOLD_TIME: z._default(positiveInt, 900),
  HCAPTCHA_SITEKEY: z.optional(z.string().check(z.minLength(1))),
  HCAPTCHA_SECRET: z.optional(z.string().check(z.minLength(1))),
  /** Where hCaptcha's siteverify is asked (default https://api.hcaptcha.com; a local stand-in for tests). */
  HCAPTCHA_API_BASE: z.optional(
    z.string().check(z.regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be http(s)://host[:port] with no path')),
  ),
  /** Key that signs the local proof-of-work challenges; defaults to one derived from SESSION_SECRET. */
  ALTCHA_HMAC_KEY: z.optional(z.string().check(z.minLength(16))),
  /** Proof-of-work difficulty of the local captcha: the largest number a browser may have to try. */
  ALTCHA_MAX_NUMBER: z._default(z.coerce.number().check(z.int(), z.minimum(1000), z.maximum(10_000_000)), 50_000),
  /** getAddress.io key for the address finder; without it the local address index answers. */
  ADDRESS_API_KEY: z.optional(z.string().check(z.minLength(1))),
  BRAND_NAME: z._default(z.string().check(z.minLength(1)), 'Holdfast'),
  SWEEP_INTERVAL_MS: z._default(positiveInt, 30_000),
  LOG_LEVEL: z._default(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  STATIC_DIR: z._default(z.string().check(z.minLength(1)), 'dist/client'),
  /** Requests per minute per address, across all routes. */
  RATE_LIMIT_PER_MINUTE: z._default(positiveInt, 600),
  /** Where request counts live: one process's memory, or the database (shared by every process on it). Defaults to the database with DATABASE_URL. */
  RATE_LIMIT_STORE: z.optional(z.enum(['memory', 'database'])),
  /** Processes serving the port together (Node's cluster module); above 1 needs DATABASE_URL. */
  WORKERS: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(64)), 1),
  /** Outgoing mail server (smtp://user:pass@host:587); without it mail stays in the outbox and /dev/mailbox. */
  SMTP_URL: z.optional(z.string().check(z.regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://'))),
  /** The sender address of the product's mail. */
  MAIL_FROM: z._default(
    z.string().check(z.regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')),
    'no-reply@holdfast.localhost',
  ),
  NODE_ENV: z.optional(z.string()),
  /**
   * Demo mode (the demo sign-in page, /dev/*, the sandbox payment processors): on only with `1`,
   * as `npm start` asks for it. Unset or `0`, it is off, whatever the address, proxy, site address
   * or NODE_ENV.
   */
  DEMO: z.optional(z.enum(['0', '1'])),
  /**
   * `1` in demo mode: the server's clock can be moved forward with POST /dev/clock, so a person or
   * an end-to-end test sees a hold run out or a slow bank answer without waiting for it.
   */
  DEV_CLOCK: z.optional(z.enum(['0', '1'])),
  /**
   * Behind a TLS-terminating proxy: the number of proxies in front (`1`) or their addresses
   * (`10.0.0.1,10.0.0.2`, CIDR ranges and `loopback` allowed). Only then X-Forwarded-* is read.
   */
  TRUST_PROXY: z._default(z.string(), 'false'),
  /** Tickets of one type one order may hold when neither the type nor its event sets a maximum. */
  MAX_PER_ORDER: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1000)), 10),
  /** One-time codes one client address may ask for per hour (each e-mail address may have 5). */
  CODE_SENDS_PER_ADDRESS: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000)), 20),
  /** Tickets of one event date one buyer (session, account or address) may hold at once, across sales. */
  MAX_HELD_PER_BUYER: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000)), 20),
  /** The accommodation map embedded on order completed (Stay22's embed by default); `none` leaves it out. */
  ACCOMMODATION_MAP_URL: z._default(
    z.string().check(z.regex(/^(none|https:\/\/[^\s?#]+)$/, 'must be an https:// URL without a query, or none')),
    'https://www.stay22.com/embed/gm',
  ),
  /** The affiliate id the accommodation map credits bookings to. */
  ACCOMMODATION_AFFILIATE_ID: z._default(
    z.string().check(z.regex(/^[\w.-]{1,64}$/, 'must be letters, digits, dots, dashes or underscores')),
    'holdfast',
  ),
  /**
   * The site's own address as buyers reach it (https://tickets.example.com), for links in e-mails that
   * carry a secret, such as a ticket transfer's: they never take the address a request names in its
   * Host header, which anyone can set. Default: http://HOST:PORT.
   */
  PUBLIC_URL: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^https?:\/\/[^\s/?#@]+$/,
          'must be an http:// or https:// address without a path, e.g. https://tickets.example.com',
        ),
      ),
  ),
  /** Where buyers' feedback goes when none of the order's organisers keeps a contact address. */
  FEEDBACK_EMAIL: z._default(
    z.string().check(z.regex(/^[^\s@]+@[^\s@]+$/, 'must be an email address')),
    'feedback@holdfast.localhost',
  ),
  /** Seconds between runs of the instalment job, which charges plans' instalments as they fall due; 0 turns it off. */
  /** Sentry's DSN: browser errors go to Sentry (its SDK loaded only on the first error); unset, to this server's log. */
  SENTRY_DSN: z.optional(
    z.string().check(z.regex(/^https:\/\/[^@\s/]+@[^/\s?#]+\/\d+$/, 'must be a Sentry DSN, https://key@host/project')),
  ),
  /**
   * Where analytics' scripts load from once a buyer accepts analytics cookies: Google's tag and
   * Meta's pixel, or `none` for no analytics. Demo mode's default is this server's stand-in
   * (/dev/analytics/), which records the hits instead of sending them anywhere.
   */
  ANALYTICS_TAG_URL: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^(none|https?:\/\/[^\s?#]+|\/[^\s?#]*)$/,
          'must be an http(s):// URL or a path, without a query, or none',
        ),
      ),
  ),
  ANALYTICS_PIXEL_URL: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^(none|https?:\/\/[^\s?#]+|\/[^\s?#]*)$/,
          'must be an http(s):// URL or a path, without a query, or none',
        ),
      ),
  ),
  INSTALMENT_JOB_INTERVAL: z._default(
    z.coerce
      .number()
      .check(z.int('must be a whole number of seconds'), z.minimum(0, 'must be a whole number of seconds')),
    600,
  ),
});

/**
 * PAYMENT_GRACE (minutes), the Stripe keys and STRIPE_API_BASE (where Stripe's API is reached, by
 * default https://api.stripe.com; a local stand-in for tests).
 */
const paymentSchema = z.object({
  PAYMENT_GRACE: z._default(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(60)), 10),
  STRIPE_PUBLISHABLE_KEY: z.optional(z.string().check(z.regex(/^pk_/, 'must start with pk_'))),
  STRIPE_SECRET_KEY: z.optional(z.string().check(z.regex(/^sk_|^rk_/, 'must start with sk_ or rk_'))),
  STRIPE_WEBHOOK_SECRET: z.optional(z.string().check(z.regex(/^whsec_/, 'must start with whsec_'))),
  STRIPE_API_BASE: z.optional(
    z.string().check(z.regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be http(s)://host[:port] with no path')),
  ),
});

/** TrueLayer's keys, its environment and how often the waiting page asks the bank for news. */
const bankSchema = z.object({
  TRUELAYER_CLIENT_ID: z.optional(z.string().check(z.minLength(1))),
  TRUELAYER_CLIENT_SECRET: z.optional(z.string().check(z.minLength(1))),
  TRUELAYER_SIGNING_KEY_ID: z.optional(z.string().check(z.minLength(1))),
  TRUELAYER_SIGNING_PRIVATE_KEY: z.optional(
    z.string().check(z.regex(/BEGIN (EC )?PRIVATE KEY/, 'must be a PEM private key (P-521)')),
  ),
  TRUELAYER_MERCHANT_ACCOUNT_ID: z.optional(z.string().check(z.minLength(1))),
  TRUELAYER_ENVIRONMENT: z._default(z.enum(['sandbox', 'production']), 'sandbox'),
  TRUELAYER_POLL_INTERVAL_MS: z._default(z.coerce.number().check(z.int(), z.minimum(100), z.maximum(60_000)), 1500),
});

/** Square's keys (all three, or none) and SQUARE_API_BASE, which points Square's SDK at a local stand-in. */
const squareSchema = z.object({
  SQUARE_APPLICATION_ID: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^(sandbox-)?sq0idp-|^sandbox-sq0idb-|^sq0idb-/,
          'must be a Square application id (sq0idp-… or sandbox-sq0idb-…)',
        ),
      ),
  ),
  SQUARE_ACCESS_TOKEN: z.optional(z.string().check(z.minLength(20, 'must be a Square access token'))),
  SQUARE_LOCATION_ID: z.optional(z.string().check(z.regex(/^[A-Z0-9]{6,32}$/, 'must be a Square location id'))),
  SQUARE_API_BASE: z.optional(
    z.string().check(z.regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be http(s)://host[:port] with no path')),
  ),
});

/**
 * seats.io's keys: the workspace's public key (the chart in the browser) and its secret key (the
 * server's SDK), set together; the region; SEATSIO_API_BASE points the SDK at a local stand-in.
 */
const seatsioSchema = z.object({
  SEATSIO_PUBLIC_KEY: z.optional(
    z.string().check(z.regex(/^[\w-]{8,100}$/, 'must be a seats.io workspace public key')),
  ),
  SEATSIO_SECRET_KEY: z.optional(
    z.string().check(z.regex(/^[\w-]{8,100}$/, 'must be a seats.io workspace secret key')),
  ),
  SEATSIO_REGION: z._default(z.enum(['eu', 'na', 'sa', 'oc']), 'eu'),
  SEATSIO_API_BASE: z.optional(
    z.string().check(z.regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be http(s)://host[:port] with no path')),
  ),
});

export interface SeatsioKeys {
  publicKey: string;
  secretKey: string;
  region: 'eu' | 'na' | 'sa' | 'oc';
  /** Where the SDK sends its requests: seats.io's API for the region, or a stand-in. */
  apiBase: string;
}

/** seats.io is used when its public and secret keys are both set; one without the other is refused. */
export function seatsioKeys(env: Record<string, string | undefined>): SeatsioKeys | null {
  const e = parseSection(seatsioSchema, env);
  if (!e.SEATSIO_PUBLIC_KEY && !e.SEATSIO_SECRET_KEY) return null;
  for (const name of ['SEATSIO_PUBLIC_KEY', 'SEATSIO_SECRET_KEY'] as const) {
    if (!e[name]) throw new ConfigError(`Invalid configuration. ${name}: required when seats.io is keyed`);
  }
  return {
    publicKey: e.SEATSIO_PUBLIC_KEY!,
    secretKey: e.SEATSIO_SECRET_KEY!,
    region: e.SEATSIO_REGION,
    apiBase: e.SEATSIO_API_BASE ? e.SEATSIO_API_BASE.replace(/\/$/, '') : `https://api-${e.SEATSIO_REGION}.seatsio.net`,
  };
}

/** One provider's variables, or a ConfigError naming the first bad one. */
function parseSection<T>(
  schema: {
    safeParse(
      value: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
  },
  env: Record<string, string | undefined>,
): T {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = issue.path.map(String).join('.');
    throw new ConfigError(
      `Invalid configuration. ${name}: ${issue.message} (got ${JSON.stringify(present[name] ?? null)})`,
    );
  }
  return parsed.data;
}

/** Where the Stripe SDK sends its requests. */
export interface StripeApiBase {
  protocol: 'http' | 'https';
  host: string;
  port: number;
}

export interface StripeSettings {
  publishableKey: string;
  secretKey: string;
  webhookSecret: string | null;
  /** Null: Stripe's own API. */
  apiBase: StripeApiBase | null;
}

export interface PaymentSettings {
  /** How long past its deadline a hold is kept while a payment started in time is finishing. */
  graceMs: number;
  stripe: StripeSettings | null;
}

export interface TruelayerSettings {
  clientId: string;
  clientSecret: string;
  signingKeyId: string;
  signingPrivateKey: string;
  merchantAccountId: string;
  environment: 'sandbox' | 'production';
}

export interface BankSettings {
  truelayer: TruelayerSettings | null;
  /** Spec 001 §9's 1.5 s, unless configured (the end-to-end server polls faster). */
  pollIntervalMs: number;
}

export interface SquareKeys {
  applicationId: string;
  accessToken: string;
  locationId: string;
  /** Where Square's SDK sends its requests; null: Square's own API for the application's environment. */
  apiBase: string | null;
}

function apiBaseOf(value: string | undefined): StripeApiBase | null {
  if (!value) return null;
  const url = new URL(value);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { protocol, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443 };
}

/** The card processor's settings: Stripe when both its keys are set, else the sandbox processor. */
export function paymentSettings(env: Record<string, string | undefined>): PaymentSettings {
  const e = parseSection(paymentSchema, env);
  return {
    graceMs: e.PAYMENT_GRACE * 60_000,
    stripe:
      e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_SECRET_KEY
        ? {
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            secretKey: e.STRIPE_SECRET_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
            apiBase: apiBaseOf(e.STRIPE_API_BASE),
          }
        : null,
  };
}

/** TrueLayer is used when its client id and secret are set; then the signing key and merchant account must be too. */
export function bankSettings(env: Record<string, string | undefined>): BankSettings {
  const e = parseSection(bankSchema, env);
  if (!e.TRUELAYER_CLIENT_ID && !e.TRUELAYER_CLIENT_SECRET)
    return { truelayer: null, pollIntervalMs: e.TRUELAYER_POLL_INTERVAL_MS };
  for (const name of [
    'TRUELAYER_CLIENT_ID',
    'TRUELAYER_CLIENT_SECRET',
    'TRUELAYER_SIGNING_KEY_ID',
    'TRUELAYER_SIGNING_PRIVATE_KEY',
    'TRUELAYER_MERCHANT_ACCOUNT_ID',
  ] as const) {
    if (!e[name]) throw new ConfigError(`Invalid configuration. ${name}: required when TrueLayer is keyed`);
  }
  return {
    truelayer: {
      clientId: e.TRUELAYER_CLIENT_ID!,
      clientSecret: e.TRUELAYER_CLIENT_SECRET!,
      signingKeyId: e.TRUELAYER_SIGNING_KEY_ID!,
      signingPrivateKey: e.TRUELAYER_SIGNING_PRIVATE_KEY!.replace(/\\n/g, '\n'),
      merchantAccountId: e.TRUELAYER_MERCHANT_ACCOUNT_ID!,
      environment: e.TRUELAYER_ENVIRONMENT,
    },
    pollIntervalMs: e.TRUELAYER_POLL_INTERVAL_MS,
  };
}

/** Twilio's keys for text messages: all three, or none. */
const smsSchema = z.object({
  TWILIO_ACCOUNT_SID: z.optional(
    z.string().check(z.regex(/^AC[0-9a-fA-F]{32}$/, 'must be a Twilio account SID (AC followed by 32 hex digits)')),
  ),
  TWILIO_AUTH_TOKEN: z.optional(z.string().check(z.minLength(16, 'must be a Twilio auth token'))),
  TWILIO_FROM: z.optional(
    z
      .string()
      .check(
        z.regex(
          /^(\+[1-9][0-9]{6,14}|MG[0-9a-fA-F]{32})$/,
          'must be a sending number in E.164 form (+447…) or a Messaging Service SID (MG…)',
        ),
      ),
  ),
});

/** Text messages go through Twilio when all three of its variables are set; none keeps them in the outbox. */
export function smsSettings(env: Record<string, string | undefined>): SmsSettings | null {
  const e = parseSection(smsSchema, env);
  const names = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;
  if (names.every((name) => !e[name])) return null;
  for (const name of names)
    if (!e[name]) throw new ConfigError(`Invalid configuration. ${name}: required when Twilio is keyed`);
  return { accountSid: e.TWILIO_ACCOUNT_SID!, authToken: e.TWILIO_AUTH_TOKEN!, from: e.TWILIO_FROM! };
}

export interface SmsSettings {
  accountSid: string;
  authToken: string;
  /** A sending number (E.164) or a Messaging Service SID. */
  from: string;
}

const PEM = (what: string) =>
  z.string().check(z.regex(/-----BEGIN [A-Z ]+-----[\s\S]+-----END [A-Z ]+-----/, `must be ${what} in PEM form`));

/**
 * Apple Wallet passes: the pass type, the team, the pass type's certificate and key, and Apple's
 * WWDR intermediate certificate (PEM text; `\n` may stand for a line break). Google Wallet: the
 * issuer id and the service account that signs the save links.
 */
const walletSchema = z.object({
  APPLE_PASS_TYPE_ID: z.optional(
    z.string().check(z.regex(/^pass\.[A-Za-z0-9.-]{1,200}$/, 'must be a pass type identifier (pass.…)')),
  ),
  APPLE_TEAM_ID: z.optional(
    z.string().check(z.regex(/^[A-Z0-9]{10}$/, 'must be a ten-character Apple team identifier')),
  ),
  APPLE_PASS_CERT: z.optional(PEM('a certificate')),
  APPLE_PASS_KEY: z.optional(PEM('a private key')),
  APPLE_PASS_KEY_PASSPHRASE: z.optional(z.string()),
  APPLE_WWDR_CERT: z.optional(PEM('a certificate')),
  GOOGLE_WALLET_ISSUER_ID: z.optional(
    z.string().check(z.regex(/^\d{6,25}$/, 'must be a Google Wallet issuer id (digits)')),
  ),
  GOOGLE_WALLET_SERVICE_ACCOUNT: z.optional(
    z.string().check(z.regex(/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i, 'must be a service account e-mail address')),
  ),
  GOOGLE_WALLET_PRIVATE_KEY: z.optional(PEM('a private key')),
});

export interface WalletPassSettings {
  apple: {
    passTypeIdentifier: string;
    teamIdentifier: string;
    signerCert: string;
    signerKey: string;
    signerKeyPassphrase: string | null;
    wwdr: string;
  } | null;
  google: { issuerId: string; serviceAccount: string; privateKey: string } | null;
}

const pemText = (value: string) => value.replace(/\\n/g, '\n');

/** Each wallet is keyed when all its variables are set; some without the others are refused. */
export function walletPassSettings(env: Record<string, string | undefined>): WalletPassSettings {
  const e = parseSection(walletSchema, env);
  const need = <K extends keyof typeof e>(names: readonly K[], what: string) => {
    if (names.every((n) => !e[n])) return false;
    for (const n of names)
      if (!e[n]) throw new ConfigError(`Invalid configuration. ${String(n)}: required when ${what} is keyed`);
    return true;
  };
  const apple = need(
    ['APPLE_PASS_TYPE_ID', 'APPLE_TEAM_ID', 'APPLE_PASS_CERT', 'APPLE_PASS_KEY', 'APPLE_WWDR_CERT'] as const,
    'Apple Wallet',
  );
  const google = need(
    ['GOOGLE_WALLET_ISSUER_ID', 'GOOGLE_WALLET_SERVICE_ACCOUNT', 'GOOGLE_WALLET_PRIVATE_KEY'] as const,
    'Google Wallet',
  );
  return {
    apple: apple
      ? {
          passTypeIdentifier: e.APPLE_PASS_TYPE_ID!,
          teamIdentifier: e.APPLE_TEAM_ID!,
          signerCert: pemText(e.APPLE_PASS_CERT!),
          signerKey: pemText(e.APPLE_PASS_KEY!),
          signerKeyPassphrase: e.APPLE_PASS_KEY_PASSPHRASE ?? null,
          wwdr: pemText(e.APPLE_WWDR_CERT!),
        }
      : null,
    google: google
      ? {
          issuerId: e.GOOGLE_WALLET_ISSUER_ID!,
          serviceAccount: e.GOOGLE_WALLET_SERVICE_ACCOUNT!,
          privateKey: pemText(e.GOOGLE_WALLET_PRIVATE_KEY!),
        }
      : null,
  };
}

/** The Square keys, when all three are set. */
export function squareKeys(env: Record<string, string | undefined>): SquareKeys | null {
  const e = parseSection(squareSchema, env);
  return e.SQUARE_APPLICATION_ID && e.SQUARE_ACCESS_TOKEN && e.SQUARE_LOCATION_ID
    ? {
        applicationId: e.SQUARE_APPLICATION_ID,
        accessToken: e.SQUARE_ACCESS_TOKEN,
        locationId: e.SQUARE_LOCATION_ID,
        apiBase: e.SQUARE_API_BASE ? e.SQUARE_API_BASE.replace(/\/$/, '') : null,
      }
    : null;
}

/**
 * TRUST_PROXY as Fastify takes it: false, a hop count, or a list of proxy addresses. `true`
 * (trust whatever X-Forwarded-For a client sends) is refused: it would let anyone pick their address.
 */
export function parseTrustProxy(raw: string): false | number | string[] {
  const value = raw.trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') {
    throw new ConfigError(
      'Invalid configuration. TRUST_PROXY: "true" would trust any client\'s X-Forwarded-For; give the number of proxies in front (e.g. 1) or their addresses (got "true")',
    );
  }
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const address = /^(loopback|linklocal|uniquelocal|[0-9a-fA-F.:]+(\/\d{1,3})?)$/;
  const bad = list.find((a) => !address.test(a));
  if (bad !== undefined || list.length === 0) {
    throw new ConfigError(
      `Invalid configuration. TRUST_PROXY: expected a number of proxies or a comma-separated list of addresses (got ${JSON.stringify(raw)})`,
    );
  }
  return list;
}

/** Google's tag and Meta's pixel, or in demo mode this server's stand-in for both (/dev/analytics/). */
export const GOOGLE_TAG_URL = 'https://www.googletagmanager.com/gtag/js';
export const META_PIXEL_URL = 'https://connect.facebook.net/en_US/fbevents.js';
export const STAND_IN_TAG_URL = '/dev/analytics/gtag/js';
export const STAND_IN_PIXEL_URL = '/dev/analytics/fbevents.js';

function analyticsOf(tag: string | undefined, pixel: string | undefined, demo: boolean): Config['analytics'] {
  const tagUrl = tag ?? (demo ? STAND_IN_TAG_URL : GOOGLE_TAG_URL);
  const pixelUrl = pixel ?? (demo ? STAND_IN_PIXEL_URL : META_PIXEL_URL);
  if (tagUrl === 'none' && pixelUrl === 'none') return null;
  return { tagUrl: tagUrl === 'none' ? null : tagUrl, pixelUrl: pixelUrl === 'none' ? null : pixelUrl };
}

/** Whether HOST is a loopback address: only this machine can reach a server listening there. */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h);
}

export type Env = z.output<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | null;
  /** DATABASE_READ_URL: the pool for reads that may be a moment stale; null, they use the one pool. */
  databaseReadUrl: string | null;
  pgliteDir: string;
  databasePoolSize: number;
  reserveConcurrency: number;
  /** From SESSION_SECRET, else the secret main.ts keeps in the data directory. */
  sessionSecret: string;
  checkoutTimeSeconds: number;
  seatHoldSeconds: number;
  /** seats.io's keys and region (SEATSIO_*), or null: our own seat map and holds. */
  seatsio: SeatsioKeys | null;
  captcha: 'auto' | 'always' | 'never';
  hcaptcha: { sitekey: string; secret: string; apiBase?: string } | null;
  altchaHmacKey: string;
  altchaMaxNumber: number;
  brandName: string;
  sweepIntervalMs: number;
  logLevel: Env['LOG_LEVEL'];
  staticDir: string;
  rateLimitPerMinute: number;
  rateLimitStore: 'memory' | 'database';
  workers: number;
  trustProxy: false | number | string[];
  maxPerOrder: number;
  maxHeldPerBuyer: number;
  codeSendsPerAddress: number;
  smtpUrl: string | null;
  mailFrom: string;
  /** Twilio for text messages (TWILIO_*), or null: they stay in the outbox (/dev/mailbox). */
  sms: SmsSettings | null;
  /**
   * Demo mode: the demo sign-in page (/signin/), the development routes (/dev/*) and the sandbox
   * payment processors with their pages. Off, none of them is served and a payment method without
   * its processor's keys is refused.
   */
  demo: boolean;
  /** Demo mode only: the server's clock can be moved forward (POST /dev/clock). */
  devClock: boolean;
  /** The UK address API's key; null uses the local address index. */
  addressApiKey: string | null;
  /** The accommodation map's embed URL and affiliate id; null when the site embeds none. */
  accommodationMap: { url: string; affiliateId: string } | null;
  /** Where feedback goes when an order's organisers keep no contact address. */
  feedbackEmail: string;
  /** The site's own origin for links in e-mails (PUBLIC_URL). */
  publicUrl: string;
  /** The card processor: Stripe's keys (null: the sandbox processor) and the payment grace. */
  payment: PaymentSettings;
  /** The bank for instant bank transfer: TrueLayer's keys (null: the sandbox bank) and the poll interval. */
  bank: BankSettings;
  /** Square's keys; null: Square's sandbox on this server. */
  square: SquareKeys | null;
  /** Apple Wallet and Google Wallet keys; without them demo mode makes its own, clearly labelled. */
  walletPasses: WalletPassSettings;
  /** Milliseconds between runs of the instalment job; null when it is off. */
  instalmentJobIntervalMs: number | null;
  /** Sentry's DSN for browser errors; null: they go to this server's log. */
  sentryDsn: string | null;
  /** Google's tag and Meta's pixel script addresses, loaded after consent; null: no analytics. */
  analytics: { tagUrl: string | null; pixelUrl: string | null } | null;
}

export class ConfigError extends Error {}

/** A fixed secret for tests and throwaway runs; never the default of a started server. */
export const DEV_SESSION_SECRET = 'holdfast-development-secret-not-for-production';

/**
 * Parses the environment. Without SESSION_SECRET the caller supplies one (main.ts keeps a
 * random one in the data directory so sessions survive restarts).
 */
export function parseConfig(env: Record<string, string | undefined>, fallbackSecret = DEV_SESSION_SECRET): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? 'environment');
      return `${name}: ${issue.message} (got ${JSON.stringify(present[name] ?? null)})`;
    });
    throw new ConfigError(`Invalid configuration. ${messages.join('; ')}`);
  }
  const e = parsed.data;
  const demo = e.DEMO === '1';
  if (Boolean(e.HCAPTCHA_SITEKEY) !== Boolean(e.HCAPTCHA_SECRET)) {
    throw new ConfigError('Invalid configuration. HCAPTCHA_SITEKEY and HCAPTCHA_SECRET must be set together');
  }
  if (e.WORKERS > 1 && !e.DATABASE_URL) {
    throw new ConfigError(
      `Invalid configuration. WORKERS: more than one process needs DATABASE_URL; the embedded PGlite database serves one process (got ${e.WORKERS})`,
    );
  }
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration. DATABASE_READ_URL: needs DATABASE_URL; the embedded PGlite database has no replicas to read from',
    );
  }
  const sessionSecret = e.SESSION_SECRET ?? fallbackSecret;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL ?? null,
    databaseReadUrl: e.DATABASE_READ_URL ?? null,
    pgliteDir: e.PGLITE_DIR,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    reserveConcurrency: e.RESERVE_CONCURRENCY,
    sessionSecret,
    checkoutTimeSeconds: e.CHECKOUT_TIME,
    seatHoldSeconds: e.SEAT_HOLD_TIME,
    seatsio: seatsioKeys(env),
    captcha: e.CAPTCHA,
    hcaptcha:
      e.HCAPTCHA_SITEKEY && e.HCAPTCHA_SECRET
        ? {
            sitekey: e.HCAPTCHA_SITEKEY,
            secret: e.HCAPTCHA_SECRET,
            apiBase: (e.HCAPTCHA_API_BASE ?? 'https://api.hcaptcha.com').replace(/\/$/, ''),
          }
        : null,
    altchaHmacKey: e.ALTCHA_HMAC_KEY ?? `altcha:${sessionSecret}`,
    altchaMaxNumber: e.ALTCHA_MAX_NUMBER,
    brandName: e.BRAND_NAME,
    sweepIntervalMs: e.SWEEP_INTERVAL_MS,
    logLevel: e.LOG_LEVEL,
    staticDir: e.STATIC_DIR,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    rateLimitStore: e.RATE_LIMIT_STORE ?? (e.DATABASE_URL ? 'database' : 'memory'),
    workers: e.WORKERS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    maxPerOrder: e.MAX_PER_ORDER,
    maxHeldPerBuyer: e.MAX_HELD_PER_BUYER,
    codeSendsPerAddress: e.CODE_SENDS_PER_ADDRESS,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    sms: smsSettings(env),
    demo,
    devClock: demo && e.DEV_CLOCK === '1',
    addressApiKey: e.ADDRESS_API_KEY ?? null,
    accommodationMap:
      e.ACCOMMODATION_MAP_URL === 'none'
        ? null
        : { url: e.ACCOMMODATION_MAP_URL, affiliateId: e.ACCOMMODATION_AFFILIATE_ID },
    feedbackEmail: e.FEEDBACK_EMAIL,
    publicUrl: e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`,
    payment: paymentSettings(env),
    bank: bankSettings(env),
    square: squareKeys(env),
    walletPasses: walletPassSettings(env),
    instalmentJobIntervalMs: e.INSTALMENT_JOB_INTERVAL > 0 ? e.INSTALMENT_JOB_INTERVAL * 1000 : null,
    sentryDsn: e.SENTRY_DSN ?? null,
    analytics: analyticsOf(e.ANALYTICS_TAG_URL, e.ANALYTICS_PIXEL_URL, demo),
  };
}

/** The start log's first word: whether demo mode is on, what that serves, and how to turn it off. */
export function demoModeLine(config: Pick<Config, 'demo' | 'host'>): string {
  if (!config.demo) return 'Demo mode: off (DEMO=1 turns it on).';
  const exposed = isLoopback(config.host) ? '' : ` Anyone who can reach ${config.host} can sign in as any account.`;
  return `Demo mode: on, as DEMO=1 asks (sandbox payments, demo sign-in at /signin/, /dev/mailbox); remove DEMO=1 to turn it off.${exposed}`;
}

/** A configuration for tests: defaults plus overrides, in demo mode unless a test turns it off. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Without the accommodation map, as a test's page policy names no third party unless it asks for one.
  return {
    ...parseConfig({
      DEMO: '1',
      CAPTCHA: 'never',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000',
      ALTCHA_MAX_NUMBER: '1000',
      ACCOMMODATION_MAP_URL: 'none',
    }),
    ...overrides,
  };
}
