/**
 * Server throughput, printed and never gating anything:
 *  1. GET /ajax/checkout/checkout/get/ requests per second beside a trivial route, same run;
 *  2. holds per second on one hot ticket type through HTTP, with the oversold count (must be 0);
 *  3. the database's own ceiling for the same claim: a driver loop of lock + conditional INSERT.
 * Uses PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, else embedded PGlite.
 */
import autocannon from 'autocannon';
import { buildApp } from '../server/app.ts';
import { testConfig } from '../server/config.ts';
import { openTestDatabase } from '../server/db/testing.ts';
import type { Database } from '../server/db/index.ts';
import { seed } from '../server/seed.ts';
import { claimHold, lockPools } from '../server/domain/stock.ts';
import { SALE_COOKIE } from '../server/http/session.ts';
import { hotEvent, salesWith, taken } from '../server/test/fixtures.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 16;

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

const fmt = (n: number) => n.toLocaleString('en-GB', { maximumFractionDigits: 0 });

export async function benchServer(): Promise<void> {
  if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const driver = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const database = await openTestDatabase(driver, 10);
  const demo = await seed(database.db);
  const app = await buildApp({ db: database.db, config: testConfig({ captcha: 'never', checkoutTimeSeconds: 600 }), logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  console.log(`\nServer throughput (${driver}, ${CONNECTIONS} connections, ${SECONDS} s per run, loopback)`);

  try {
    // A realistic basket: three lines, a voucher, a code.
    const add = await fetch(`${base}/do/checkout/add/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: `ticket[a][ticket]=${demo.tickets.jazzGeneral}&ticket[a][qty]=4&ticket[b][ticket]=${demo.tickets.jazzTable}&ticket[b][qty]=2&gift_voucher[${demo.vouchers.riverside}][id]=${demo.vouchers.riverside}&gift_voucher[${demo.vouchers.riverside}][qty]=1&gift_voucher[${demo.vouchers.riverside}][value]=2500`,
    });
    const cookie = (add.headers.get('set-cookie') ?? '').split(';')[0]!;
    await fetch(`${base}/ajax/checkout/checkout/set_code/`, { method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: 'code=SUMMER10' });

    const checkout = await run({ url: `${base}/ajax/checkout/checkout/get/`, connections: CONNECTIONS, duration: SECONDS, headers: { cookie } });
    const trivial = await run({ url: `${base}/health`, connections: CONNECTIONS, duration: SECONDS });
    console.log(`  GET checkout (filled basket): ${fmt(checkout.requests.average)} req/s, p99 ${checkout.latency.p99} ms, non-2xx ${checkout.non2xx}`);
    console.log(`  GET /health (trivial):        ${fmt(trivial.requests.average)} req/s, p99 ${trivial.latency.p99} ms`);
    console.log(`  ratio checkout / trivial:     ${(checkout.requests.average / trivial.requests.average).toFixed(3)}`);

    // Hot ticket type: every request reserves a different one-ticket sale against one pool.
    const capacity = 1_000_000;
    const hot = await hotEvent(database.db, { capacity, types: 1 });
    const saleIds = await salesWith(database.db, Array.from({ length: 20_000 }, () => [{ ticketTypeId: hot.types[0]!.id, qty: 1 }]));
    let next = 0;
    const reserve = await run({
      url: base,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          path: '/ajax/checkout/checkout/reserve_tickets/',
          setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: `${SALE_COOKIE}=${app.signCookie(saleIds[next++ % saleIds.length]!)}` } }),
        },
      ],
    });
    const held = await taken(database.db, hot.poolId, new Date());
    console.log(`  reserve one hot ticket (HTTP): ${fmt(reserve.requests.average)} holds/s, p99 ${reserve.latency.p99} ms, ${fmt(held)} held, oversold ${Math.max(0, held - capacity)}, non-2xx ${reserve.non2xx}`);

    // Oversell check at a small capacity, many more buyers than tickets.
    const small = await hotEvent(database.db, { capacity: 100, types: 1 });
    const buyers = await salesWith(database.db, Array.from({ length: 600 }, () => [{ ticketTypeId: small.types[0]!.id, qty: 1 }]));
    let i = 0;
    await run({
      url: base,
      connections: CONNECTIONS,
      amount: buyers.length,
      requests: [
        {
          method: 'POST',
          path: '/ajax/checkout/checkout/reserve_tickets/',
          setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: `${SALE_COOKIE}=${app.signCookie(buyers[i++]!)}` } }),
        },
      ],
    });
    const smallHeld = await taken(database.db, small.poolId, new Date());
    console.log(`  600 buyers for 100 tickets (HTTP): ${smallHeld} held, oversold ${Math.max(0, smallHeld - 100)}`);

    const ceiling = await rawClaimLoop(database.db, CONNECTIONS);
    console.log(`  raw database ceiling (lock + conditional INSERT, ${CONNECTIONS} workers): ${fmt(ceiling)} claims/s`);
  } finally {
    await app.close();
    await database.close();
  }
}

/** The same claim a reservation makes, with no HTTP, session or basket reading around it. */
async function rawClaimLoop(db: Database, workers: number): Promise<number> {
  const hot = await hotEvent(db, { capacity: 10_000_000, types: 1 });
  const sales = await salesWith(db, Array.from({ length: 2_000 }, () => []));
  const until = Date.now() + SECONDS * 1000;
  let claims = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let n = w; Date.now() < until; n += workers) {
        const now = new Date();
        await db.transaction(async (tx) => {
          await lockPools(tx, [hot.poolId]);
          const ok = await claimHold(tx, { saleId: sales[n % sales.length]!, poolId: hot.poolId, ticketTypeId: hot.types[0]!.id, qty: 1, deadline: new Date(now.getTime() + 600_000), now });
          if (ok) claims++;
        });
      }
    }),
  );
  return claims / ((Date.now() - started) / 1000);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchServer();
  process.exit(0);
}
