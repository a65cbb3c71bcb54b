/**
 * Many processes started at the same moment on an empty PostgreSQL database, as an operator scaling
 * out would start them (STARTS, 20 by default; `server/db/processes.test.ts` proves 5 on every run).
 * Prints how many reached listening, how many seeded the demo catalogue (exactly one should) and
 * whether the catalogue came out whole; gates nothing. Needs BENCH_DATABASE_URL or TEST_DATABASE_URL.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/simultaneous-starts.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const STARTS = Number(process.env.STARTS ?? 20);
const base = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

function startOne(url: string): { child: ChildProcess; ready: Promise<void>; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      // As npm start: the demo catalogue is seeded in demo mode only.
      DEMO: '1',
      DATABASE_URL: url,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: `starts-${randomBytes(16).toString('hex')}`,
      STATIC_DIR: 'no-such-dir',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (/running at http:\/\//.test(out)) resolve();
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => reject(new Error(`exited ${code} before listening`)));
  });
  return { child, ready, output: () => out };
}

export async function benchStarts(): Promise<void> {
  if (!base) {
    console.log('\n## Simultaneous starts: needs PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL).');
    return;
  }
  const name = `holdfast_starts_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const began = Date.now();
  const started = Array.from({ length: STARTS }, () => startOne(url.toString()));
  try {
    const outcomes = await Promise.allSettled(started.map((s) => s.ready));
    const seconds = ((Date.now() - began) / 1000).toFixed(1);
    const failed = outcomes.flatMap((o, i) =>
      o.status === 'rejected' ? [started[i]!.output().trim().split('\n').slice(-3).join(' | ')] : [],
    );
    const seeded = started.filter((s) => /Seeded the demo catalogue/.test(s.output())).length;
    const check = new pg.Client({ connectionString: url.toString() });
    await check.connect();
    const { rows } = await check.query<{ all: number; distinct: number }>(
      'SELECT count(*)::int AS all, count(DISTINCT slug)::int AS distinct FROM organisers',
    );
    await check.end();
    console.log(`\n## ${STARTS} processes started at once on an empty database (${seconds} s until all answered)`);
    console.log(
      `listening: ${STARTS - failed.length} of ${STARTS}; crashed: ${failed.length}; seeded the catalogue: ${seeded} (exactly 1 expected); organisers ${rows[0]!.all}, distinct ${rows[0]!.distinct}`,
    );
    for (const f of failed) console.log(`  crashed: ${f}`);
  } finally {
    for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGTERM');
    await Promise.all(
      started.map((s) => (s.child.exitCode === null ? new Promise((r) => s.child.once('exit', r)) : null)),
    );
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchStarts();
  process.exit(0);
}
