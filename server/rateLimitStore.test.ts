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

  if (driver === 'postgres') {
    it('leaves the connection committing durably for the statements after it', async () => {
      await incr('10.0.0.4');
      const [setting] = await rows<{ synchronous_commit: string }>(database.db, sql`SHOW synchronous_commit`);
      expect(setting!.synchronous_commit).toBe('on');
    });
  }
});
