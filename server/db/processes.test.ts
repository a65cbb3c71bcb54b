/**
 * Several processes on one PostgreSQL, as an operator runs them: started together on an empty
 * database they take turns to migrate and seed; `WORKERS=n` serves one port from n processes that
 * share sessions and the rate limit; buyers spread over two processes never take more than the
 * capacity; a basket changed through one process reads changed through the other at once. Real processes, real HTTP, a database of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import qs from 'qs';
import { rows, type Database } from './index.ts';
import * as schema from './schema.ts';
import { drivers } from '../test/harness.ts';
import { hotEvent } from '../test/fixtures.ts';

const SECRET = 'processes-test-session-secret-0123456789abcdef';
const onPostgres = drivers.includes('postgres');

function databaseUrl(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  url.pathname = `/${name}`;
  return url.toString();
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<number | null>;
  output: () => string;
}

function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    // DEMO=1 as npm start: an empty database is seeded with the demo catalogue in demo mode only.
    env: {
      ...process.env,
      DEMO: '1',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: SECRET,
      CAPTCHA: 'never',
      STATIC_DIR: 'no-such-dir',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      out += chunk.toString();
      if (/running at http:\/\//.test(out)) resolve();
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening:\n${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  ready.catch(() => undefined);
  return { child, ready, exited, output: () => out };
}

async function stop(...started: Started[]): Promise<void> {
  for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGTERM');
  await Promise.all(started.map((s) => s.exited));
}

/** A buyer over real HTTP, keeping its cookies; every request on a fresh connection. */
class Buyer {
  private cookies = new Map<string, string>();
  /** The process the next requests go to; the cookies go with them. */
  constructor(public base: string) {}
  async send(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>, accept = 'application/json') {
    const res = await fetch(this.base + path, {
      method,
      headers: {
        accept,
        connection: 'close',
        'sec-fetch-site': 'same-origin',
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
      },
      body: body ? qs.stringify(body) : undefined,
      redirect: 'manual',
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return res;
  }
  async add(ticketTypeId: number, qty: number) {
    return this.send('POST', '/do/checkout/add/', {
      ticket: { [`0|0|${ticketTypeId}|0`]: { ticket: ticketTypeId, qty } },
    });
  }
}

describe.skipIf(!onPostgres)('several processes on one PostgreSQL', () => {
  const name = `holdfast_procs_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let pool: pg.Pool;
  let db: Database;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    pool = new pg.Pool({ connectionString: databaseUrl(name), max: 4 });
    // The database is dropped with its connections at the end; an idle client's farewell is expected.
    pool.on('error', () => undefined);
    db = drizzle(pool, { schema }) as unknown as Database;
  });
  afterAll(async () => {
    await pool?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  });

  it(
    'processes started at the same moment on an empty database take turns to migrate and seed',
    { timeout: 120_000 },
    async () => {
      const started = Array.from({ length: 5 }, () => start({ DATABASE_URL: databaseUrl(name), PORT: '0' }));
      try {
        const outcomes = await Promise.allSettled(started.map((s) => s.ready));
        const failed = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [started[i]!.output()] : []));
        expect(failed).toEqual([]);
        const [count] = await rows<{ all: number; distinct: number }>(
          db,
          sql`SELECT count(*)::int AS all, count(DISTINCT slug)::int AS distinct FROM organisers`,
        );
        expect(count!.all).toBeGreaterThan(0);
        expect(count!.all).toBe(count!.distinct);
        expect(started.filter((s) => /Seeded the demo catalogue/.test(s.output()))).toHaveLength(1);
      } finally {
        await stop(...started);
      }
    },
  );

  it(
    'WORKERS=2 serves one port from two processes that share sessions and one rate limit',
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      const primary = start({
        DATABASE_URL: databaseUrl(name),
        PORT: String(port),
        WORKERS: '2',
        RATE_LIMIT_PER_MINUTE: '30',
      });
      try {
        await primary.ready;
        // Both workers print their address; wait for the second.
        for (let i = 0; i < 200 && (primary.output().match(/running at http:\/\//g) ?? []).length < 2; i++)
          await new Promise((r) => setTimeout(r, 100));
        expect((primary.output().match(/running at http:\/\//g) ?? []).length).toBe(2);

        const { types } = await hotEvent(db, { capacity: 100, types: 1 });
        const buyer = new Buyer(`http://127.0.0.1:${port}`);
        expect((await buyer.add(types[0]!.id, 2)).status).toBeLessThan(400);
        // Each request on its own connection, so both workers answer; every one knows the basket.
        for (let i = 0; i < 6; i++) {
          const checkout = (await (await buyer.send('GET', '/ajax/checkout/checkout/get/')).json()) as {
            tickets: unknown[];
          };
          expect(checkout.tickets).toHaveLength(1);
        }
        // 7 requests so far; the shared limit of 30 lets 23 more through, and no more.
        const statuses = [];
        for (let i = 0; i < 26; i++) statuses.push((await buyer.send('GET', '/health')).status);
        expect(statuses.filter((s) => s === 200)).toHaveLength(23);
        expect(statuses.slice(23)).toEqual([429, 429, 429]);
      } finally {
        await stop(primary);
      }
    },
  );

  it('buyers spread over two processes never hold more than the capacity', { timeout: 120_000 }, async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const env = { DATABASE_URL: databaseUrl(name), MAX_HELD_PER_BUYER: '100000', RATE_LIMIT_PER_MINUTE: '100000' };
    const a = start({ ...env, PORT: String(portA) });
    const b = start({ ...env, PORT: String(portB) });
    try {
      await Promise.all([a.ready, b.ready]);
      const CAPACITY = 25;
      const { poolId, types } = await hotEvent(db, { capacity: CAPACITY, types: 1 });
      const buyers = Array.from({ length: 60 }, (_, i) => new Buyer(`http://127.0.0.1:${i % 2 ? portA : portB}`));
      await Promise.all(buyers.map((buyer) => buyer.add(types[0]!.id, 1)));
      const replies = await Promise.all(
        buyers.map(
          async (buyer) =>
            (await (await buyer.send('POST', '/ajax/checkout/checkout/reserve_tickets/', {})).json()) as {
              reserved?: boolean;
            },
        ),
      );
      expect(replies.filter((r) => r.reserved === true)).toHaveLength(CAPACITY);
      const [pool] = await rows<{ held: number; rows: number }>(
        db,
        sql`SELECT p.held, (SELECT COALESCE(sum(qty), 0)::int FROM holds WHERE pool_id = p.id) AS rows FROM capacity_pools p WHERE p.id = ${poolId}`,
      );
      expect(pool).toEqual({ held: CAPACITY, rows: CAPACITY });
    } finally {
      await stop(a, b);
    }
  });

  it('a basket changed through one process reads changed through the other at once', { timeout: 120_000 }, async () => {
    const [portA, portB] = [await freePort(), await freePort()];
    const env = { DATABASE_URL: databaseUrl(name), RATE_LIMIT_PER_MINUTE: '100000' };
    const a = start({ ...env, PORT: String(portA) });
    const b = start({ ...env, PORT: String(portB) });
    try {
      await Promise.all([a.ready, b.ready]);
      const { types } = await hotEvent(db, { capacity: 100, types: 1 });
      const [A, B] = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
      const buyer = new Buyer(A);
      expect((await buyer.add(types[0]!.id, 2)).status).toBeLessThan(400);
      const qtyVia = async (base: string) => {
        buyer.base = base;
        const checkout = (await (await buyer.send('GET', '/ajax/checkout/checkout/get/')).json()) as {
          tickets: { qty: number }[];
          seconds_remaining: number;
        };
        return { qty: checkout.tickets[0]?.qty, held: checkout.seconds_remaining > 0 };
      };
      // Each process has read the basket twice, so each keeps what it built.
      for (const base of [A, B, A, B]) expect(await qtyVia(base)).toEqual({ qty: 2, held: false });
      buyer.base = A;
      expect(
        (
          await buyer.send('POST', '/ajax/checkout/checkout/update_ticket_quantity/', {
            ticket_id: types[0]!.id,
            quantity: 3,
          })
        ).status,
      ).toBe(200);
      expect(await qtyVia(B)).toEqual({ qty: 3, held: false });
      buyer.base = B;
      expect((await buyer.send('POST', '/ajax/checkout/checkout/reserve_tickets/', {})).status).toBe(200);
      expect(await qtyVia(A)).toEqual({ qty: 3, held: true });
    } finally {
      await stop(a, b);
    }
  });
});
