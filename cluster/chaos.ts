/**
 * `npm run test:cluster`: brings the cluster up afresh, runs a rush of buyers reserving and paying
 * through the balancer, and meanwhile SIGKILLs the leader's postmaster, then kills one app host (the
 * one running the scheduled jobs), then cuts a replica off the network. Then it checks, from the
 * database and from what every buyer was told: nothing oversold, every captured payment booked or
 * refunded, no sale paid twice, every booking a buyer was told of present, every hold a buyer was
 * told of kept; the jobs ran in one app host at a time and moved on when it died; no answer was a
 * 500. It prints the write-unavailability window, holds/s before, during and after, and the buyers'
 * answers by kind. Exits non-zero on any failed check. `KEEP=1` leaves the cluster up.
 *
 * `tsx cluster/chaos.ts bench` instead measures holds/s through one app host and through three.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from '../server/db/schema.ts';
import { rows, type Database } from '../server/db/index.ts';
import { JOBS_LOCK } from '../server/db/jobLease.ts';
import { hotEvent } from '../server/test/fixtures.ts';
import { down, leaderOf, nodeStatuses, readState, setLink, status, up } from './cluster.ts';
import { APP_HOSTS, APP_URL, DB_HOSTS, WRITE_URL } from './topology.ts';
import { Counters, rush, type Told } from './rush.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (line: string) => console.log(line);

/** When each fault strikes, seconds into the rush, and how long the rush lasts. */
const KILL_LEADER_AT = 12;
const KILL_APP_AT = 30;
const CUT_REPLICA_AT = 44;
const RUSH_SECONDS = 68;
const CONCURRENCY = 16;
const WINDOW_GOAL_S = 10;

/** Writes to the leader through the balancer every 50 ms, remembering when each one landed. */
function writeProbe() {
  const landed: number[] = [];
  let stopped = false;
  const pool = new pg.Pool({ connectionString: WRITE_URL.replace(/\/[^/]+$/, '/postgres'), max: 2, connectionTimeoutMillis: 1000, query_timeout: 2000, keepAlive: true });
  pool.on('error', () => undefined);
  const done = (async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS write_probe (at timestamptz NOT NULL DEFAULT now())');
    while (!stopped) {
      try {
        await pool.query('INSERT INTO write_probe DEFAULT VALUES');
        landed.push(Date.now());
      } catch {
        /* not taking writes just now */
      }
      await sleep(50);
    }
    await pool.end();
  })();
  return {
    landed,
    stop: async () => {
      stopped = true;
      await done;
    },
    /** The longest time without a write landing, from `from` on. */
    window: (from: number, to: number) => {
      let last = from;
      let worst = 0;
      for (const t of landed) {
        if (t < from) continue;
        if (t > to) break;
        worst = Math.max(worst, t - last);
        last = t;
      }
      return worst / 1000;
    },
  };
}

/** Which app host holds the jobs' lock, seen from the leader, every half second. */
function jobsWatch() {
  const seen: { at: number; holders: string[] }[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const client = new pg.Client({ connectionString: WRITE_URL, connectionTimeoutMillis: 1000, query_timeout: 1000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        const { rows: r } = await client.query<{ app: string }>(
          `SELECT a.application_name AS app FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1`,
          [JOBS_LOCK],
        );
        seen.push({ at: Date.now(), holders: r.map((x) => x.app) });
      } catch {
        /* the leader is changing */
      } finally {
        await client.end().catch(() => undefined);
      }
      await sleep(500);
    }
  })();
  return {
    seen,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}

function perSecond(times: number[], from: number, to: number) {
  return times.filter((t) => t >= from && t < to).length / ((to - from) / 1000);
}

function killAppHost(name: string) {
  const pid = readState()!.pids[name]!;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    process.kill(pid, 'SIGKILL');
  }
}

async function openCluster() {
  const pool = new pg.Pool({ connectionString: WRITE_URL, max: 4, connectionTimeoutMillis: 3000 });
  pool.on('error', () => undefined);
  return { pool, db: drizzle(pool, { schema }) as unknown as Database };
}

/** Accounts for the rush's buyers, one per journey. */
async function accounts(db: Database, n: number): Promise<number[]> {
  const tag = Date.now().toString(36);
  const made = await rows<{ id: number }>(
    db,
    sql`INSERT INTO users (email, first_name, last_name)
        SELECT 'rush-' || ${tag} || '-' || i || '@buyers.example', 'Rush', 'Buyer ' || i FROM generate_series(1, ${n}) i RETURNING id`,
  );
  return made.map((r) => r.id);
}

/** The checks after the rush; each failure is one line. */
async function check(db: Database, told: Told[], poolIds: number[]): Promise<{ failures: string[]; figures: Record<string, number> }> {
  const failures: string[] = [];
  const [over] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM capacity_pools p
         WHERE p.id IN (${sql.join(poolIds, sql`, `)})
           AND (p.sold + p.held > p.capacity OR p.held <> (SELECT COALESCE(sum(qty), 0) FROM holds h WHERE h.pool_id = p.id))`,
  );
  if (over!.n > 0) failures.push(`${over!.n} pools oversold or with held counts off their holds`);
  const [soldVsLines] = await rows<{ sold: number; lines: number }>(
    db,
    sql`SELECT (SELECT COALESCE(sum(sold), 0) FROM capacity_pools WHERE id IN (${sql.join(poolIds, sql`, `)}))::int AS sold,
               (SELECT COALESCE(sum(l.qty), 0) FROM sale_lines l JOIN sales s ON s.id = l.sale_id JOIN ticket_types t ON t.id = l.ticket_type_id
                 JOIN event_dates d ON d.id = t.event_date_id WHERE s.paid_at IS NOT NULL AND d.pool_id IN (${sql.join(poolIds, sql`, `)}))::int AS lines`,
  );
  if (soldVsLines!.sold !== soldVsLines!.lines) failures.push(`sold ${soldVsLines!.sold} but paid sales' lines say ${soldVsLines!.lines}`);
  const [unbooked] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM payments WHERE status = 'succeeded' AND outcome IS NULL`);
  if (unbooked!.n > 0) failures.push(`${unbooked!.n} captured payments neither booked nor refunded`);
  const [refundless] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM payments p WHERE p.outcome = 'refunded' AND NOT EXISTS (SELECT 1 FROM payment_refunds r WHERE r.payment_id = p.id)`,
  );
  if (refundless!.n > 0) failures.push(`${refundless!.n} payments marked refunded with no refund`);
  const [twice] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM (SELECT sale_id FROM payments WHERE status = 'succeeded' AND outcome = 'booked' GROUP BY sale_id HAVING count(*) > 1) x`,
  );
  if (twice!.n > 0) failures.push(`${twice!.n} sales booked from more than one payment`);
  const [mismatch] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM sales s WHERE s.paid_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.sale_id = s.id AND p.status = 'succeeded' AND p.outcome = 'booked')
          AND EXISTS (SELECT 1 FROM sale_lines l JOIN ticket_types t ON t.id = l.ticket_type_id JOIN event_dates d ON d.id = t.event_date_id
                       WHERE l.sale_id = s.id AND d.pool_id IN (${sql.join(poolIds, sql`, `)}))`,
  );
  if (mismatch!.n > 0) failures.push(`${mismatch!.n} sales paid with no booked payment`);

  // What buyers were told, against the database.
  const refs = told.filter((t) => t.reserved).map((t) => t.reserved!);
  const found = new Map<string, { paid: boolean; qty: number; held: number; deadline: Date | null }>();
  for (let i = 0; i < refs.length; i += 500) {
    const batch = refs.slice(i, i + 500);
    const r = await rows<{ reference: string; paid: boolean; qty: number; held: number; deadline: string | null }>(
      db,
      sql`SELECT s.reference, s.paid_at IS NOT NULL AS paid, s.hold_deadline AS deadline,
                 (SELECT COALESCE(sum(qty), 0) FROM sale_lines l WHERE l.sale_id = s.id)::int AS qty,
                 (SELECT COALESCE(sum(qty), 0) FROM holds h WHERE h.sale_id = s.id)::int AS held
            FROM sales s WHERE s.reference IN (${sql.join(
              batch.map((b) => sql`${b}`),
              sql`, `,
            )})`,
    );
    for (const x of r) found.set(x.reference, { paid: x.paid, qty: x.qty, held: x.held, deadline: x.deadline ? new Date(x.deadline) : null });
  }
  const booked = told.filter((t) => t.booked);
  const missingBookings = booked.filter((t) => !found.get(t.reserved!)?.paid || found.get(t.reserved!)!.qty !== t.qty);
  if (missingBookings.length > 0) failures.push(`${missingBookings.length} bookings buyers were told of are missing or changed`);
  const now = new Date();
  const heldOnly = told.filter((t) => t.reserved && !t.booked);
  const lostHolds = heldOnly.filter((t) => {
    const s = found.get(t.reserved!);
    if (!s) return true;
    if (s.paid) return false;
    return s.deadline !== null && s.deadline > now && s.held !== t.qty;
  });
  if (lostHolds.length > 0) failures.push(`${lostHolds.length} holds buyers were told of are gone before their time`);
  return { failures, figures: { told_reserved: refs.length, told_booked: booked.length, held_unpaid: heldOnly.length } };
}

async function chaos() {
  const t0 = Date.now();
  await down();
  await up();
  const broughtUp = (Date.now() - t0) / 1000;
  say(`cluster up in ${broughtUp.toFixed(1)} s`);
  const { pool, db } = await openCluster();
  const failures: string[] = [];
  const journeyFailures: string[] = [];
  try {
    // Two dates: one with plenty for the throughput, one small enough to sell out under the rush.
    const big = await hotEvent(db, { capacity: 100_000, types: 1 });
    const small = await hotEvent(db, { capacity: 150, types: 1 });
    const userIds = await accounts(db, 20_000);
    const counters = new Counters();
    const told: Told[] = [];
    const probe = writeProbe();
    const jobs = jobsWatch();
    await sleep(1000);

    const start = Date.now();
    const at = (s: number) => start + s * 1000;
    const running = rush({
      base: APP_URL,
      concurrency: CONCURRENCY,
      ticketTypeIds: [big.types[0]!.id, big.types[0]!.id, small.types[0]!.id],
      userIds,
      until: () => Date.now() > at(RUSH_SECONDS),
      counters,
      told,
      failures: journeyFailures,
    });

    const events: { name: string; at: number; detail: string }[] = [];
    await sleep(at(KILL_LEADER_AT) - Date.now());
    const leader = await leaderOf();
    if (!leader?.postmasterPid) throw new Error('no leader to kill');
    process.kill(leader.postmasterPid, 'SIGKILL');
    events.push({ name: 'leader postmaster SIGKILLed', at: Date.now(), detail: `${leader.name} pid ${leader.postmasterPid}` });

    await sleep(at(KILL_APP_AT) - Date.now());
    const holder = [...jobs.seen].reverse().find((s) => s.holders.length === 1)?.holders[0];
    const victim = APP_HOSTS.find((a) => a.name === holder) ?? APP_HOSTS[0]!;
    killAppHost(victim.name);
    events.push({ name: 'app host killed', at: Date.now(), detail: `${victim.name}${holder === victim.name ? ' (running the jobs)' : ''}` });

    await sleep(at(CUT_REPLICA_AT) - Date.now());
    const nodes = await nodeStatuses();
    const replica = nodes.find((n) => n.role === 'sync_standby') ?? nodes.find((n) => n.role === 'replica');
    if (!replica) throw new Error('no replica to cut off');
    const replicaHost = DB_HOSTS.find((h) => h.name === replica.name)!;
    setLink(replicaHost, false);
    events.push({ name: 'replica cut off the network', at: Date.now(), detail: `${replica.name} (${replica.role})` });

    await running;
    const end = Date.now();
    // Pending bank approvals and settlements finish; then the replica comes back.
    await sleep(3000);
    await probe.stop();
    await jobs.stop();
    setLink(replicaHost, true);

    const killAt = events[0]!.at;
    const cutAt = events[2]!.at;
    const failoverWindow = probe.window(killAt, killAt + 15_000);
    const cutWindow = probe.window(cutAt, cutAt + 12_000);
    const during = { from: killAt, to: Math.min(end, cutAt + 12_000) };
    const rates = {
      before: perSecond(counters.holds, start, killAt),
      during: perSecond(counters.holds, during.from, during.to),
      after: perSecond(counters.holds, during.to, end),
    };

    // The jobs: never two holders at once, and a holder again after the host running them died.
    const doubled = jobs.seen.filter((s) => s.holders.length > 1);
    if (doubled.length > 0) failures.push(`the jobs' lock was seen held by ${doubled[0]!.holders.join(' and ')} at once`);
    const appKilledAt = events[1]!.at;
    const takeover = jobs.seen.find((s) => s.at > appKilledAt && s.holders.length === 1 && s.holders[0] !== victim.name);
    if (!takeover) failures.push('no other app host took the jobs over after the one running them died');
    const holders = [...new Set(jobs.seen.flatMap((s) => s.holders))];

    const result = await check(db, told, [big.poolId, small.poolId]);
    failures.push(...result.failures);
    const errors = Object.fromEntries([...counters.byKind].sort((a, b) => b[1] - a[1]));
    for (const kind of Object.keys(errors)) if (/^5\d\d$/.test(kind)) failures.push(`${errors[kind]} answers were ${kind}`);
    if (journeyFailures.length > 0) failures.push(`${journeyFailures.length} journeys gave up: ${journeyFailures.slice(0, 3).join('; ')}`);
    if (failoverWindow > WINDOW_GOAL_S) failures.push(`writes were unavailable for ${failoverWindow.toFixed(1)} s after the leader died (goal ≤ ${WINDOW_GOAL_S} s)`);
    const [sold] = await rows<{ big: number; small: number }>(
      db,
      sql`SELECT (SELECT sold FROM capacity_pools WHERE id = ${big.poolId}) AS big, (SELECT sold + held FROM capacity_pools WHERE id = ${small.poolId}) AS small`,
    );

    const after = await status();
    say('');
    say('The chaos test');
    for (const e of events) say(`  ${((e.at - start) / 1000).toFixed(1).padStart(5)} s  ${e.name}: ${e.detail}`);
    say(`  write-unavailability window after the leader's postmaster died: ${failoverWindow.toFixed(1)} s (goal ≤ ${WINDOW_GOAL_S} s)`);
    say(`  longest write stall after the replica was cut off: ${cutWindow.toFixed(1)} s`);
    say(`  new leader: ${after.nodes.find((n) => n.role === 'leader')?.name ?? 'none'}; nodes: ${after.nodes.map((n) => `${n.name} ${n.role}`).join(', ')}`);
    say(`  holds/s before ${rates.before.toFixed(1)}, during ${rates.during.toFixed(1)}, after ${rates.after.toFixed(1)}`);
    say(`  buyers: ${told.length} journeys, ${result.figures.told_reserved} told reserved, ${result.figures.told_booked} told booked; the small date sold or held ${sold!.small} of 150`);
    say(`  answers by kind: ${JSON.stringify(errors)}`);
    say(`  jobs' lock held by: ${holders.join(', ') || 'nobody'}; after ${victim.name} died, ${takeover ? `${takeover.holders[0]} took over in ${((takeover.at - appKilledAt) / 1000).toFixed(1)} s` : 'nobody took over'}`);
    say(`  wall time ${((Date.now() - t0) / 1000).toFixed(0)} s (bring-up ${broughtUp.toFixed(0)} s)`);
    say(failures.length === 0 ? '  all checks passed: nothing oversold, every captured payment booked or refunded, no sale paid twice, every booking and hold buyers were told of kept' : '');
    for (const f of failures) say(`  FAILED: ${f}`);
  } finally {
    await pool.end().catch(() => undefined);
    if (process.env.KEEP !== '1') await down();
  }
  return failures.length === 0;
}

/** Holds/s through the balancer with three app hosts and with one, no faults. */
async function bench() {
  await down();
  await up();
  const { pool, db } = await openCluster();
  try {
    const big = await hotEvent(db, { capacity: 1_000_000, types: 1 });
    const userIds = await accounts(db, 40_000);
    let used = 0;
    const measure = async (label: string) => {
      const counters = new Counters();
      const told: Told[] = [];
      const start = Date.now();
      await rush({ base: APP_URL, concurrency: 24, ticketTypeIds: [big.types[0]!.id], userIds: userIds.slice(used), until: () => Date.now() > start + 20_000, counters, told, failures: [] });
      used += told.length;
      const end = Date.now();
      say(`${label}: ${perSecond(counters.holds, start, end).toFixed(1)} holds/s, ${perSecond(counters.bookings, start, end).toFixed(1)} paid sales/s (${JSON.stringify(Object.fromEntries(counters.byKind))})`);
    };
    await measure('three app hosts');
    // Two hosts stopped: the balancer's health checks take them out within a second.
    for (const a of APP_HOSTS.slice(1)) killAppHost(a.name);
    await sleep(3000);
    await measure('one app host');
  } finally {
    await pool.end().catch(() => undefined);
    await down();
  }
}

const ok = process.argv[2] === 'bench' ? (await bench(), true) : await chaos();
process.exit(ok ? 0 : 1);
