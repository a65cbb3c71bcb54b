/**
 * Builds the Holdfast HTTP app around a database, a configuration and the outside services
 * (server/providers/). main.ts builds the providers once and hands the same ones to the app and to
 * the jobs (jobs.ts); a test may hand in some of its own, and the rest are built here from the
 * configuration.
 */
import { existsSync } from 'node:fs';
import { createServer, type ServerOptions } from 'node:http';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import qs from 'qs';
import { z } from 'zod/mini';
import type { Config } from './config.ts';
import type { Database } from './db/index.ts';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from './db/unavailable.ts';
import { Refusal } from './domain/refusal.ts';
import { refuseCrossSite } from './http/crossSite.ts';
import { isDemoPath, notServed, registerDemoMode } from './http/demoMode.ts';
import type { AppDeps } from './http/deps.ts';
import { replyRefusal } from './http/refusals.ts';
import { requestRateLimit } from './plugins/rateLimit.ts';
import { apiHeadersFor, security } from './plugins/security.ts';
import { session } from './plugins/session.ts';
import { visitorSale } from './plugins/visitorSale.ts';
import { api } from './routes/api/index.ts';
import { dev } from './routes/dev/index.ts';
import type { MovableClock } from './routes/dev/clock.ts';
import { pages } from './routes/pages/index.ts';
import { waitingRoom, type FastPath } from './routes/waitingRoom/index.ts';
import { queueGates } from './routes/waitingRoom/gates.ts';
import { WaitingRooms } from './domain/waitingRoom/room.ts';
import { registerOrganiserConsole } from './routes/organiser/index.ts';
import { sandbox } from './routes/sandbox/index.ts';
import { STYLE } from './views/html.ts';
import type { Mailer } from './mail/index.ts';
import { ENTRY_LOADER } from '../contract/entryLoader.ts';
import {
  buildProviders,
  type BankWiring,
  type PaymentWiring,
  type PlanWiring,
  type Providers,
} from './providers/index.ts';
import { registerLocale } from './http/locale.ts';
import { inActiveLanguage } from '../i18n/catalogues.ts';

z.config(z.locales.en());

/** Nested form keys (`ticket[k][qty]`) need depth; the limits keep a hostile body cheap to refuse. Arrays are shaped later, by the contract (see calls.ts). */
const QS_OPTIONS = { depth: 5, parameterLimit: 500, parseArrays: false } as const;
const BODY_LIMIT = 64 * 1024;

export async function buildApp(deps: {
  db: Database;
  config: Config;
  clock?: () => Date;
  /** Demo mode with DEV_CLOCK=1: the clock above, which POST /dev/clock moves forward. */
  movableClock?: MovableClock;
  logger?: boolean;
  /** Where the log's lines go instead of standard output (tests read what was logged). */
  logStream?: { write(line: string): void };
  fetch?: typeof fetch;
  /** Every outside service, built once by the caller (main.ts); built here from the configuration when not given. */
  providers?: Providers;
  /** Tests hand in their own transport; otherwise SMTP when SMTP_URL is set, else the outbox only. */
  mailer?: Mailer;
  /** The card processor and payment grace; from the configuration when not given. */
  payment?: PaymentWiring;
  /** The bank for instant bank transfer; from the configuration when not given. */
  bank?: BankWiring;
  /** Saved cards for plans and Square; from the configuration when not given. */
  plans?: PlanWiring;
}): Promise<FastifyInstance> {
  const { db, config } = deps;
  // What answers a request before Fastify does, once the routes are in: the waiting room's polls, the
  // one exception to every request going through Fastify, for the cost of the poll every queued
  // buyer repeats (routes/waitingRoom/index.ts says how it is measured; docs/scale.md).
  let fastPath: FastPath | null = null;
  const app = Fastify({
    // The HTTP server Fastify would make itself (its timeouts included), with the fast path in front.
    serverFactory: (handler, given) => {
      // Fastify gives its options with their defaults filled in.
      const options = given as {
        http?: ServerOptions;
        keepAliveTimeout: number;
        requestTimeout: number;
        connectionTimeout: number;
        maxRequestsPerSocket: number;
      };
      const server = createServer(options.http ?? {}, (req, res) => {
        if (fastPath?.(req, res)) return;
        handler(req, res);
      });
      server.keepAliveTimeout = options.keepAliveTimeout;
      server.requestTimeout = options.requestTimeout;
      server.setTimeout(options.connectionTimeout);
      if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
    logger:
      deps.logger === false ? false : { level: config.logLevel, ...(deps.logStream ? { stream: deps.logStream } : {}) },
    bodyLimit: BODY_LIMIT,
    // A hop count trusts that many proxies in front, as proxy-addr counts them.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    routerOptions: {
      ignoreTrailingSlash: true,
      maxParamLength: 200,
      querystringParser: (str) => qs.parse(str, QS_OPTIONS),
    },
  });

  const providers = deps.providers ?? buildProviders(config, db, deps.fetch ? { fetch: deps.fetch } : {});
  const appDeps: AppDeps = {
    ...providers,
    db,
    config,
    clock: deps.clock ?? deps.movableClock?.now ?? (() => new Date()),
    mailer: deps.mailer ?? providers.mailer,
    payment: deps.payment ?? providers.payment,
    bank: deps.bank ?? providers.bank,
    plans: deps.plans ?? providers.plans,
  };

  await app.register(security, {
    providers: {
      hcaptcha: config.hcaptcha,
      stripe: appDeps.payment.processor.name === 'stripe',
      square: appDeps.plans.square.credentials.checkout_js !== '',
      seatsio: config.seatsio ? { region: config.seatsio.region } : null,
      accommodationMap: config.accommodationMap,
      publicUrl: config.publicUrl,
      analytics: config.analytics,
      sentryDsn: config.sentryDsn,
    },
    inline: { styles: [STYLE], scripts: [ENTRY_LOADER] },
  });
  const allowed = allowedMethods(app);
  await app.register(session, { secret: config.sessionSecret, db, clock: appDeps.clock });
  await app.register(visitorSale, { db });
  await app.register(formbody, { parser: (body) => qs.parse(body, QS_OPTIONS) });
  await app.register(requestRateLimit, { db, config });
  app.addHook('onRequest', refuseCrossSite);
  registerLocale(app, { db, demo: config.demo });
  registerDemoMode(app, appDeps);

  app.setErrorHandler((err: FastifyError | Refusal, request, reply) => {
    if (err instanceof Refusal) return replyRefusal(reply, err);
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const { error } = err as { error?: unknown };
      const message = typeof error === 'string' ? error : err.message;
      return reply.status(status).send({ error: inActiveLanguage(message || 'The request could not be understood') });
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '1')
        .send({ error: inActiveLanguage(DATABASE_UNAVAILABLE), retry: true });
    }
    request.log.error({ err }, 'request failed');
    return reply.status(500).send({ error: inActiveLanguage('Something went wrong on our side. Please try again.') });
  });

  // The process's view of the queues: the waiting room's routes, the doors behind them and the organiser's console read it.
  const rooms = new WaitingRooms(db, appDeps.clock);
  await app.register(queueGates, { deps: appDeps, rooms });
  await app.register(waitingRoom, {
    deps: appDeps,
    rooms,
    staticDir: path.resolve(config.staticDir),
    apiHeaders: apiHeadersFor(config.publicUrl),
    fastPath: (answer) => (fastPath = answer),
  });
  await registerOrganiserConsole(app, appDeps, rooms);
  await app.register(api, { deps: appDeps });
  // Demo mode's routes are not registered outside it, and registerDemoMode answers their paths 404 there.
  if (config.demo) {
    await app.register(sandbox, { deps: appDeps });
    await app.register(dev, { deps: appDeps, ...(deps.movableClock ? { movableClock: deps.movableClock } : {}) });
  }
  app.get('/health', async () => ({ ok: true }));

  const staticDir = path.resolve(config.staticDir);
  if (existsSync(staticDir)) {
    await app.register(fastifyStatic, {
      root: staticDir,
      prefix: '/',
      index: false,
      // A route per built file, found at start: every other path is the checkout app's (see routes/pages/checkoutApp.ts).
      wildcard: false,
      // Hidden, as allowedMethods leaves these routes out (see there).
      schemaHide: true,
      preCompressed: true,
      /** Built files carry a hash of their content in their name, so a browser keeps them for a year; anything else is revalidated. */
      setHeaders: (reply, filePath) => {
        const hashed = filePath.startsWith(path.join(staticDir, 'assets') + path.sep);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  await app.register(pages, { deps: appDeps, staticDir, allowed });

  /** Paths no route serves: a wrong method is told the right ones; API and development paths get a real 404. */
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const allow = allowed(url);
    if (allow.length > 0 && !allow.includes(request.method)) {
      return reply
        .status(405)
        .header('allow', allow.join(', '))
        .send({ error: `${request.method} is not allowed at ${url}; use ${allow.join(' or ')}` });
    }
    // A development or sandbox path that no route serves is not the checkout.
    if (request.method === 'GET' && isDemoPath(url)) return notServed(request, reply, appDeps, url);
    return reply.status(404).send({ error: `Nothing is served at ${request.method} ${url}` });
  });

  return app;
}

/**
 * The methods each registered path answers, to tell a wrong method (405 with Allow) from a
 * wrong path (404). The checkout app's routes are left out, as they answer any page path, and so
 * are the built files' (hidden by @fastify/static): another method at a file's path is a 404.
 */
function allowedMethods(app: FastifyInstance): (url: string) => string[] {
  const routes: { pattern: RegExp; methods: Set<string> }[] = [];
  const normal = (url: string) => (url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url);
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*') || route.config?.everyPath || (route.schema as { hide?: boolean } | undefined)?.hide)
      return;
    const source = normal(route.url)
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const pattern = new RegExp(`^${source}$`);
    let entry = routes.find((r) => r.pattern.source === pattern.source);
    if (!entry) routes.push((entry = { pattern, methods: new Set() }));
    for (const m of [route.method].flat()) entry.methods.add(m);
  });
  return (url) => {
    const path = normal(url);
    const methods = new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => [...r.methods]));
    return [...methods].sort();
  };
}
