/**
 * The rate limit shared through the database, counted in leases: most requests never reach the
 * database, yet processes sharing it never let more than the limit through, close to the limit
 * every request is counted there one by one, and past it a key is refused without asking again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { openTestDatabase } from './db/testing.ts';
import type { OpenDatabase } from './db/index.ts';
import { leasedRateLimitStore } from './http/rateLimitStore.ts';
import { drivers } from './test/harness.ts';

type Counted = { current: number; ttl: number };
interface Store {
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
    const counting = { execute: ((query: never) => ((statements += 1), database.db.execute(query))) as typeof database.db.execute };
    const Store = leasedRateLimitStore(counting, { relaxedCommit: driver === 'postgres' });
    const store: Store = new Store({ keyPrefix: 'lease:' });
    const incr = (key: string, max: number, windowMs = 60_000) =>
      new Promise<Counted>((resolve, reject) => store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), windowMs, max));
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
