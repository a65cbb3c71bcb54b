/**
 * The rate limit kept in the database: counts per key inside a window, a new window once the old
 * one has passed, keys taken as data (quotes and backslashes included), and on PostgreSQL the
 * relaxed commit stays with the count's own transaction, never with the connection's next one.
 *
 * Counted in leases, as the server counts it: most requests never reach the database, yet
 * processes sharing it never let more than the limit through, close to the limit every request is
 * counted there one by one, and past it a key is refused without asking again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from '../db/testing.ts';
import { rows, type OpenDatabase } from '../db/index.ts';
import { databaseRateLimitStore, leasedRateLimitStore } from './rateLimitStore.ts';
import { drivers } from '../test/harness.ts';

type Counted = { current: number; ttl: number };

describe.each(drivers)('the database rate limit store on %s', (driver) => {
  let database: OpenDatabase;
  let store: { incr(key: string, cb: (err: Error | null, res?: Counted) => void, timeWindow: number): void };
  beforeAll(async () => {
    // One connection, so the statement after a count runs where the count ran.
    database = await openTestDatabase(driver, 1);
    const Store = databaseRateLimitStore(database.db, { relaxedCommit: driver === 'postgres' });
    store = new Store({ keyPrefix: 'test:' });
  });
  afterAll(async () => database?.close());

  const incr = (key: string, windowMs = 60_000) =>
    new Promise<Counted>((resolve, reject) =>
      store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), windowMs),
    );

  it('counts each key apart within its window', async () => {
    expect((await incr('10.0.0.1')).current).toBe(1);
    expect((await incr('10.0.0.1')).current).toBe(2);
    const third = await incr('10.0.0.1');
    expect(third.current).toBe(3);
    expect(third.ttl).toBeGreaterThan(55_000);
    expect(third.ttl).toBeLessThanOrEqual(60_000);
    expect((await incr('10.0.0.2')).current).toBe(1);
  });

  it('starts a new window once the old one has passed', async () => {
    expect((await incr('10.0.0.3', 1_000)).current).toBe(1);
    expect((await incr('10.0.0.3', 1_000)).current).toBe(2);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await incr('10.0.0.3', 1_000)).current).toBe(1);
  });

  it('takes a key as data, quotes and backslashes included', async () => {
    const key = `x'); DROP TABLE rate_limits; --\\'`;
    expect((await incr(key)).current).toBe(1);
    expect((await incr(key)).current).toBe(2);
    const [row] = await rows<{ key: string; hits: number }>(
      database.db,
      sql`SELECT key, hits FROM rate_limits WHERE key = ${`test:${key}`}`,
    );
    expect(row).toEqual({ key: `test:${key}`, hits: 2 });
  });

  it('gives requests counted in one batch each its own place in the count, in one round trip', async () => {
    let statements = 0;
    const counting = {
      execute: ((query: never) => ((statements += 1), database.db.execute(query))) as typeof database.db.execute,
    };
    const Batched = databaseRateLimitStore(counting, { relaxedCommit: driver === 'postgres' });
    const batched = new Batched({ keyPrefix: 'batch:' });
    const count = (key: string) =>
      new Promise<Counted>((resolve, reject) =>
        batched.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), 60_000),
      );
    // The first goes at once; the 29 asked for while it is on its way go together in one upsert.
    const counted = await Promise.all([
      ...Array.from({ length: 20 }, () => count('10.0.1.1')),
      ...Array.from({ length: 10 }, () => count('10.0.1.2')),
    ]);
    expect(statements).toBe(2);
    expect(counted.slice(0, 20).map((c) => c.current)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(counted.slice(20).map((c) => c.current)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    const stored = await rows<{ key: string; hits: number }>(
      database.db,
      sql`SELECT key, hits FROM rate_limits WHERE key LIKE 'batch:%' ORDER BY key`,
    );
    expect(stored.map((r) => [r.key, Number(r.hits)])).toEqual([
      ['batch:10.0.1.1', 20],
      ['batch:10.0.1.2', 10],
    ]);
  });

  it('starts a new window for a batch once the old one has passed', async () => {
    expect((await incr('10.0.0.5', 1_000)).current).toBe(1);
    await new Promise((r) => setTimeout(r, 1_100));
    const again = await Promise.all([incr('10.0.0.5', 1_000), incr('10.0.0.5', 1_000), incr('10.0.0.5', 1_000)]);
    expect(again.map((c) => c.current)).toEqual([1, 2, 3]);
  });

  if (driver === 'postgres') {
    it('counts exactly when two processes batch the same addresses at once', async () => {
      // Two batchers over one database's connections, as two processes have.
      const shared = await openTestDatabase(driver, 4);
      try {
        const stores = [0, 1].map(
          () => new (databaseRateLimitStore(shared.db, { relaxedCommit: true }))({ keyPrefix: 'two:' }),
        );
        const keys = ['10.0.2.1', '10.0.2.2', '10.0.2.3', '10.0.2.4'];
        const asked = Array.from({ length: 400 }, (_, i) => ({
          store: stores[i % 2]!,
          key: keys[Math.floor(i / 2) % keys.length]!,
        }));
        const counted = await Promise.all(
          asked.map(
            ({ store, key }) =>
              new Promise<Counted & { key: string }>((resolve, reject) =>
                store.incr(key, (err, res) => (err ? reject(err) : resolve({ ...res!, key })), 60_000),
              ),
          ),
        );
        for (const key of keys) {
          const places = counted
            .filter((c) => c.key === key)
            .map((c) => c.current)
            .sort((a, b) => a - b);
          expect(places).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
        }
      } finally {
        await shared.close();
      }
    });

    it('leaves the connection committing durably for the statements after it', async () => {
      await incr('10.0.0.4');
      const [setting] = await rows<{ synchronous_commit: string }>(database.db, sql`SHOW synchronous_commit`);
      expect(setting!.synchronous_commit).toBe('on');
    });
  }
});

interface LeasedStore {
  incr(key: string, cb: (err: Error | null, res?: Counted) => void, timeWindow: number, max?: number): void;
}

describe.each(drivers)('the leased rate limit store on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(driver, 4);
  });
  afterAll(async () => database?.close());

  /** A store as one process has it, with a count of the statements it sends. */
  function process_() {
    let statements = 0;
    const counting = {
      execute: ((query: never) => ((statements += 1), database.db.execute(query))) as typeof database.db.execute,
    };
    const Store = leasedRateLimitStore(counting, { relaxedCommit: driver === 'postgres' });
    const store: LeasedStore = new Store({ keyPrefix: 'lease:' });
    const incr = (key: string, max: number, windowMs = 60_000) =>
      new Promise<Counted>((resolve, reject) =>
        store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), windowMs, max),
      );
    return { incr, statements: () => statements };
  }

  it('counts most requests in memory, each its own place', async () => {
    const p = process_();
    const key = randomUUID();
    const places: number[] = [];
    for (let i = 0; i < 300; i++) places.push((await p.incr(key, 10_000)).current);
    expect(places).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(p.statements()).toBeLessThanOrEqual(4);
  });

  it("takes a key's lease at its first request, so the requests after it are counted without the database", async () => {
    const p = process_();
    const key = randomUUID();
    expect((await p.incr(key, 600)).current).toBe(1);
    expect(p.statements()).toBe(1);
    const next: number[] = [];
    for (let i = 0; i < 20; i++) next.push((await p.incr(key, 600)).current);
    expect(next).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    expect(p.statements()).toBe(1);
  });

  it("keeps a buyer's lease while an on-sale's minute brings 60,000 other addresses after it", async () => {
    const p = process_();
    const buyer = randomUUID();
    expect((await p.incr(buyer, 600)).current).toBe(1);
    // Each address new to the process, one request each, 5,000 at a time (counted in batches).
    for (let done = 0; done < 60_000; done += 5_000)
      await Promise.all(Array.from({ length: 5_000 }, (_, i) => p.incr(`${buyer}:${done + i}`, 600)));
    const before = p.statements();
    expect((await p.incr(buyer, 600)).current).toBe(2);
    expect(p.statements()).toBe(before);
  });

  it('lets no more than the limit through two processes, counting one by one near it', async () => {
    const [a, b] = [process_(), process_()];
    const key = randomUUID();
    const MAX = 400;
    const results: Counted[] = [];
    for (let i = 0; i < 1_000; i++) results.push(await (i % 2 === 0 ? a : b).incr(key, MAX));
    const let_through = results.filter((r) => r.current <= MAX).length;
    expect(let_through).toBeLessThanOrEqual(MAX);
    // Spares left in one process are the only places lost.
    expect(let_through).toBeGreaterThan(MAX * 0.9);
    // Each place given once.
    const given = results.map((r) => r.current).filter((c) => c <= MAX);
    expect(new Set(given).size).toBe(given.length);
    expect(a.statements() + b.statements()).toBeLessThan(MAX);
  });

  it('counts exactly under a small limit, as the database store does', async () => {
    const [a, b] = [process_(), process_()];
    const key = randomUUID();
    const statuses: boolean[] = [];
    for (let i = 0; i < 36; i++) statuses.push((await (i % 2 === 0 ? a : b).incr(key, 30)).current <= 30);
    expect(statuses).toEqual([...Array.from({ length: 30 }, () => true), ...Array.from({ length: 6 }, () => false)]);
  });

  it('refuses a key past its limit without asking the database again until the window ends', async () => {
    const p = process_();
    const key = randomUUID();
    for (let i = 0; i < 5; i++) await p.incr(key, 3, 1_000);
    const asked = p.statements();
    for (let i = 0; i < 50; i++) expect((await p.incr(key, 3, 1_000)).current).toBeGreaterThan(3);
    expect(p.statements()).toBe(asked);
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await p.incr(key, 3, 1_000)).current).toBe(1);
  });

  if (driver === 'postgres') {
    it('lets no more than the limit through two processes asking at once', async () => {
      const [a, b] = [process_(), process_()];
      const key = randomUUID();
      const MAX = 500;
      const results = await Promise.all(Array.from({ length: 1_500 }, (_, i) => (i % 2 === 0 ? a : b).incr(key, MAX)));
      const given = results.map((r) => r.current).filter((c) => c <= MAX);
      expect(given.length).toBeLessThanOrEqual(MAX);
      expect(new Set(given).size).toBe(given.length);
      expect(given.length).toBeGreaterThan(MAX * 0.8);
    });
  }
});
