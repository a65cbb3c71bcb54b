/** Shared test set-up: a seeded database per driver, an app with a controllable clock, a cookie jar. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import qs from 'qs';
import { solveChallenge } from 'altcha-lib/v1';
import { buildApp } from '../app.ts';
import { testConfig, type Config } from '../config.ts';
import { openSeededTestDatabase, testDrivers, type TestDriver } from '../db/testing.ts';
import type { OpenDatabase } from '../db/index.ts';
import type { Demo } from '../seed.ts';
import { calls, type CallName, type RequestOf } from '../../contract/index.ts';

export const drivers = testDrivers();

export interface TestWorld {
  database: OpenDatabase;
  app: FastifyInstance;
  demo: Demo;
  clock: { now: Date; advance(ms: number): void };
  close(): Promise<void>;
}

export async function openWorld(
  driver: TestDriver,
  config: Partial<Config> = {},
  extra: { fetch?: typeof fetch } = {},
): Promise<TestWorld> {
  const { database, demo } = await openSeededTestDatabase(driver);
  const { app, clock } = await appOn(database, config, extra);
  return {
    database,
    app,
    demo,
    clock,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** Another app on an existing test database, with its own configuration and clock. */
export async function appOn(
  database: OpenDatabase,
  config: Partial<Config> = {},
  extra: { fetch?: typeof fetch } = {},
) {
  const clock = {
    now: new Date('2026-06-01T12:00:00Z'),
    advance(ms: number) {
      this.now = new Date(this.now.getTime() + ms);
    },
  };
  const app = await buildApp({
    db: database.db,
    config: testConfig(config),
    clock: () => clock.now,
    logger: false,
    ...extra,
  });
  await app.ready();
  return { app, clock };
}

/** A browser-like visitor: keeps cookies between requests. */
export class Visitor {
  private cookies = new Map<string, string>();
  constructor(
    private readonly app: FastifyInstance,
    private readonly headers: Record<string, string> = {},
    private readonly remoteAddress?: string,
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(opts: {
    method: 'GET' | 'POST';
    url: string;
    body?: string;
    headers?: Record<string, string>;
  }): Promise<LightMyRequestResponse> {
    const res = await this.app.inject({
      method: opts.method,
      url: opts.url,
      ...(this.remoteAddress ? { remoteAddress: this.remoteAddress } : {}),
      payload: opts.body,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...this.headers,
        ...opts.headers,
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
      },
    });
    for (const c of res.cookies as { name: string; value: string }[]) this.cookies.set(c.name, c.value);
    return res;
  }

  /** Sends a contract call the way the browser client does (qs-encoded form or query). */
  async call<N extends CallName>(
    name: N,
    body?: RequestOf<N>,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse> {
    const c = calls[name];
    // Fields a path names (`{event_date_id}`) go into the path, as the browser client puts them.
    const fields: Record<string, unknown> = { ...(body as Record<string, unknown> | undefined) };
    const path = c.path.replace(/\{(\w+)\}/g, (_, key: string) => {
      const value = fields[key];
      delete fields[key];
      return encodeURIComponent(String(value));
    });
    const encoded = qs.stringify(fields);
    return c.method === 'GET'
      ? this.request({ method: 'GET', url: encoded ? `${path}?${encoded}` : path, headers })
      : this.request({ method: 'POST', url: path, body: encoded, headers });
  }

  async json<N extends CallName>(name: N, body?: RequestOf<N>): Promise<Record<string, unknown>> {
    const res = await this.call(name, body);
    if (res.statusCode !== 200) throw new Error(`${name} answered ${res.statusCode}: ${res.body}`);
    return res.json() as Record<string, unknown>;
  }

  async checkout() {
    const res = await this.call('getCheckout');
    return calls.getCheckout.response.parse(res.json());
  }

  /** Adds ticket lines (ticket type id → qty) in the spec's `/do/checkout/add/` shape. */
  async add(
    tickets: Record<number, number>,
    vouchers: { id: number; qty: number; value: number }[] = [],
  ): Promise<LightMyRequestResponse> {
    const ticket = Object.fromEntries(
      Object.entries(tickets).map(([id, qty]) => [`0|0|${id}|0`, { ticket: Number(id), qty }]),
    );
    const gift_voucher = Object.fromEntries(vouchers.map((v) => [String(v.id), v]));
    return this.call('addToBasket', { ticket, gift_voucher } as RequestOf<'addToBasket'>, {
      accept: 'application/json',
    });
  }
}

/** A solution of the site's proof of work, as a browser's widget sends it: what the queue's join and the waiting list ask for. */
export async function solvedChallenge(v: Visitor): Promise<string> {
  const c = (await v.call('getCaptchaChallenge')).json() as {
    algorithm: 'SHA-256';
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  };
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('the proof of work could not be solved');
  return Buffer.from(
    JSON.stringify({
      algorithm: c.algorithm,
      challenge: c.challenge,
      number: solution.number,
      salt: c.salt,
      signature: c.signature,
    }),
  ).toString('base64');
}
