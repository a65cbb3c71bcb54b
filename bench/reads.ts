/**
 * What the reads every open basket repeats cost, printed and never gating anything. In one run,
 * each against the same ceiling: a bare route answering `{ ok: true }` from the project's own
 * Fastify with nothing around it (bench/bare-fastify.ts), the project's `/health`, and GET checkout
 * for a three-line basket, once as a first read (no If-None-Match) and once as the repeat a
 * browser makes (If-None-Match with the ETag it was given: 304 while nothing changed).
 * Each server runs in its own process, the load comes from this one.
 *
 *   npx tsx bench/reads.ts                                   # embedded PGlite
 *   TEST_DATABASE_URL=postgres://… npx tsx bench/reads.ts    # PostgreSQL (a fresh database)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import type autocannon from 'autocannon';
import { existsSync } from 'node:fs';
import {
  backendsOf,
  cpuOf,
  fmt,
  freePort,
  inTurns,
  meanOf,
  run,
  startServer,
  target,
  type Target,
} from './server-throughput.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const WARM_UP_SECONDS = Math.max(2, Math.round(SECONDS / 4));
/** Every request says what a browser's says of the encodings it reads (Chromium's): the replies are what a browser gets. */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

async function startBare(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-fastify.ts'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('running at')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the bare server stopped (${code}) before listening`)));
  });
  return child;
}

/** A basket of three ticket lines from the demo catalogue: its cookie. */
async function threeLineBasket(base: string): Promise<string> {
  const all = await (await fetch(`${base}/all-events/`)).text();
  for (const [, href] of all.matchAll(/href="(\/event\/[^"]+)"/g)) {
    const page = await (await fetch(`${base}${href}`)).text();
    const ids = [...new Set([...page.matchAll(/name="ticket\[[^\]]+\]\[ticket\]" value="(\d+)"/g)].map((m) => m[1]!))];
    if (ids.length < 3) continue;
    const body = ids
      .slice(0, 3)
      .map((id, i) => `ticket[l${i}][ticket]=${id}&ticket[l${i}][qty]=1`)
      .join('&');
    const add = await fetch(`${base}/do/checkout/add/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
    });
    if (!add.ok) throw new Error(`adding three lines failed: ${add.status} ${await add.text()}`);
    const cookie = add.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .join('; ');
    const checkout = (await (await fetch(`${base}/ajax/checkout/checkout/get/`, { headers: { cookie } })).json()) as {
      tickets: unknown[];
    };
    if (checkout.tickets.length !== 3) throw new Error(`the basket has ${checkout.tickets.length} lines, not 3`);
    return cookie;
  }
  throw new Error('no demo event has three ticket types');
}

/**
 * CPU milliseconds so far of a server process (and the processes it started) and, on PostgreSQL,
 * of the bench database's backends: what a request costs wherever it runs, whatever else the
 * machine is doing meanwhile (the rates fall with a busy machine; this does not).
 */
async function cpuOfServer(pid: number | undefined, t: Target | null): Promise<Map<number, number> | null> {
  if (pid === undefined || !existsSync('/proc/stat')) return null;
  const backends = t?.db ? await backendsOf(t.db) : new Set<number>();
  const each = new Map<number, number>();
  each.set(
    pid,
    cpuOf((_comm, ppid, p) => p === pid || ppid === pid),
  );
  for (const b of backends)
    each.set(
      b,
      cpuOf((_comm, _ppid, p) => p === b),
    );
  return each;
}

/**
 * CPU milliseconds between two readings, by process: a backend the pool opened meanwhile counts
 * from nothing, one it closed meanwhile (its CPU no longer readable) is left out.
 */
function cpuBetween(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let sum = 0;
  for (const [p, ms] of after) sum += ms - (before.get(p) ?? 0);
  return sum;
}

const statusesOf = (r: autocannon.Result) => {
  const stats = (r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {};
  return Object.entries(stats)
    .map(([code, { count }]) => `${code}×${fmt(count)}`)
    .join(' ');
};

/** Figures of a run: each case's requests a second. */
export type ReadCase = 'bare' | 'health' | 'checkout' | 'revalidate';

export async function benchReads(only?: {
  cases: ReadCase[];
  seconds: number;
  rounds: number;
  /** On the embedded database even when PostgreSQL is given. */
  embedded?: boolean;
}): Promise<Map<ReadCase, number>> {
  const seconds = only?.seconds ?? SECONDS;
  const warmUp = only ? Math.max(1, Math.round(seconds / 2)) : WARM_UP_SECONDS;
  const t = await target({ embedded: only?.embedded ?? false });
  const [port, barePort] = [await freePort(), await freePort()];
  const server = await startServer({ ...t.env, PORT: String(port) });
  const bare = await startBare(barePort);
  const base = `http://127.0.0.1:${port}`;
  console.log(
    `\n## Reads (${t.driver}, rate limit store ${t.driver === 'postgres' ? 'database' : 'memory'}; each server in its own process; ${CONNECTIONS} connections, ${seconds} s per turn)`,
  );
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  try {
    const cookie = await threeLineBasket(base);
    const first = await fetch(`${base}/ajax/checkout/checkout/get/`, { headers: { ...BROWSER, cookie } });
    const etag = first.headers.get('etag');
    await first.arrayBuffer();
    const repeat = etag
      ? await fetch(`${base}/ajax/checkout/checkout/get/`, { headers: { ...BROWSER, cookie, 'if-none-match': etag } })
      : null;
    console.log(
      `GET checkout: ETag ${etag ?? 'none'}; cache-control ${first.headers.get('cache-control')}; content-encoding ${first.headers.get('content-encoding') ?? 'none'}; the repeat with If-None-Match answers ${repeat?.status ?? '(no ETag)'}`,
    );

    // The bare server uses no database: its figure is its own process's CPU alone.
    const measured =
      (pid: number | undefined, go: (d: number) => Promise<autocannon.Result>, database = true) =>
      async (d: number) => {
        const before = await cpuOfServer(pid, database ? t : null);
        const serverBefore = await cpuOfServer(pid, null);
        const result = await go(d);
        const after = await cpuOfServer(pid, database ? t : null);
        const serverAfter = await cpuOfServer(pid, null);
        const per = (a: Map<number, number> | null, b: Map<number, number> | null) => {
          const ms = cpuBetween(a, b);
          return ms === null ? null : ms / Math.max(1, result.requests.total);
        };
        return Object.assign(result, { cpuMs: per(before, after), serverCpuMs: per(serverBefore, serverAfter) });
      };
    const cases = {
      bare: measured(
        bare.pid,
        (d) =>
          run({ url: `http://127.0.0.1:${barePort}/bare`, connections: CONNECTIONS, duration: d, headers: BROWSER }),
        false,
      ),
      health: measured(server.pid, (d) =>
        run({ url: `${base}/health`, connections: CONNECTIONS, duration: d, headers: BROWSER }),
      ),
      checkout: measured(server.pid, (d) =>
        run({
          url: `${base}/ajax/checkout/checkout/get/`,
          connections: CONNECTIONS,
          duration: d,
          headers: { ...BROWSER, cookie },
        }),
      ),
      revalidate: measured(server.pid, (d) =>
        run({
          url: `${base}/ajax/checkout/checkout/get/`,
          connections: CONNECTIONS,
          duration: d,
          headers: { ...BROWSER, cookie, ...(etag ? { 'if-none-match': etag } : {}) },
        }),
      ),
    };
    type Case = keyof typeof cases;
    const names = (Object.keys(cases) as Case[]).filter((name) => !only || only.cases.includes(name));
    for (const name of names) await cases[name](warmUp);
    const turns = await inTurns(names, (name) => cases[name](seconds), only?.rounds);
    const rate = (name: Case) => meanOf(turns.get(name)!.map((r) => r.requests.average));
    const label: Record<Case, string> = {
      bare: 'bare Fastify { ok: true }',
      health: 'GET /health',
      checkout: 'GET checkout, 3 lines',
      revalidate: 'GET checkout, If-None-Match',
    };
    const cpu = (name: Case) => {
      const each = turns.get(name)!.map((r) => (r as typeof r & { cpuMs: number | null }).cpuMs);
      return each.every((c) => c !== null) ? meanOf(each as number[]) : null;
    };
    const serverCpu = (name: Case) => {
      const each = turns.get(name)!.map((r) => (r as typeof r & { serverCpuMs: number | null }).serverCpuMs);
      return each.every((c) => c !== null) ? meanOf(each as number[]) : null;
    };
    const cpuLabel = (name: Case) =>
      cpu(name) === null
        ? ''
        : `${(cpu(name)! * 1000).toFixed(0)} µs CPU (server${t.db && name !== 'bare' ? ` ${(serverCpu(name)! * 1000).toFixed(0)} + database` : ''}) per request`;
    for (const name of names) {
      const rs = turns.get(name)!;
      console.log(
        `${label[name].padEnd(30)} ${fmt(rate(name)).padStart(7)} req/s, ${cpuLabel(name)}  (turns ${rs.map((r) => `${fmt(r.requests.average)} p99 ${r.latency.p99} ms`).join(', ')}; ${rs.map(statusesOf).join(' / ')})`,
      );
    }
    const ratio = (name: Case) =>
      `${(rate(name) / rate('bare')).toFixed(3)} (turns ${turns
        .get(name)!
        .map((r, i) => (r.requests.average / turns.get('bare')![i]!.requests.average).toFixed(3))
        .join(', ')})`;
    const goals: Record<Exclude<Case, 'bare'>, string> = {
      health: '  /health ÷ bare:                      ',
      checkout: '  GET checkout ÷ bare:                 ',
      revalidate: '  GET checkout, If-None-Match ÷ bare:  ',
    };
    for (const name of names)
      if (name !== 'bare') console.log(`${goals[name]}${ratio(name)} (goal ≥ ${name === 'health' ? '0.5' : '0.12'})`);
    if (cpu('bare') !== null && names.length === 4) {
      const per = (name: Case) => `${(cpu('bare')! / cpu(name)!).toFixed(3)}`;
      console.log(
        `  CPU per request, bare's ÷ the route's (what the rates' ratios come to when the server's CPU is what runs out; unlike the rates, not moved by what else the machine runs):`,
      );
      console.log(
        `    /health ${per('health')}; GET checkout ${per('checkout')}; GET checkout, If-None-Match ${per('revalidate')}`,
      );
    }
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')}`,
    );
    return new Map(names.map((name) => [name, rate(name)]));
  } finally {
    for (const child of [server, bare]) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await t.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchReads();
  process.exit(0);
}
