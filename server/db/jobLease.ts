/**
 * The scheduled jobs (the hold sweeper with its bank decisions, transfers and purges, payment
 * reconciliation, instalment charges, the waiting list's offers) run in one process at a time
 * however many processes and hosts share the database: the one holding the jobs' session-level
 * advisory lock, on a connection of its own. The lock lives as long as that connection's session
 * on the database: a process that dies closes it at once, a failover cuts it, and a host that dies
 * without closing it (a machine lost, its network cut) is found gone by whatever sits between (the
 * cluster's balancer probes its clients with TCP keepalives; PostgreSQL's own tcp_keepalives_* do
 * the same for a direct connection); then the next process to ask takes the jobs over, on the new
 * leader. Each job is also safe to run twice at once (they were written for WORKERS=n); the lease
 * makes each run happen once, not n times.
 */
import pg from 'pg';

/** The advisory lock whose holder runs the jobs. */
export const JOBS_LOCK = 724_110_002;

export interface JobLease {
  /** Whether this process runs the jobs now: it holds the lock, or has just taken it. */
  turn: () => Promise<boolean>;
  close: () => Promise<void>;
}

/** How long asking for the lock may take before this round is left to another process. */
const ASK_TIMEOUT_MS = 3000;
/**
 * The lease's connection is probed after this long idle, so a holder whose path to the database
 * died (its network cut, the balancer gone) hears of it and stops running the jobs, whether or not
 * a job asks meanwhile.
 */
const KEEPALIVE_IDLE_MS = 1000;

export function jobLease(connectionString: string, onChange: (holding: boolean) => void = () => undefined): JobLease {
  let client: pg.Client | null = null;
  let holding = false;
  let closed = false;
  let asking: Promise<boolean> | null = null;

  const drop = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    if (holding) onChange(false);
    holding = false;
    c.end().catch(() => undefined);
  };

  async function ask(): Promise<boolean> {
    if (closed) return false;
    let c = client;
    try {
      if (!c) {
        c = new pg.Client({
          connectionString,
          keepAlive: true,
          keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
          connectionTimeoutMillis: ASK_TIMEOUT_MS,
          query_timeout: ASK_TIMEOUT_MS,
        });
        const mine = c;
        mine.on('error', () => drop(mine));
        mine.on('end', () => drop(mine));
        client = mine;
        await mine.connect();
      }
      if (holding) {
        // Still ours while the connection that holds it answers.
        await c.query('SELECT 1');
        return client === c;
      }
      const { rows } = await c.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [JOBS_LOCK]);
      if (client !== c) return false;
      holding = rows[0]?.got === true;
      if (holding) onChange(true);
      return holding;
    } catch {
      if (c) drop(c);
      return false;
    }
  }

  return {
    turn: () => (asking ??= ask().finally(() => (asking = null))),
    close: async () => {
      closed = true;
      const c = client;
      client = null;
      holding = false;
      await c?.end().catch(() => undefined);
    },
  };
}
