/**
 * Server throughput, printed and never gating anything (npm run bench:check gates its ratios). The
 * server runs in its own process (`server/main.ts`, as `npm start` runs it, with the shipped
 * settings but for a trusted proxy in front and a rate limit no single address reaches) and the load
 * comes from this one, so they do not share a thread. Each figure is printed beside its ceiling
 * from the same run:
 *  1. GET /ajax/checkout/checkout/get/ (a filled basket) against a trivial route;
 *  2. reserving one hot ticket type over HTTP with 0, 10,000 and 50,000 other live holds in its pool,
 *     against the same with none, as an on-sale sends it: every buyer from an address of their own
 *     that no other buyer of the run uses (X-Forwarded-For behind a trusted proxy, as in production
 *     behind a load balancer), their basket made over HTTP with the cookies the server gave them,
 *     then reserved, 16 at once. The live holds are written directly; each of their buyers has
 *     been seen by the server from their own address in the minute before the turn (one request
 *     each), as the buyers of an on-sale's first minutes are;
 *  3. reserving over HTTP against pgbench's own hot-row claim (one conditional UPDATE plus one
 *     INSERT per transaction, 16 clients, same database), when PostgreSQL is used.
 * Uses PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (a fresh database is made
 * on that server and dropped afterwards), else embedded PGlite in a temporary directory (then only 1).
 */
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { rows, type Database } from '../server/db/index.ts';
import * as schema from '../server/db/schema.ts';
import { hotEvent, salesWith } from '../server/test/fixtures.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
/** Turns of each compared case: GET checkout beside the trivial route, and the live-holds cases (BENCH_ROUNDS, 2 unless set). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const SECRET = `bench-${randomBytes(16).toString('hex')}`;

export const fmt = (n: number) => n.toLocaleString('en-GB', { maximumFractionDigits: 0 });

export function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/**
 * The address of the n-th simulated buyer. An on-sale's buyers come from thousands of addresses;
 * sent from one, every reservation would also queue on that address's per-buyer count, a second
 * hot row real buyers do not share.
 */
const buyerAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
/**
 * A new buyer's address, never given before in this run: a buyer is new to the server's rate limit,
 * as each buyer of an on-sale is (turns that gave the same addresses again would find their leases
 * taken already, and an address reused within a minute is one the server has counted).
 */
let addressesGiven = 0;
const newAddress = () => buyerAddress(++addressesGiven);

/**
 * Each case measured once per round, for ROUNDS rounds, every other round in the reverse order
 * (a, b, c, c, b, a, …): a case always run later would always meet the database the earlier turns
 * grew and any drift of the machine. Answers each case's turns, round by round.
 */
export async function inTurns<K, R>(
  cases: readonly K[],
  measure: (c: K) => Promise<R>,
  rounds = ROUNDS,
): Promise<Map<K, R[]>> {
  const turns = new Map<K, R[]>(cases.map((c) => [c, []]));
  for (let round = 0; round < rounds; round++) {
    for (const c of round % 2 === 0 ? cases : [...cases].reverse()) turns.get(c)!.push(await measure(c));
  }
  return turns;
}

/**
 * Where a run's CPU goes, from Linux's own counters (/proc; elsewhere nothing is printed): the
 * database's processes (the backends connected to the bench's database, as pg_stat_activity lists
 * them), the server's (the server and any workers it started) and this load generator's. On a machine whose cores are all busy, a
 * rate is bounded by what each request costs in all three; anything else the machine runs meanwhile
 * is left out, so the split holds on a busy machine too.
 */
const TICK_MS = 1000 / 100;
function statFields(pid: string | number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(') ');
    return [stat.slice(stat.indexOf('(') + 1, close), ...stat.slice(close + 2).split(' ')];
  } catch {
    return null;
  }
}
/** CPU milliseconds of the processes that pass `wanted` (comm, parent pid, pid). */
export function cpuOf(wanted: (comm: string, ppid: number, pid: number) => boolean): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    // After the name: state, ppid, … utime is the 14th field of stat, stime the 15th.
    if (f && wanted(f[0]!, Number(f[2]), Number(entry))) ticks += Number(f[12]) + Number(f[13]);
  }
  return ticks * TICK_MS;
}
interface CpuSplit {
  database: number;
  server: number;
  generator: number;
}
/** The backends connected to the bench's database, by process id. */
export async function backendsOf(db: Database): Promise<Set<number>> {
  const found = await rows<{ pid: number }>(
    db,
    sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return new Set(found.map((r) => Number(r.pid)));
}
async function cpuNow(serverPid: number | undefined, db: Database): Promise<CpuSplit | null> {
  if (!existsSync('/proc/stat') || serverPid === undefined) return null;
  const backends = await backendsOf(db);
  const own = process.cpuUsage();
  return {
    database: cpuOf((_comm, _ppid, pid) => backends.has(pid)),
    server: cpuOf((_comm, ppid, pid) => pid === serverPid || ppid === serverPid),
    generator: (own.user + own.system) / 1000,
  };
}
/** Milliseconds of CPU per request between two readings. */
function cpuPer(before: CpuSplit | null, after: CpuSplit | null, requests: number): string {
  if (!before || !after || requests <= 0) return '';
  const per = (key: keyof CpuSplit) => ((after[key] - before[key]) / requests).toFixed(2);
  return `CPU per request: database ${per('database')} ms, server ${per('server')} ms, load generator ${per('generator')} ms`;
}

export const meanOf = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function startServer(env: Record<string, string>): Promise<ChildProcess> {
  // BENCH_CPU_PROF=<folder> writes the server's CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      // As npm start: the demo catalogue is seeded in demo mode only.
      DEMO: '1',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: SECRET,
      // The reads below come from one address, many thousand a minute: a limit none reaches. Each
      // address is still counted in the database (the shared store) as with the shipped limit.
      RATE_LIMIT_PER_MINUTE: '10000000',
      // As behind a load balancer: each buyer's own address comes in X-Forwarded-For.
      TRUST_PROXY: '1',
      // Everything else as shipped: the captcha's count of each address's attempts, the buyer cap,
      // the sweeper every 30 s.
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('running at')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the server stopped (${code}) before listening`)));
  });
  return child;
}

export interface Target {
  driver: 'postgres' | 'pglite';
  env: Record<string, string>;
  /** A direct connection for fixtures; null on PGlite, whose one process is the server. */
  db: Database | null;
  url: string | null;
  cleanup(): Promise<void>;
}

/** The database a bench runs on: PostgreSQL when a URL is given, else (or when `embedded`) PGlite, as `npm start` runs. */
export async function target({ embedded = false }: { embedded?: boolean } = {}): Promise<Target> {
  const base = embedded ? undefined : (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL);
  if (!base) {
    const dir = mkdtempSync(path.join(tmpdir(), 'holdfast-bench-'));
    return {
      driver: 'pglite',
      env: { PGLITE_DIR: path.join(dir, 'db') },
      db: null,
      url: null,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `holdfast_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  pool.on('error', () => undefined);
  return {
    driver: 'postgres',
    env: { DATABASE_URL: url.toString() },
    db: drizzle(pool, { schema }) as unknown as Database,
    url: url.toString(),
    cleanup: async () => {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * Live holds of other buyers in a pool, written directly (with the pool's count) as a busy on-sale
 * leaves them: taken one after another over the last hold's length (the server's CHECKOUT_TIME,
 * 600 s), so their deadlines spread over the next 600 s, the newest last.
 */
async function fillLiveHolds(db: Database, poolId: number, ticketTypeId: number, count: number): Promise<void> {
  const [holder] = await salesWith(db, [[]]);
  await db.execute(sql`
    INSERT INTO holds (sale_id, pool_id, ticket_type_id, qty, deadline)
    SELECT ${holder}, ${poolId}, ${ticketTypeId}, 1, now() + interval '60 seconds' + (g::float8 / ${count}) * interval '540 seconds'
    FROM generate_series(1, ${count}) g`);
  await db.execute(sql`UPDATE capacity_pools SET held = held + ${count} WHERE id = ${poolId}`);
  await db.execute(sql`ANALYZE holds`);
}

/** pgbench's hot-row claim: one conditional UPDATE of the pool and one INSERT of a hold per transaction. */
function claimScript(poolId: number, ticketTypeId: number, saleId: string): string {
  return `BEGIN;
UPDATE capacity_pools SET held = held + 1 WHERE id = ${poolId} AND sold + held + 1 <= capacity;
INSERT INTO holds (sale_id, pool_id, ticket_type_id, qty, deadline) VALUES ('${saleId}', ${poolId}, ${ticketTypeId}, 1, now() + interval '1 hour');
COMMIT;
`;
}

/**
 * The server's own reservation straight from pgbench, without HTTP or Node: each transaction is
 * one call of reserve_basket (as the server makes it, with the buyer cap on) for the next of the
 * given one-ticket sales, from its own address.
 */
async function reservationScript(db: Database, saleIds: string[]): Promise<string> {
  await db.execute(sql`CREATE TABLE bench_sales (n integer PRIMARY KEY, id text NOT NULL)`);
  await db.execute(
    sql`INSERT INTO bench_sales SELECT ordinality, id FROM unnest(string_to_array(${saleIds.join(',')}, ',')) WITH ORDINALITY id`,
  );
  await db.execute(sql`CREATE SEQUENCE bench_next`);
  return `WITH k AS MATERIALIZED (SELECT nextval('bench_next') AS n)
SELECT reserve_basket((SELECT s.id FROM bench_sales s, k WHERE s.n = k.n), now(), now() + interval '10 minutes', '5s', 10, 100000,
  md5(random()::text), '10.' || (random() * 255)::int || '.' || (random() * 255)::int || '.' || (random() * 255)::int, NULL);
`;
}

/**
 * A pgbench script run for `seconds` with CONNECTIONS clients: its rate, and the database's CPU per
 * transaction, read between its first and last progress reports (its connections' processes end
 * with it).
 */
async function pgbench(
  db: Database,
  url: string,
  scriptText: string,
  seconds = SECONDS,
): Promise<{ tps: number; databaseMs: number | null } | null> {
  const dir = mkdtempSync(path.join(tmpdir(), 'holdfast-pgbench-'));
  const script = path.join(dir, 'script.sql');
  writeFileSync(script, scriptText);
  try {
    const child = spawn(
      'pgbench',
      ['-n', '-c', String(CONNECTIONS), '-j', '2', '-T', String(seconds), '-P', '1', '-f', script, url],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    const readings: { at: number; database: number }[] = [];
    const reads: Promise<unknown>[] = [];
    const progress: number[] = [];
    const onProgress = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        const m = /^progress: ([\d.]+) s, ([\d.]+) tps/.exec(line);
        if (!m) continue;
        progress.push(Number(m[2]));
        if (existsSync('/proc/stat')) {
          const at = progress.length;
          reads.push(
            backendsOf(db).then((backends) =>
              readings.push({ at, database: cpuOf((_comm, _ppid, pid) => backends.has(pid)) }),
            ),
          );
        }
      }
    };
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', onProgress);
    const code = await new Promise<number | null>((resolve) => {
      child.once('error', () => resolve(null));
      child.once('exit', resolve);
    });
    await Promise.all(reads);
    readings.sort((a, b) => a.at - b.at);
    const tps = /tps = ([\d.]+)/.exec(out);
    if (code !== 0 || !tps) return null;
    // Each progress line's rate is that of the second before it. The last second's reading is left
    // out: pgbench may have closed its connections before their processes were read, and a process
    // gone takes its CPU out of the sum.
    const steady = readings.filter((r) => r.at < progress.length);
    const first = steady[0];
    const last = steady.at(-1);
    const transactions =
      first && last && last.at > first.at ? progress.slice(first.at, last.at).reduce((sum, v) => sum + v, 0) : 0;
    return {
      tps: Number(tps[1]),
      databaseMs:
        transactions > 0 && last!.database >= first!.database
          ? (last!.database - first!.database) / transactions
          : null,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Many one-ticket sales, inserted in batches (a statement takes at most 65,535 parameters): the pgbench reservation's. */
async function oneTicketSales(db: Database, ticketTypeId: number, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count; done += 5_000) {
    ids.push(
      ...(await salesWith(
        db,
        Array.from({ length: Math.min(5_000, count - done) }, () => [{ ticketTypeId, qty: 1 }]),
      )),
    );
  }
  return ids;
}

/** A buyer as the server knows them: their own address and the cookies it gave them. */
interface Buyer {
  address: string;
  cookie: string;
}

const RESERVE_PATH = '/ajax/checkout/checkout/reserve_tickets/';

/**
 * `count` new buyers, each from a new address of their own, each adding one ticket of the type to
 * a basket over HTTP (16 at once), kept with the session and sale cookies the server set.
 */
async function makeBuyers(base: string, ticketTypeId: number, count: number): Promise<Buyer[]> {
  const made: Buyer[] = [];
  const failed: string[] = [];
  await run({
    url: base,
    connections: CONNECTIONS,
    amount: count,
    requests: [
      {
        method: 'POST',
        path: '/do/checkout/add/',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: `ticket[a][ticket]=${ticketTypeId}&ticket[a][qty]=1`,
        setupRequest: (req, context) => {
          const address = newAddress();
          (context as { address?: string }).address = address;
          return { ...req, headers: { ...req.headers, 'x-forwarded-for': address } };
        },
        onResponse: (status, body, context, headers) => {
          const set = [(headers as Record<string, string | string[] | undefined>)['set-cookie'] ?? []].flat();
          if (status !== 200 || set.length === 0) failed.push(`${status} ${body.slice(0, 200)}`);
          else
            made.push({
              address: (context as { address: string }).address,
              cookie: set.map((c) => c.split(';')[0]!).join('; '),
            });
        },
      },
    ],
  });
  if (made.length < count * 0.99)
    throw new Error(
      `${failed.length} of ${count} buyers could not add to their basket: ${failed.slice(0, 3).join(' | ')}`,
    );
  return made;
}

/** One request from each of `count` new addresses: the buyers behind live holds, seen by the server in the last minute. */
async function seenAddresses(base: string, count: number): Promise<void> {
  await run({
    url: base,
    connections: CONNECTIONS,
    amount: count,
    requests: [
      {
        method: 'GET',
        path: '/health',
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': newAddress() } }),
      },
    ],
  });
}

/**
 * Each buyer reserving their basket once over HTTP, 16 at once: holds a second over the whole run
 * (every reservation answered), and how many were not holds.
 */
async function reserveAll(
  base: string,
  buyers: Buyer[],
): Promise<{ rate: number; p99: number; notHeld: number; sample: string; total: number }> {
  let next = 0;
  let notHeld = 0;
  let sample = '';
  const started = performance.now();
  // The run ends with its last answer: autocannon itself ends a run of a set amount only at its next
  // one-second tick, which would cap a short turn's rate at its buyers a second.
  let lastAnswer = started;
  const result = await run({
    url: base,
    connections: CONNECTIONS,
    amount: buyers.length,
    requests: [
      {
        method: 'POST',
        path: RESERVE_PATH,
        headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        setupRequest: (req) => {
          const buyer = buyers[next++ % buyers.length]!;
          return { ...req, headers: { ...req.headers, cookie: buyer.cookie, 'x-forwarded-for': buyer.address } };
        },
        onResponse: (status, body) => {
          lastAnswer = performance.now();
          if (status === 200 && body.includes('"reserved":true')) return;
          notHeld++;
          sample ||= `${status} ${body.slice(0, 200)}`;
        },
      },
    ],
  });
  const seconds = (lastAnswer - started) / 1000;
  return {
    rate: (buyers.length - notHeld) / seconds,
    p99: result.latency.p99,
    notHeld,
    sample,
    total: result.requests.total,
  };
}

export interface ServerOptions {
  /** Live holds in the pool of each reservation case (the first is the one every other is compared with; 0 for none). */
  live: number[];
  /** Seconds of each measured turn (reservations: as many buyers as the warm-up's rate reserves in that time). */
  seconds: number;
  rounds: number;
  /** GET checkout against /health first. */
  reads: boolean;
  /** pgbench calling reserve_basket itself, and 600 buyers for 100 tickets. */
  extras: boolean;
}

export interface ServerFigures {
  driver: 'postgres' | 'pglite';
  /** Holds a second over HTTP with each number of live holds (PostgreSQL only). */
  holds: Map<number, number>;
  /** pgbench's hot-row claim, transactions a second; null when pgbench could not run. */
  ceiling: number | null;
}

const DEFAULTS: ServerOptions = {
  live: [0, 10_000, 50_000],
  seconds: SECONDS,
  rounds: ROUNDS,
  reads: true,
  extras: true,
};

export async function benchServer(options: Partial<ServerOptions> = {}): Promise<ServerFigures> {
  const opts = { ...DEFAULTS, ...options };
  const warmUp = Math.max(2, Math.round(opts.seconds / 4));
  const t = await target();
  const port = await freePort();
  // BENCH_WORKERS=n runs the server as n processes sharing the port (PostgreSQL only), as WORKERS does in production.
  const workers: Record<string, string> =
    t.driver === 'postgres' && process.env.BENCH_WORKERS ? { WORKERS: process.env.BENCH_WORKERS } : {};
  const server = await startServer({ ...t.env, ...workers, PORT: String(port) });
  const base = `http://127.0.0.1:${port}`;
  const figures: ServerFigures = { driver: t.driver, holds: new Map(), ceiling: null };
  console.log(
    `\n## Server throughput (${t.driver}; the server in its own process${workers.WORKERS ? ` (${workers.WORKERS} workers)` : ''}${t.driver === 'postgres' ? ` (settings as shipped: DATABASE_POOL_SIZE ${process.env.DATABASE_POOL_SIZE ?? 10}, RESERVE_CONCURRENCY ${process.env.RESERVE_CONCURRENCY ?? 4})` : ''}; ${CONNECTIONS} connections, ${opts.seconds} s per turn, ${opts.rounds} round${opts.rounds === 1 ? '' : 's'})`,
  );

  try {
    if (opts.reads) {
      const demo = await (await fetch(`${base}/all-events/`)).text();
      const ticketId = Number(
        /name="ticket\[[^\]]+\]\[ticket\]" value="(\d+)"/.exec(
          await (await fetch(`${base}${/href="(\/event\/[^"]+)"/.exec(demo)![1]}`)).text(),
        )?.[1],
      );
      const add = await fetch(`${base}/do/checkout/add/`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: `ticket[a][ticket]=${ticketId}&ticket[a][qty]=2`,
      });
      const cookie = add.headers
        .getSetCookie()
        .map((c) => c.split(';')[0]!)
        .join('; ');
      const getCheckout = (duration: number) =>
        run({ url: `${base}/ajax/checkout/checkout/get/`, connections: CONNECTIONS, duration, headers: { cookie } });
      const getTrivial = (duration: number) => run({ url: `${base}/health`, connections: CONNECTIONS, duration });
      // As with the live-holds cases below: both routes warm up unmeasured (the server's compiled
      // code, the database's plans), then run in turns, so drift over the run falls on both alike.
      await getCheckout(warmUp);
      await getTrivial(warmUp);
      const routes = await inTurns(
        ['checkout', 'trivial'] as const,
        (route) => (route === 'checkout' ? getCheckout(opts.seconds) : getTrivial(opts.seconds)),
        opts.rounds,
      );
      const checkoutTurns = routes.get('checkout')!;
      const trivialTurns = routes.get('trivial')!;
      const checkoutRate = meanOf(checkoutTurns.map((r) => r.requests.average));
      const trivialRate = meanOf(trivialTurns.map((r) => r.requests.average));
      console.log(
        `GET checkout (filled basket): ${fmt(checkoutRate)} req/s (turns ${checkoutTurns.map((r) => `${fmt(r.requests.average)} (p99 ${r.latency.p99} ms)`).join(', ')}; non-2xx ${checkoutTurns.reduce((sum, r) => sum + r.non2xx, 0)})`,
      );
      console.log(
        `GET /health (trivial route):  ${fmt(trivialRate)} req/s (turns ${trivialTurns.map((r) => fmt(r.requests.average)).join(', ')})`,
      );
      console.log(
        `  ratio checkout ÷ trivial: ${(checkoutRate / trivialRate).toFixed(3)} (turns ${checkoutTurns.map((r, i) => (r.requests.average / trivialTurns[i]!.requests.average).toFixed(3)).join(', ')}) (goal ≥ 0.12)`,
      );
    }

    if (!t.db || !t.url) {
      console.log(
        'Hot-ticket figures need PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL): PGlite serves one process, so the bench cannot reach its database beside the server.',
      );
      return figures;
    }
    const db = t.db;
    // Buyers a turn reserves: as many as the warm-up's rate reserves in a turn's time.
    let perTurn = 0;
    const reserveAt = async (liveHolds: number, buyersWanted: number) => {
      const hot = await hotEvent(db, { capacity: 10_000_000, types: 1 });
      const type = hot.types[0]!.id;
      if (liveHolds) await fillLiveHolds(db, hot.poolId, type, liveHolds);
      const buyers = await makeBuyers(base, type, buyersWanted);
      // The fixture's bulk writes are settled first, as autovacuum settles an on-sale's steady
      // writes, so a case does not pay for the dead rows of the fixtures and cases before it.
      await db.execute(sql`VACUUM ANALYZE`);
      // The live holds' buyers, each seen from their own address within the last minute.
      if (liveHolds) await seenAddresses(base, liveHolds);
      const before = await cpuNow(server.pid, db);
      const result = await reserveAll(base, buyers);
      const cpu = cpuPer(before, await cpuNow(server.pid, db), result.total);
      if (result.notHeld > 0)
        console.log(`  ${result.notHeld} of ${buyers.length} reservations were not holds, e.g. ${result.sample}`);
      return { ...result, cpu };
    };
    // An unmeasured run first, long enough for the server's compiled code to settle (300 buyers
    // left the first measured turn's server at nearly twice its later CPU a request) and the
    // database's caches to warm, then the cases
    // in turns (0, 10k, 50k, 50k, 10k, 0, …): each turn adds its fixtures' sales and holds to the
    // database. Each figure is the mean of its turns.
    const warm = await reserveAt(0, 1_000);
    perTurn = Math.max(300, Math.min(20_000, Math.round(warm.rate * opts.seconds)));
    const results = await inTurns(opts.live, (live) => reserveAt(live, perTurn), opts.rounds);
    const rate = (live: number) => meanOf(results.get(live)!.map((r) => r.rate));
    for (const live of opts.live) figures.holds.set(live, rate(live));
    const turns = (live: number) =>
      `turns ${results
        .get(live)!
        .map((r) => `${fmt(r.rate)} (p99 ${r.p99} ms)`)
        .join(', ')}; not held ${results.get(live)!.reduce((sum, r) => sum + r.notHeld, 0)}`;
    const [first, ...others] = opts.live;
    const none = rate(first!);
    console.log(
      `reserve one hot ticket over HTTP (${fmt(perTurn)} new buyers a turn, each from their own address, basket made over HTTP), ${first ? `${fmt(first)} live holds` : 'no other live holds'}: ${fmt(none)} holds/s (${turns(first!)})`,
    );
    for (const { cpu } of results.get(first!)!) if (cpu) console.log(`  ${cpu}`);
    for (const live of others) {
      console.log(
        `  with ${fmt(live)} live holds: ${fmt(rate(live))} holds/s (${turns(live)}); ratio to ${first ? fmt(first) : 'none'} ${(rate(live) / none).toFixed(2)} (goal ≥ 0.9 at 50,000)`,
      );
      for (const { cpu } of results.get(live)!) if (cpu) console.log(`    ${cpu}`);
    }

    const ceilingPool = await hotEvent(db, { capacity: 10_000_000, types: 1 });
    const [holder] = await salesWith(db, [[]]);
    const ceiling = await pgbench(
      db,
      t.url,
      claimScript(ceilingPool.poolId, ceilingPool.types[0]!.id, holder!),
      opts.seconds,
    );
    if (ceiling === null)
      console.log(
        'pgbench could not run (is it installed? `which pgbench`; Debian: apt-get install postgresql-client): no database ceiling this run.',
      );
    else {
      figures.ceiling = ceiling.tps;
      console.log(`pgbench hot-row claim (UPDATE + INSERT, ${CONNECTIONS} clients): ${fmt(ceiling.tps)} tps`);
      if (ceiling.databaseMs !== null)
        console.log(`  CPU per transaction: database ${ceiling.databaseMs.toFixed(2)} ms`);
      console.log(`  ratio reserve over HTTP ÷ pgbench: ${(none / ceiling.tps).toFixed(2)} (goal ≥ 0.6)`);
      if (opts.extras) {
        // The same reservation as the server's, from pgbench: what the database allows our reservation
        // (its rules: the sale's state and basket, the buyer cap, the pool), so the rest is HTTP's share.
        const pool = await hotEvent(db, { capacity: 10_000_000, types: 1 });
        const own = await pgbench(
          db,
          t.url,
          await reservationScript(db, await oneTicketSales(db, pool.types[0]!.id, 40_000)),
          opts.seconds,
        );
        if (own) {
          console.log(
            `pgbench calling reserve_basket (the server's one statement, ${CONNECTIONS} clients): ${fmt(own.tps)} tps`,
          );
          if (own.databaseMs !== null) console.log(`  CPU per transaction: database ${own.databaseMs.toFixed(2)} ms`);
          console.log(`  ratio reserve over HTTP ÷ this: ${(none / own.tps).toFixed(2)}`);
        }
      }
    }

    if (opts.extras) {
      // Never oversold: 600 buyers for 100 tickets.
      const small = await hotEvent(db, { capacity: 100, types: 1 });
      const buyers = await makeBuyers(base, small.types[0]!.id, 600);
      const result = await reserveAll(base, buyers);
      const [counted] = await rows<{ held: number }>(
        db,
        sql`SELECT held FROM capacity_pools WHERE id = ${small.poolId}`,
      );
      console.log(
        `600 buyers for 100 tickets over HTTP: ${buyers.length - result.notHeld} holds, ${counted!.held} held in the pool, oversold ${Math.max(0, counted!.held - 100)}`,
      );
    }
    return figures;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    await t.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchServer();
  process.exit(0);
}
