/** Starts Holdfast: configuration, database (migrated, seeded when empty), the outside services, HTTP and the jobs. */
import cluster from 'node:cluster';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { ConfigError, demoModeLine, parseConfig } from './config.ts';
import { openDatabase } from './db/index.ts';
import { seedIfEmpty } from './seed.ts';
import { buildApp } from './app.ts';
import { startJobs } from './jobs.ts';
import { buildProviders } from './providers/index.ts';
import { movableClock } from './routes/dev/clock.ts';

/**
 * Without SESSION_SECRET, a random secret is made once and kept beside the embedded database
 * (`data/session-secret`), so sessions survive restarts and no two installs share a key.
 */
function storedSessionSecret(pgliteDir: string): string {
  const dataDir = path.dirname(path.resolve(pgliteDir));
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

async function main() {
  let config;
  try {
    const pgliteDir = process.env.PGLITE_DIR || 'data/pglite';
    config = parseConfig(process.env, process.env.SESSION_SECRET ? undefined : storedSessionSecret(pgliteDir));
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  // The first line says whether demo mode is on: only DEMO=1 turns it on.
  if (cluster.isPrimary) console.log(demoModeLine(config));

  if (config.workers > 1 && cluster.isPrimary) {
    // The workers share the port and, through SESSION_SECRET, the sessions' signing key.
    const env = { SESSION_SECRET: config.sessionSecret };
    for (let i = 0; i < config.workers; i++) cluster.fork(env);
    let running = config.workers;
    cluster.on('exit', (worker, code) => {
      console.error(`Worker ${worker.process.pid} stopped (${code ?? 'signal'}).`);
      if (--running === 0) process.exit(1);
    });
    const stop = () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    console.log(`Holdfast starting ${config.workers} processes on port ${config.port}.`);
    return;
  }

  // The demo catalogue's accounts belong to demo mode: a live site's empty database stays empty.
  const database = await openDatabase(config, async (db) => {
    if (config.demo && (await seedIfEmpty(db))) console.log('Seeded the demo catalogue.');
  });
  // The one place the outside services are built: the app answers with them and the jobs run with them.
  // One clock for the app and the jobs; in demo mode with DEV_CLOCK=1 it can be moved forward.
  const movable = config.devClock ? movableClock() : null;
  const clock = movable ? movable.now : () => new Date();
  const providers = buildProviders(config, database.db);
  const app = await buildApp({
    db: database.db,
    config,
    clock,
    providers,
    ...(movable ? { movableClock: movable } : {}),
  });
  const stopJobs = await startJobs(
    { ...providers, db: database.db, config, clock },
    { turn: database.jobsTurn, log: app.log },
  );

  const shutdown = async () => {
    stopJobs();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  console.log(
    `Holdfast checkout running at http://${shownHost}:${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : config.port}/all-events/`,
  );
}

await main();
