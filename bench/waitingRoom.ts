/**
 * The waiting room at on-sale scale, printed and never gating anything:
 *  1. server CPU per queue poll against `/health`, over HTTP with 100,000 buyers queued (the server
 *     in a process of its own, on its own embedded database; each poll carries one of the
 *     queued buyers' places);
 *  2. admitted order against join order for buyers joining one after another, concurrently, after
 *     the on-sale (Kendall tau; 1 is exactly first come, first served);
 *  3. the admitted rate against the configured one, and how many tickets were sold beyond capacity
 *     (must be 0), simulating a second at a time: 100,000 queued buyers, the queue asked every second,
 *     each admitted buyer reserving through the hold path (most of them), holds running out;
 *  4. 'sold out' once sales and live holds cover the stock, and the queue open again once holds expire;
 *  6. 'your turn' and 'sold out' pushed to open queue pages: BENCH_LISTENERS pages (5,000; the pages
 *     and the server share one process's open-file limit, so 20,000 files allow about 9,500) listening
 *     over real sockets with 100,000 queued, the p95 and worst time from admission reaching a page's
 *     number to that page knowing it is admitted (the push, then its poll), and from the last ticket
 *     going to every waiting page showing 'sold out';
 *  5. with LIGHTHOUSE_URL (a running demo server, built), Lighthouse mobile on its first queue page
 *     (LIGHTHOUSE_RUNS runs, 3; the median shown). The page is measured as a waiting buyer sees it:
 *     before the demo's on-sale opens (its first three minutes, or DEMO_ON_SALE_DELAY_SECONDS), as
 *     after it a new buyer is let in at once and leaves for the tickets; such a run is not counted.
 * Uses PostgreSQL for 2–4 when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, else PGlite.
 *
 *   npx tsx bench/waitingRoom.ts
 *   npx tsx bench/waitingRoom.ts --poll-only
 *   npx tsx bench/waitingRoom.ts --push-only
 *   npx tsx bench/waitingRoom.ts --release-only
 *   npx tsx bench/waitingRoom.ts --admission-only
 *   LIGHTHOUSE_URL=http://127.0.0.1:3000 npx tsx bench/waitingRoom.ts --lighthouse-only
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { connect, createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { testConfig } from '../server/config.ts';
import { rows, type Database } from '../server/db/index.ts';
import { openTestDatabase } from '../server/db/testing.ts';
import * as t from '../server/db/schema.ts';
import { hotEvent, salesWith } from '../server/test/fixtures.ts';
import { join, useAdmissionFor, WaitingRooms } from '../server/domain/waitingRoom/room.ts';
import { signer } from '../server/domain/waitingRoom/tokens.ts';
import { bindingOf } from '../server/http/session.ts';
import { reserveSale } from '../server/domain/reserve.ts';

const QUEUED = Number(process.env.BENCH_QUEUED ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Rounds of the poll's cost, each a turn of /health and one of the poll, in alternating order. */
const POLL_ROUNDS = Number(process.env.BENCH_POLL_ROUNDS ?? 4);
const RATE_PER_MINUTE = 600;
const CAPACITY = 2_000;
const CHECKOUT_SECONDS = 600;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-GB', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A queued date with `queued` places already taken (numbered 1..queued, joined after the on-sale). */
async function queuedDate(
  db: Database,
  opts: { capacity: number; queued: number; onSaleAt: Date; ratePerMinute: number; maxShoppers: number },
) {
  const { types, poolId } = await hotEvent(db, { capacity: opts.capacity, types: 1 });
  const type = types[0]!;
  await db.insert(t.eventDateQueues).values({
    eventDateId: type.eventDateId,
    onSaleAt: opts.onSaleAt,
    maxShoppers: opts.maxShoppers,
    admitPerMinute: opts.ratePerMinute,
    admissionSeconds: CHECKOUT_SECONDS,
    pollSeconds: 5,
    drawn: true,
    joined: opts.queued,
    steppedAt: opts.onSaleAt,
  });
  // Joins inserted in bulk, numbered as join() numbers a later arrival.
  await db.execute(
    sql`INSERT INTO queue_places (event_date_id, number, draw, joined_at)
        SELECT ${type.eventDateId}, g, random(), ${opts.onSaleAt.toISOString()}::timestamptz FROM generate_series(1, ${opts.queued}) g`,
  );
  return { dateId: type.eventDateId, typeId: type.id, poolId };
}

/* ---------- 1. the server's side: a process of its own ---------- */

async function serve(): Promise<void> {
  const secret = process.env.BENCH_SECRET!;
  const database = await openTestDatabase('pglite', 1);
  const now = new Date();
  const { dateId } = await queuedDate(database.db, {
    capacity: CAPACITY,
    queued: QUEUED,
    onSaleAt: new Date(now.getTime() - 1000),
    ratePerMinute: RATE_PER_MINUTE,
    maxShoppers: 1000,
  });
  const app = await buildApp({
    db: database.db,
    config: testConfig({ sessionSecret: secret, staticDir: '/nonexistent', rateLimitPerMinute: 1_000_000_000 }),
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ port, dateId })}\n`);
  // Stopping by exiting, so that a CPU profile (BENCH_CPU_PROF) is written.
  process.once('SIGTERM', () => process.exit(0));
}

function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}

async function pollCost(): Promise<void> {
  const secret = randomBytes(16).toString('hex');
  // BENCH_CPU_PROF=<folder> writes the server's CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', new URL(import.meta.url).pathname, '--serve'], {
    env: { ...process.env, BENCH_SECRET: secret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<{ port: number; dateId: number }>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { port: number; dateId: number });
    });
    child.once('exit', (code) => reject(new Error(`the bench server stopped (${code})`)));
  });
  try {
    const base = `http://127.0.0.1:${ready.port}`;
    const sign = signer(secret);
    // Each request a different waiting buyer's place, from all over the back half of the queue, which
    // admission does not reach while the turns run: a buyer let in stores its admission and leaves
    // for the tickets, so its polls are not the waiting crowd's.
    const requests = Array.from({ length: 2000 }, (_, i) => {
      const number = Math.ceil(QUEUED / 2) + Math.floor(((i * 7919) % 2000) * (QUEUED / 2 / 2000));
      // Each buyer's place is bound to their own session.
      const session = `a${createHash('sha256').update(`bench ${i}`).digest('base64url')}`;
      const place = sign.place(
        { dateId: ready.dateId, placeId: number, number, startedAt: 0, admittedUntil: 0, expiresAt: 4_000_000_000 },
        bindingOf(session),
      );
      const cookie = `hf_session=${session}; hf_queue_${ready.dateId}=${place}`;
      return { method: 'GET' as const, path: `/ajax/queue/${ready.dateId}/status/`, headers: { cookie } };
    });
    // Both turns at the same offered rate (BENCH_POLL_RATE requests/s, below what either reaches), so
    // the server batches alike in both and the CPU per request compares the work, not the load.
    const rate = Number(process.env.BENCH_POLL_RATE ?? 0) || undefined;
    // What the server spends a second on its own (the queue's step, timers), measured beside each
    // turn: a turn's CPU less that, over its requests, is what one more request costs, whichever
    // rate each turn reaches on a shared machine.
    const idleCpuPerSecond = async () => {
      const before = cpuMs(child.pid!);
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return (cpuMs(child.pid!) - before) / ((performance.now() - started) / 1000);
    };
    const measure = async (label: string, opts: autocannon.Options) => {
      await cannon({ ...opts, duration: 1, connections: 16, overallRate: rate });
      const idle = await idleCpuPerSecond();
      const before = cpuMs(child.pid!);
      const started = performance.now();
      const result = await cannon({ ...opts, duration: SECONDS, connections: 16, overallRate: rate });
      const used = cpuMs(child.pid!) - before - idle * ((performance.now() - started) / 1000);
      const n = result.requests.total;
      const bad = result.non2xx + result.errors;
      console.log(
        `  ${label.padEnd(26)} ${fmt(result.requests.average)} requests/s, server CPU ${fmt((used / n) * 1000, 1)} µs per request${bad ? `, ${bad} failed` : ''}`,
      );
      return used / n;
    };
    console.log(
      `1. Server CPU per poll against /health (${fmt(QUEUED)} buyers queued; server in its own process; turns alternate)`,
    );
    // A live on-sale steps its queue once a second (admission, the draw, what is left), whoever
    // polls and however often: one buyer's poll a second keeps it stepping through every turn,
    // /health's too, so the turns compare what one more request costs. The step's own cost is
    // measured first, on its own.
    const ticker = setInterval(
      () => void fetch(`${base}${requests[0]!.path}`, { headers: requests[0]!.headers }).then((r) => r.arrayBuffer()),
      1000,
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const stepBefore = cpuMs(child.pid!);
      await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
      console.log(
        `  the queue stepping with one poll a second: ${fmt((cpuMs(child.pid!) - stepBefore) / SECONDS, 1)} ms of server CPU a second`,
      );
      const health: number[] = [];
      const poll: number[] = [];
      for (let round = 0; round < POLL_ROUNDS; round++) {
        const order = round % 2 === 0 ? (['health', 'poll'] as const) : (['poll', 'health'] as const);
        for (const which of order) {
          if (which === 'health') health.push(await measure('GET /health', { url: `${base}/health` }));
          else poll.push(await measure('GET queue status (poll)', { url: base, requests }));
        }
      }
      // The median of each: a turn that a neighbour's burst slowed counts once, not in full.
      const median = (xs: number[]) => {
        const sorted = [...xs].sort((a, b) => a - b);
        return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
      };
      console.log(`  poll ÷ /health CPU per request: ${fmt(median(poll) / median(health), 2)} (≤ 1 wanted)`);
    } finally {
      clearInterval(ticker);
    }
  } finally {
    child.kill('SIGTERM');
  }
}

/* ---------- 2–4. the queue's own figures, on the database ---------- */

/** Kendall's tau-b between two rankings of the same items (1: the same order). */
function kendallTau(a: number[], b: number[]): number {
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const s = Math.sign(a[i]! - a[j]!) * Math.sign(b[i]! - b[j]!);
      if (s > 0) concordant++;
      else if (s < 0) discordant++;
    }
  }
  return (concordant - discordant) / (concordant + discordant);
}

async function fifo(db: Database): Promise<void> {
  const onSaleAt = new Date(Date.now() - 1000);
  const { dateId } = await queuedDate(db, {
    capacity: CAPACITY,
    queued: QUEUED,
    onSaleAt,
    ratePerMinute: RATE_PER_MINUTE,
    maxShoppers: 1000,
  });
  // Buyers arriving one after another after the on-sale, 8 at a time in flight (as from many browsers).
  const arrivals = 3000;
  const joinedAs: { sent: number; number: number }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < arrivals) {
        const sent = next++;
        const placed = await join(db, dateId, new Date());
        joinedAs.push({ sent, number: placed.number });
      }
    }),
  );
  const tau = kendallTau(
    joinedAs.map((j) => j.sent),
    joinedAs.map((j) => j.number),
  );
  const first = Math.min(...joinedAs.map((j) => j.number));
  console.log(
    `2. Admitted order against join order: ${fmt(arrivals)} buyers joining after ${fmt(QUEUED)} queued, 8 at a time`,
  );
  console.log(
    `  numbered from ${fmt(first)} (behind the ${fmt(QUEUED)} already queued); Kendall tau ${fmt(tau, 4)} (≥ 0.99 wanted)`,
  );
}

async function admission(db: Database): Promise<void> {
  const onSaleAt = new Date('2026-09-01T10:00:00Z');
  let now = new Date(onSaleAt);
  const { dateId, typeId, poolId } = await queuedDate(db, {
    capacity: CAPACITY,
    queued: QUEUED,
    onSaleAt,
    ratePerMinute: RATE_PER_MINUTE,
    maxShoppers: 5_000,
  });
  const rooms = new WaitingRooms(db, () => now);
  const reserving = 0.8;
  let admitted = 0;
  let reservedTickets = 0;
  let refused = 0;
  let soldOutAt: number | null = null;
  let reopenedAt: number | null = null;
  let admittedBeforeSoldOut = 0;
  let admittedInFirstMinute = 0;
  const started = performance.now();
  for (let second = 1; second <= 1200; second++) {
    now = new Date(onSaleAt.getTime() + second * 1000);
    const date = (await rooms.current()).get(dateId)!;
    const newly = date.row.admittedThrough - admitted;
    // The buyers let in come back for their turn, as their pages do: each place's turn starts now.
    const turns =
      newly > 0
        ? await rows<{ id: number }>(
            db,
            sql`UPDATE queue_places SET admitted_at = ${now.toISOString()}::timestamptz
                WHERE event_date_id = ${dateId} AND number > ${admitted} AND number <= ${date.row.admittedThrough} RETURNING id`,
          )
        : [];
    admitted = date.row.admittedThrough;
    if (date.row.soldOut && soldOutAt === null) {
      soldOutAt = second;
      admittedBeforeSoldOut = admitted;
    }
    if (second === 60) admittedInFirstMinute = date.row.admittedThrough;
    if (soldOutAt !== null && reopenedAt === null && !date.row.soldOut) reopenedAt = second;
    // Most admitted buyers reserve one to four tickets through the hold path; the rest look and leave.
    // A reservation uses its buyer's turn, as the reservation's gate does (the turn stops counting as a shopper).
    const buyers = turns.filter(() => Math.random() < reserving);
    if (buyers.length) {
      const baskets = buyers.map(() => [{ ticketTypeId: typeId, qty: 1 + Math.floor(Math.random() * 4) }]);
      const pending = await salesWith(db, baskets);
      const results = await Promise.all(pending.map((id) => reserveSale(db, id, now, CHECKOUT_SECONDS)));
      await Promise.all(
        results.map(async (r, i) => {
          if (r.reserved) {
            reservedTickets += baskets[i]![0]!.qty;
            await useAdmissionFor(db, Number(buyers[i]!.id), dateId, pending[i]!);
          } else refused++;
        }),
      );
    }
    if (reopenedAt !== null) break;
  }
  const [pool] = await rows<{ sold: number; held: number; capacity: number }>(
    db,
    sql`SELECT sold, held, capacity FROM capacity_pools WHERE id = ${poolId}`,
  );
  const [live] = await rows<{ n: number }>(
    db,
    sql`SELECT COALESCE(sum(qty), 0)::int AS n FROM holds WHERE pool_id = ${poolId} AND deadline > ${now.toISOString()}::timestamptz`,
  );
  const overCapacity = Math.max(0, Number(pool!.sold) + Number(pool!.held) - Number(pool!.capacity));
  const measuredSeconds = soldOutAt ?? 1200;
  const rate = ((soldOutAt !== null ? admittedBeforeSoldOut : admitted) / measuredSeconds) * 60;
  console.log(
    `3. Admission: ${fmt(QUEUED)} queued, ${fmt(CAPACITY)} tickets, configured ${fmt(RATE_PER_MINUTE)} a minute (simulated a second at a time, ${fmt((performance.now() - started) / 1000, 1)} s of real time)`,
  );
  console.log(
    `  admitted ${fmt(admittedInFirstMinute)} in the first minute, while tickets are plentiful: ${fmt(admittedInFirstMinute / RATE_PER_MINUTE, 3)} of the configured rate (within 10 % wanted)`,
  );
  console.log(
    `  admitted ${fmt(rate, 1)} a minute until the sell-out: ${fmt(rate / RATE_PER_MINUTE, 3)} of the configured rate (lower once the tickets left, less live holds and the turns still shopping, are fewer than the rate would let in)`,
  );
  console.log(
    `  tickets reserved ${fmt(reservedTickets)} for ${fmt(CAPACITY)} in stock (expired holds' tickets reserved again); reservations refused (stock gone) ${fmt(refused)}; oversold ${overCapacity} (0 wanted); live held at the end ${fmt(Number(live!.n))}`,
  );
  console.log(
    `4. Sold out told at ${soldOutAt === null ? 'never' : `${soldOutAt} s`}; the queue opened again at ${reopenedAt === null ? 'never' : `${reopenedAt} s`} (holds last ${CHECKOUT_SECONDS} s)`,
  );
}

/**
 * A release: every ticket held, the holds run out together, and the queue (QUEUED waiting, let in
 * at 100 a second) lets in buyers for them. Nobody reserves, so every buyer let in is still
 * shopping: no more should be let in than the released tickets can serve.
 */
async function release(db: Database): Promise<void> {
  const onSaleAt = new Date('2026-09-01T10:00:00Z');
  let now = new Date(onSaleAt);
  const released = 10;
  const { dateId, typeId } = await queuedDate(db, {
    capacity: released,
    queued: QUEUED,
    onSaleAt,
    ratePerMinute: 6000,
    maxShoppers: 100_000,
  });
  const rooms = new WaitingRooms(db, () => now);
  const [sale] = await salesWith(db, [[{ ticketTypeId: typeId, qty: released }]]);
  // Every ticket held, for 5 seconds: sold out until the holds run out together.
  const held = await reserveSale(db, sale!, now, 5, {
    maxPerOrder: released,
    maxHeldPerBuyer: released,
    buyer: { userId: null, ip: '10.0.0.1' },
  });
  if (!held.reserved) throw new Error(`the release's hold was refused: ${held.error}`);
  const step = async () => (await rooms.current()).get(dateId)!.row;
  const before = (await step()).admittedThrough;
  for (let second = 1; second <= 30; second++) {
    now = new Date(onSaleAt.getTime() + second * 1000);
    await step();
  }
  const admitted = (await step()).admittedThrough - before;
  console.log(
    `5b. A release of ${released} tickets to ${fmt(QUEUED)} queued (let in at 100 a second, nobody reserving, 30 s): ${admitted} let in, ${fmt(admitted / released, 2)} × what it can serve (≤ 1.2 wanted)`,
  );
}

/* ---------- 6. pushed to open pages ---------- */

const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? NaN;

/** One open queue page: its event stream on a socket of its own, and what it heard when. */
function openPage(
  port: number,
  path: string,
  cookie: string,
  onEvent: (event: string, data: string) => void,
  index = 0,
): Promise<() => void> {
  return new Promise((resolve, reject) => {
    // Pages come from several loopback addresses, as a crowd comes from many: one address has about
    // 28,000 ports to connect from.
    const socket = connect({ port, host: '127.0.0.1', localAddress: `127.0.0.${2 + (index % 16)}` });
    let buffer = '';
    let ready = false;
    socket.setEncoding('utf8');
    socket.on('connect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCookie: ${cookie}\r\n\r\n`),
    );
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (!ready) {
        const head = buffer.indexOf('\r\n\r\n');
        if (head < 0) return;
        if (!buffer.startsWith('HTTP/1.1 200')) return reject(new Error(buffer.slice(0, 40)));
        buffer = buffer.slice(head + 4);
        ready = true;
        resolve(() => socket.destroy());
      }
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /event: (.*)/.exec(block)?.[1];
        if (event) onEvent(event, /data: (.*)/.exec(block)?.[1] ?? '');
      }
    });
    socket.on('error', reject);
  });
}

async function pushed(): Promise<void> {
  const listeners = Number(process.env.BENCH_LISTENERS ?? 5000);
  const secret = randomBytes(16).toString('hex');
  const database = await openTestDatabase(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', 11);
  const admitPerMinute = 6000;
  const capacity = 1000;
  // The pages open before the on-sale, which then opens.
  const { dateId, poolId } = await queuedDate(database.db, {
    capacity,
    queued: QUEUED,
    onSaleAt: new Date(Date.now() + 3_600_000),
    ratePerMinute: admitPerMinute,
    maxShoppers: 100_000,
  });
  const app = await buildApp({
    db: database.db,
    config: testConfig({ sessionSecret: secret, staticDir: '/nonexistent', rateLimitPerMinute: 1_000_000_000 }),
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const sign = signer(secret);
  // The first 300 in line, to be let in at 100 a second; the rest spread over the queue, to hear 'sold out'.
  const numbers = Array.from({ length: listeners }, (_, i) =>
    i < 300 ? i + 1 : 301 + Math.floor(((i - 300) * (QUEUED - 301)) / Math.max(1, listeners - 300)),
  );
  const admittedAt = new Map<number, number>();
  const turnTimes: number[] = [];
  const soldOutHeard: number[] = [];
  let soldOutAt = 0;
  const closers: (() => void)[] = [];
  const cookieOf = (n: number) => {
    const session = `a${createHash('sha256').update(`push ${n}`).digest('base64url')}`;
    const place = sign.place(
      { dateId, placeId: n, number: n, startedAt: 0, admittedUntil: 0, expiresAt: 4_000_000_000 },
      bindingOf(session),
    );
    return `hf_session=${session}; hf_queue_${dateId}=${place}`;
  };
  const opened = performance.now();
  for (let i = 0; i < numbers.length; i += 500) {
    closers.push(
      ...(await Promise.all(
        numbers.slice(i, i + 500).map((n, j) =>
          openPage(
            port,
            `/ajax/queue/${dateId}/events/`,
            cookieOf(n),
            (event) => {
              if (event === 'nudge' && n <= 300) {
                // The page asks at once, and knows it is let in when its poll says so.
                void fetch(`http://127.0.0.1:${port}/ajax/queue/${dateId}/status/`, {
                  headers: { cookie: cookieOf(n) },
                })
                  .then((r) => r.json() as Promise<{ state: string }>)
                  .then((s) => {
                    if (s.state === 'admitted' && admittedAt.has(n))
                      turnTimes.push(performance.now() - admittedAt.get(n)!);
                  });
              }
              if (event === 'status' && soldOutAt > 0) soldOutHeard.push(performance.now() - soldOutAt);
            },
            i + j,
          ),
        ),
      )),
    );
  }
  console.log(
    `6. Pushed to open pages: ${fmt(listeners)} pages listening (opened in ${fmt((performance.now() - opened) / 1000, 1)} s), ${fmt(QUEUED)} queued, ${fmt(admitPerMinute)} let in a minute`,
  );
  await database.db.execute(
    sql`UPDATE event_date_queues SET on_sale_at = ${new Date().toISOString()}::timestamptz, stepped_at = NULL WHERE event_date_id = ${dateId}`,
  );
  // When admission reached each number, by the queue's row, read every 20 ms (as the server's own read finds it).
  let through = 0;
  const started = performance.now();
  while (through < 300 && performance.now() - started < 30_000) {
    const [row] = await rows<{ admitted_through: number }>(
      database.db,
      sql`SELECT admitted_through::int FROM event_date_queues WHERE event_date_id = ${dateId}`,
    );
    const now = performance.now();
    for (let n = through + 1; n <= Math.min(300, Number(row!.admitted_through)); n++) admittedAt.set(n, now);
    through = Number(row!.admitted_through);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  // The last ticket goes: every page still waiting should show 'sold out'.
  soldOutAt = performance.now();
  await database.db.execute(sql`UPDATE capacity_pools SET sold = capacity - held WHERE id = ${poolId}`);
  const [row] = await rows<{ through: number }>(
    database.db,
    sql`SELECT admitted_through::int AS through FROM event_date_queues WHERE event_date_id = ${dateId}`,
  );
  const waiting = numbers.filter((n) => n > Number(row!.through)).length;
  for (let i = 0; i < 100 && soldOutHeard.length < waiting; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  console.log(
    `  'your turn': ${fmt(turnTimes.length)} of 300 pages let in; from admission to the page knowing it: p95 ${fmt(p95(turnTimes))} ms, worst ${fmt(Math.max(...turnTimes))} ms (≤ 5,000 wanted)`,
  );
  console.log(
    `  'sold out': heard by ${fmt(soldOutHeard.length)} of ${fmt(waiting)} waiting pages; from the last ticket going: p95 ${fmt(p95(soldOutHeard))} ms, worst ${fmt(Math.max(...soldOutHeard))} ms (≤ 5,000 wanted)`,
  );
  for (const close of closers) close();
  await app.close();
  await database.close();
}

/** Lighthouse mobile (simulated slow 4G) on the demo's first queue page of a running server. */
async function queueLighthouse(base: string): Promise<void> {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const { chromiumPath, CHROMIUM_ARGS } = await import('./lighthouse.ts');
  const events = await (await fetch(`${base}/all-events/`)).text();
  const eventPaths = [...new Set([...events.matchAll(/href="(\/event\/\d+\/)"/g)].map((m) => m[1]!))];
  let queuePath: string | null = null;
  for (const eventPath of eventPaths) {
    const res = await fetch(`${base}${eventPath}`, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status === 303 && location && /\/queue\/\d+\//.test(location)) {
      queuePath = new URL(location, base).pathname;
      break;
    }
  }
  if (!queuePath) {
    console.log('5. Lighthouse: no queued event date on that server');
    return;
  }
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    logLevel: 'silent',
  });
  try {
    const scores: number[] = [];
    for (let run = 0; run < Number(process.env.LIGHTHOUSE_RUNS ?? 3); run++) {
      const result = await lighthouse(`${base}${queuePath}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      const lhr = result!.lhr;
      // A buyer let in leaves the queue page for the tickets: that run measured another page.
      if (lhr.runtimeError || new URL(lhr.finalDisplayedUrl).pathname !== queuePath) {
        console.log(
          `  run ${run + 1} left the queue page (${lhr.runtimeError?.code ?? new URL(lhr.finalDisplayedUrl).pathname}: the buyer was let in), not counted`,
        );
        continue;
      }
      scores.push(Math.round((lhr.categories.performance?.score ?? 0) * 100));
      if (scores.length === 1) {
        const a = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
        console.log(
          `5. Lighthouse mobile on ${queuePath}: accessibility ${Math.round((lhr.categories.accessibility?.score ?? 0) * 100)}, best-practices ${Math.round((lhr.categories['best-practices']?.score ?? 0) * 100)}; LCP ${a('largest-contentful-paint')} ms, TBT ${a('total-blocking-time')} ms, script transferred ${fmt((lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items?.find((i) => i.resourceType === 'script')?.transferSize ?? 0)} bytes`,
        );
      }
    }
    scores.sort((x, y) => x - y);
    if (scores.length === 0) return console.log('  no run stayed on the queue page: measure before the on-sale opens');
    console.log(
      `  performance ${scores[Math.floor((scores.length - 1) / 2)]} (median of ${scores.join(', ')}; ≥ 95 wanted)`,
    );
  } finally {
    await chrome.kill();
  }
}

async function freePortCheck(): Promise<void> {
  await new Promise<void>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => s.close(() => resolve()));
  });
}

if (process.argv.includes('--serve')) {
  await serve();
} else if (process.argv.includes('--poll-only')) {
  await pollCost();
} else if (process.argv.includes('--release-only')) {
  const database = await openTestDatabase(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', 10);
  await release(database.db);
  await database.close();
  process.exit(0);
} else if (process.argv.includes('--admission-only')) {
  const database = await openTestDatabase(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', 10);
  await admission(database.db);
  await database.close();
  process.exit(0);
} else if (process.argv.includes('--push-only')) {
  await pushed();
  process.exit(0);
} else if (process.argv.includes('--lighthouse-only')) {
  await queueLighthouse((process.env.LIGHTHOUSE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, ''));
} else {
  await freePortCheck();
  await pollCost();
  const driver = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  if (process.env.BENCH_DATABASE_URL && !process.env.TEST_DATABASE_URL)
    process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  console.log(`(2–4 on ${driver})`);
  if (process.env.LIGHTHOUSE_URL) await queueLighthouse(process.env.LIGHTHOUSE_URL.replace(/\/$/, ''));
  for (const part of [fifo, admission, release]) {
    const database = await openTestDatabase(driver, 10);
    try {
      await part(database.db);
    } finally {
      await database.close();
    }
  }
  await pushed();
  process.exit(0);
}
