/**
 * A store for @fastify/rate-limit kept in the database, so every process serving one database
 * counts an address's requests together. The window is the database's clock: an upsert that
 * starts a new window when the old one has passed.
 *
 * Counts go to the database in batches: a count asked for while none is on its way goes at once;
 * those asked for while one is on its way wait for it and then go together, one upsert for all of
 * them (an address's several requests add up in one row write). So a quiet server answers each
 * request after one round trip, as before, and a busy one makes one round trip for many requests
 * instead of one each. Each request still gets its own place in the count, as the database has it.
 * A batch writes its keys in sorted order, so two processes' batches never wait on each other in a
 * circle.
 *
 * On PostgreSQL the upsert commits without waiting for its WAL to reach the disk
 * (`synchronous_commit = off` for that transaction alone, sent with it as one query). A count is
 * worth less than the flush: a crash can lose at most the last fraction of a second of counts,
 * and the address's row is not held locked through a disk flush, which would make every request
 * from one address (all of a venue's Wi-Fi, a proxy) wait in line for the disk. The statements
 * are server/db/rateLimits.ts's.
 */
import type { Database } from '../db/index.ts';
import { countRequests, readCount, type Counted } from '../db/rateLimits.ts';

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

interface Waiting {
  key: string;
  seconds: number;
  cb: Callback;
  /** Places in the count this asks for: its own, and n - 1 more for the process to hand out itself (leasedRateLimitStore). */
  n: number;
}

/** The batches of counts of one database: the stores of every route share it. */
function countBatcher(db: Pick<Database, 'execute'>, relaxedCommit: boolean) {
  let waiting: Waiting[] = [];
  let sending = false;

  /** One window's requests: one upsert, then each request its own place in its key's count. */
  async function send(batch: Waiting[], seconds: number): Promise<void> {
    const counts = new Map<string, number>();
    for (const w of batch) counts.set(w.key, (counts.get(w.key) ?? 0) + w.n);
    let counted: Counted[];
    try {
      counted = await countRequests(db, counts, seconds, relaxedCommit);
    } catch (err) {
      for (const w of batch) w.cb(err as Error);
      return;
    }
    const byKey = new Map(counted.map((row) => [row.key, row]));
    const given = new Map<string, number>();
    for (const w of batch) {
      const row = byKey.get(w.key);
      if (!row) {
        w.cb(new Error('The rate limit count came back without its key'));
        continue;
      }
      const before = given.get(w.key) ?? 0;
      given.set(w.key, before + w.n);
      // The key's requests in this batch are the last counts.get(key) of its hits, in arrival order;
      // one asking for n places has the n from its first.
      w.cb(null, { current: Number(row.hits) - counts.get(w.key)! + before + 1, ttl: Number(row.ttl) });
    }
  }

  async function drain(): Promise<void> {
    sending = true;
    try {
      while (waiting.length) {
        const batch = waiting;
        waiting = [];
        const windows = [...new Set(batch.map((w) => w.seconds))];
        for (const seconds of windows)
          await send(
            batch.filter((w) => w.seconds === seconds),
            seconds,
          );
      }
    } finally {
      sending = false;
    }
  }

  return (key: string, seconds: number, cb: Callback, n = 1): void => {
    waiting.push({ key, seconds, cb, n });
    if (!sending) void drain();
  };
}

export function databaseRateLimitStore(
  db: Pick<Database, 'execute'>,
  /** PostgreSQL proper: the count commits without a disk flush. PGlite (one statement per query) commits as usual. */
  { relaxedCommit }: { relaxedCommit: boolean } = { relaxedCommit: false },
  count = countBatcher(db, relaxedCommit),
) {
  return class DatabaseRateLimitStore {
    private readonly prefix: string;
    constructor(options: { keyPrefix?: string } = {}) {
      this.prefix = options.keyPrefix ?? '';
    }

    incr(key: string, cb: Callback, timeWindow: number): void {
      count(this.prefix + key, timeWindow / 1000, cb);
    }

    read(key: string, cb: Callback, timeWindow: number): void {
      const seconds = timeWindow / 1000;
      readCount(db, this.prefix + key, seconds).then(
        ([row]) => cb(null, row ? { current: Number(row.hits), ttl: Number(row.ttl) } : { current: 0, ttl: 0 }),
        (err: Error) => cb(err),
      );
    }

    child(routeOptions: { keyPrefix?: string; routeInfo?: { method?: string; url?: string } }) {
      const Store = databaseRateLimitStore(db, { relaxedCommit }, count);
      return new Store({
        keyPrefix: `${this.prefix}${routeOptions.routeInfo?.method ?? ''}${routeOptions.routeInfo?.url ?? ''}:`,
      });
    }
  };
}

/**
 * The database store with most requests answered from this process's memory, the limit still one
 * count for every process. A key's count is taken from the database in leases: a request that
 * finds no places left here asks for its own place plus spare ones, an eighth of what the limit
 * still allows as last seen (an eighth of the limit for a key not seen yet in this window), and the
 * spares are handed out here, one per request, until they run out or the window ends; the key's
 * requests that come while the spares are on their way wait for them. So a buyer's
 * first request takes their address's lease and the requests after it (the basket, the
 * reservation, the checkout's reads) are counted here, without a round trip each. Every place is
 * counted in the database before it is given, so all the processes together never let more than
 * the limit through; spares left unused in a process are the price (fewer let through, never more),
 * an eighth of an eighth… as the count nears the limit. Close to it (an eighth under MIN_SPARE),
 * every request counts in the database, one by one, as without leases. Once the database's count
 * passes the limit, the key is refused here until its window ends without asking again: a flood
 * from one address costs the database one write per process.
 *
 * A process keeps at most MAX_LEASES keys. Past that, the ended windows are cleared out and, if
 * that is not enough, the keys least recently counted in the database, down to three quarters of
 * it: the work is done once per quarter of MAX_LEASES new keys, never on every request, however many
 * addresses an on-sale brings in one window. A key cleared out early only asks the database again.
 */
export function leasedRateLimitStore(
  db: Pick<Database, 'execute'>,
  { relaxedCommit }: { relaxedCommit: boolean } = { relaxedCommit: false },
  count = countBatcher(db, relaxedCommit),
  leases = new Map<string, Lease>(),
) {
  return class LeasedRateLimitStore {
    private readonly prefix: string;
    constructor(options: { keyPrefix?: string } = {}) {
      this.prefix = options.keyPrefix ?? '';
    }

    incr(key: string, cb: Callback, timeWindow: number, max?: number): void {
      const k = this.prefix + key;
      const now = Date.now();
      if (leases.size > MAX_LEASES) clearOut(leases, now);
      let lease = leases.get(k);
      if (lease && now >= lease.until) {
        leases.delete(k);
        lease = undefined;
      }
      if (lease && lease.next <= lease.end) {
        cb(null, { current: lease.next++, ttl: lease.until - now });
        return;
      }
      if (lease && max !== undefined && lease.highest > max) {
        // Past the limit for the rest of the window, whoever counts next.
        cb(null, { current: ++lease.highest, ttl: lease.until - now });
        return;
      }
      if (lease?.asking) {
        // Spares are on their way: this request waits for them rather than counting alone, so they are not left unused.
        lease.waiting.push((err) => (err ? cb(err) : this.incr(key, cb, timeWindow, max)));
        return;
      }
      const spare = max !== undefined ? Math.floor((max - (lease?.highest ?? 0)) / 8) : 0;
      const n = spare >= MIN_SPARE ? 1 + spare : 1;
      const asking = n > 1 ? (lease ?? freshLease(now + timeWindow)) : undefined;
      if (asking) {
        leases.set(k, asking);
        asking.asking = true;
      }
      count(
        k,
        timeWindow / 1000,
        (err, res) => {
          const at = Date.now();
          // The requests that waited for these spares: served from them once they are held, or told of the failure.
          const waited = asking ? asking.waiting.splice(0) : [];
          if (asking) asking.asking = false;
          let held = leases.get(k);
          if (err || !res) {
            const failed = err ?? new Error('The rate limit count came back empty');
            cb(failed);
            for (const w of waited) w(failed);
            return;
          }
          const last = res.current + n - 1;
          // A count below what this process saw is a new window in the database.
          if (!held || at >= held.until || last < held.highest) {
            held = freshLease(0);
            leases.set(k, held);
          }
          if (n > 1) {
            held.next = res.current + 1;
            held.end = last;
          }
          held.highest = Math.max(held.highest, last);
          held.until = at + res.ttl;
          // Kept in the order the keys were last counted in the database: the oldest are cleared out first.
          leases.delete(k);
          leases.set(k, held);
          cb(null, res);
          for (const w of waited) w(null);
        },
        n,
      );
    }

    read(key: string, cb: Callback, timeWindow: number): void {
      const Plain = databaseRateLimitStore(db, { relaxedCommit }, count);
      new Plain({ keyPrefix: this.prefix }).read(key, cb, timeWindow);
    }

    child(routeOptions: { keyPrefix?: string; routeInfo?: { method?: string; url?: string } }) {
      const Store = leasedRateLimitStore(db, { relaxedCommit }, count, leases);
      return new Store({
        keyPrefix: `${this.prefix}${routeOptions.routeInfo?.method ?? ''}${routeOptions.routeInfo?.url ?? ''}:`,
      });
    }
  };
}

/**
 * Keys kept before the ended windows (and then the oldest) are cleared out: a minute of an on-sale
 * where every request comes from a new address, at a process's rate for the reservation and
 * more, about 150 bytes a key (30 MB in all). Fewer would clear out the leases of buyers still
 * buying (one who made their basket before tens of thousands of others arrived), each of whose
 * next requests would then cost a round trip to the database again.
 */
const MAX_LEASES = 200_000;

/** Clears ended windows out of a process's leases, then the keys least recently counted, down to three quarters of MAX_LEASES. */
function clearOut(leases: Map<string, Lease>, now: number): void {
  for (const [key, l] of leases) if (now >= l.until && !l.asking) leases.delete(key);
  const keep = Math.floor((MAX_LEASES * 3) / 4);
  for (const [key, l] of leases) {
    if (leases.size <= keep) break;
    if (!l.asking) leases.delete(key);
  }
}

/** Fewer spare places than this are not worth a lease: the request counts in the database alone. */
export const MIN_SPARE = 16;

interface Lease {
  /** The spare places this process holds: from next to end, none when next > end. */
  next: number;
  end: number;
  /** The highest place in the window this process has seen or given. */
  highest: number;
  /** When the window the places belong to ends (this process's clock, ms). */
  until: number;
  /** A request for spares is on its way: the key's other requests meanwhile wait for it (`waiting`). */
  asking: boolean;
  waiting: Array<(err: Error | null) => void>;
}

const freshLease = (until: number): Lease => ({ next: 1, end: 0, highest: 0, until, asking: false, waiting: [] });
