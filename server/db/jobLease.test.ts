/**
 * The scheduled jobs' turn across hosts: of three processes' leases on one PostgreSQL, exactly one
 * has the turn, keeps it, and hands it on when its connection goes (a host dying, a failover); and
 * the errors of a database going away are told apart from the rest, to be answered 503.
 */
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { drivers } from '../test/harness.ts';
import { jobLease, JOBS_LOCK, type JobLease } from './jobLease.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe.skipIf(!drivers.includes('postgres'))('the jobs’ turn on PostgreSQL', () => {
  const leases: JobLease[] = [];
  afterAll(async () => {
    for (const l of leases) await l.close();
  });

  it('one of three hosts has the turn at a time; when its connection goes, another takes it', async () => {
    const changes: string[] = [];
    const hosts = ['a', 'b', 'c'].map((name) => {
      const lease = jobLease(`${url}?application_name=jobs-${name}`, (holding) =>
        changes.push(`${name} ${holding ? 'took' : 'lost'}`),
      );
      leases.push(lease);
      return { name, lease };
    });
    const turns = async () =>
      (await Promise.all(hosts.map(async (h) => ((await h.lease.turn()) ? h.name : null)))).filter(Boolean);

    // Each asks many times; the answers never name two.
    const first = await turns();
    expect(first).toHaveLength(1);
    for (let i = 0; i < 5; i++) expect(await turns()).toEqual(first);

    // The holder's connection is cut from the server's side, as a failover or a dead host does.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT l.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.granted AND l.objid = $1 AND a.application_name = $2`,
        [JOBS_LOCK, `jobs-${first[0]}`],
      );
      expect(rows).toHaveLength(1);
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    } finally {
      await admin.end();
    }
    await new Promise((r) => setTimeout(r, 200));

    const next = await turns();
    expect(next).toHaveLength(1);
    expect(next).not.toEqual(first);
    expect(changes).toEqual([`${first[0]} took`, `${first[0]} lost`, `${next[0]} took`]);
  });

  it('closing the lease frees the turn at once', async () => {
    for (const l of leases.splice(0)) await l.close();
    const a = jobLease(url);
    const b = jobLease(url);
    leases.push(a, b);
    expect(await a.turn()).toBe(true);
    expect(await b.turn()).toBe(false);
    await a.close();
    expect(await b.turn()).toBe(true);
  });
});

describe('a database going away', () => {
  it('is told apart from other errors, wrapped or not', () => {
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        new Error('Failed query: select 1', { cause: new Error('Connection terminated unexpectedly') }),
      ),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 10.44.0.10:5000'), { code: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(
        Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      ),
    ).toBe(false);
    expect(isDatabaseUnavailable(new Error('Something else'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
