/**
 * The rate limit kept in the database: counts per key inside a window, a new window once the old
 * one has passed, keys taken as data (quotes and backslashes included), and on PostgreSQL the
 * relaxed commit stays with the count's own transaction, never with the connection's next one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from './db/testing.ts';
import { rows, type OpenDatabase } from './db/index.ts';
import { databaseRateLimitStore } from './http/rateLimitStore.ts';
import { drivers } from './test/harness.ts';

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
    new Promise<Counted>((resolve, reject) => store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), windowMs));

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
    const [row] = await rows<{ key: string; hits: number }>(database.db, sql`SELECT key, hits FROM rate_limits WHERE key = ${`test:${key}`}`);
    expect(row).toEqual({ key: `test:${key}`, hits: 2 });
  });

  it('gives requests counted in one batch each its own place in the count, in one round trip', async () => {
    let statements = 0;
    const counting = { execute: ((query: never) => ((statements += 1), database.db.execute(query))) as typeof database.db.execute };
    const Batched = databaseRateLimitStore(counting, { relaxedCommit: driver === 'postgres' });
    const batched = new Batched({ keyPrefix: 'batch:' });
    const count = (key: string) =>
      new Promise<Counted>((resolve, reject) => batched.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), 60_000));
    // The first goes at once; the 29 asked for while it is on its way go together in one upsert.
    const counted = await Promise.all([
      ...Array.from({ length: 20 }, () => count('10.0.1.1')),
      ...Array.from({ length: 10 }, () => count('10.0.1.2')),
    ]);
    expect(statements).toBe(2);
    expect(counted.slice(0, 20).map((c) => c.current)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(counted.slice(20).map((c) => c.current)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    const stored = await rows<{ key: string; hits: number }>(database.db, sql`SELECT key, hits FROM rate_limits WHERE key LIKE 'batch:%' ORDER BY key`);
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
        const stores = [0, 1].map(() => new (databaseRateLimitStore(shared.db, { relaxedCommit: true }))({ keyPrefix: 'two:' }));
        const keys = ['10.0.2.1', '10.0.2.2', '10.0.2.3', '10.0.2.4'];
        const asked = Array.from({ length: 400 }, (_, i) => ({ store: stores[i % 2]!, key: keys[Math.floor(i / 2) % keys.length]! }));
        const counted = await Promise.all(
          asked.map(({ store, key }) => new Promise<Counted & { key: string }>((resolve, reject) => store.incr(key, (err, res) => (err ? reject(err) : resolve({ ...res!, key })), 60_000))),
        );
        for (const key of keys) {
          const places = counted.filter((c) => c.key === key).map((c) => c.current).sort((a, b) => a - b);
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
