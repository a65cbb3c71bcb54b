/**
 * Every statement of one reservation, explained: a hot ticket type with LIVE_HOLDS other live holds
 * in its pool (10,000 by default) and BUYER_SALES earlier reservations from the same address (the
 * bench's buyers all come from 127.0.0.1), then one more reservation from that address is recorded
 * statement by statement and replayed under EXPLAIN (ANALYZE, BUFFERS) in one transaction that is
 * rolled back. Prints each statement's plan and time, slowest first. Needs TEST_DATABASE_URL.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/explain-reserve.ts
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { openTestDatabase } from '../server/db/testing.ts';
import type { Database } from '../server/db/index.ts';
import * as schema from '../server/db/schema.ts';
import { reserveSale } from '../server/domain/reserve.ts';
import { hotEvent, salesWith } from '../server/test/fixtures.ts';

const LIVE_HOLDS = Number(process.env.LIVE_HOLDS ?? 10_000);
const BUYER_SALES = Number(process.env.BUYER_SALES ?? 2_000);
const IP = '127.0.0.1';

const opened = await openTestDatabase('postgres', 2);
try {
  const db = opened.db;
  const client = (db as unknown as { $client: pg.Pool }).$client;
  const hot = await hotEvent(db, { capacity: 10_000_000, types: 1 });
  const type = hot.types[0]!.id;
  const [holder] = await salesWith(db, [[]]);
  await db.execute(sql`
    INSERT INTO holds (sale_id, pool_id, ticket_type_id, qty, deadline)
    SELECT ${holder}, ${hot.poolId}, ${type}, 1, now() + interval '1 hour' FROM generate_series(1, ${LIVE_HOLDS})`);
  await db.execute(sql`UPDATE capacity_pools SET held = held + ${LIVE_HOLDS} WHERE id = ${hot.poolId}`);
  const earlier = await salesWith(
    db,
    Array.from({ length: BUYER_SALES }, () => [{ ticketTypeId: type, qty: 1 }]),
  );
  const now = new Date();
  for (const id of earlier)
    await reserveSale(db, id, now, 600, { maxHeldPerBuyer: 100_000, buyer: { userId: null, ip: IP } });
  await db.execute(sql`ANALYZE`);

  const recorded: { query: string; params: unknown[] }[] = [];
  // The reservation's own statement is sent prepared, straight to the pool (preparedRows), past the
  // ORM's logger: the pool is wrapped to record it too.
  const recording = Object.create(client) as pg.Pool;
  recording.query = ((config: unknown, values?: unknown[]) => {
    if (config && typeof config === 'object' && 'name' in config) {
      const c = config as unknown as { text: string; values?: unknown[] };
      recorded.push({ query: c.text, params: c.values ?? [] });
    }
    return (client.query as (c: unknown, v?: unknown[]) => unknown)(config, values);
  }) as pg.Pool['query'];
  const logging = drizzle(recording, {
    schema,
    logger: { logQuery: (query, params) => recorded.push({ query, params }) },
  }) as unknown as Database;
  const [sale] = await salesWith(db, [[{ ticketTypeId: type, qty: 1 }]]);
  const result = await reserveSale(logging, sale!, new Date(), 600, {
    maxHeldPerBuyer: 100_000,
    buyer: { userId: null, ip: IP },
  });
  console.log(
    `one reservation (${result.reserved ? 'reserved' : 'refused'}) with ${LIVE_HOLDS.toLocaleString('en-GB')} live holds in the pool and ${BUYER_SALES} earlier sales from ${IP}: ${recorded.length} statements`,
  );

  // Undo it, then replay each statement explained, in order, in one transaction.
  await db.execute(
    sql`WITH gone AS (DELETE FROM holds WHERE sale_id = ${sale} RETURNING qty) UPDATE capacity_pools SET held = held - (SELECT COALESCE(sum(qty), 0) FROM gone) WHERE id = ${hot.poolId}`,
  );
  await db.execute(sql`UPDATE sales SET reference = NULL, hold_deadline = NULL WHERE id = ${sale}`);
  const conn = await client.connect();
  const report: { ms: number; text: string }[] = [];
  // Statements run inside database functions are explained too (auto_explain, sent back as notices).
  const nested: string[] = [];
  conn.on('notice', (n) => {
    if (/duration:/.test(n.message ?? '')) nested.push(n.message!);
  });
  await conn.query(`LOAD 'auto_explain'`);
  await conn.query(
    `SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on; SET auto_explain.log_nested_statements = on; SET client_min_messages = log`,
  );
  try {
    for (const { query, params } of recorded) {
      if (/^(begin|commit|rollback)/i.test(query.trim())) {
        if (/^begin/i.test(query.trim())) await conn.query('BEGIN');
        continue;
      }
      if (/^set /i.test(query.trim())) {
        await conn.query(query, params);
        continue;
      }
      nested.length = 0;
      const plan = await conn.query(`EXPLAIN (ANALYZE, BUFFERS) ${query}`, params);
      const lines = plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']);
      const ms = Number(/Execution Time: ([\d.]+)/.exec(lines.join('\n'))?.[1] ?? 0);
      // The statement itself is logged last; what comes before it ran inside it.
      const inner = nested.filter((m) => !m.includes('EXPLAIN (ANALYZE'));
      const innerText = inner.length
        ? `\n  statements inside, explained:\n${inner.map((m) => m.replace(/^/gm, '    ')).join('\n')}`
        : '';
      report.push({
        ms,
        text: `--- ${ms.toFixed(3)} ms\n${query.replace(/\s+/g, ' ').slice(0, 300)}\n${lines.join('\n')}${innerText}`,
      });
    }
  } finally {
    await conn.query('ROLLBACK');
    conn.release();
  }
  for (const r of report.sort((a, b) => b.ms - a.ms)) console.log(`\n${r.text}`);
} finally {
  await opened.close();
}
process.exit(0);
