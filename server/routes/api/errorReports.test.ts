/**
 * Browser errors reported to the server's own log (no error service keyed): a report reaches the
 * log with the user the app names and the session's signed-in user; bad input is refused 400 and
 * logs nothing; an address that keeps reporting is refused 429 past the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { openSeededTestDatabase } from '../../db/testing.ts';
import type { OpenDatabase } from '../../db/index.ts';
import type { Demo } from '../../seed.ts';
import { Visitor } from '../../test/harness.ts';
import { ERROR_REPORT_PATH, ERROR_REPORTS_PER_MINUTE } from '../../../contract/errorReport.ts';

describe('error reports to the server log', () => {
  let database: OpenDatabase;
  let demo: Demo;
  let app: FastifyInstance;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    ({ database, demo } = await openSeededTestDatabase('pglite'));
    app = await buildApp({
      db: database.db,
      config: testConfig({ logLevel: 'error' }),
      logStream: { write: (line) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  const reported = () => lines.filter((l) => l.msg === 'browser error reported');
  const report = (v: Visitor, body: Record<string, unknown>) =>
    v.request({ method: 'POST', url: ERROR_REPORT_PATH, body: qs.stringify(body) });

  it('logs the error with the signed-in user’s id and e-mail', async () => {
    const user = demo.users.notSubscribed;
    const v = new Visitor(app, {}, '10.0.0.1');
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${user.id}` })).statusCode).toBe(303);
    const res = await report(v, {
      message: 'TypeError: basket is undefined',
      stack: 'TypeError: basket is undefined\n    at Basket (app.js:1:2)',
      page: '/checkout/',
      user_id: user.id,
      email: user.email,
    });
    expect(res.statusCode).toBe(204);
    expect(reported().at(-1)).toMatchObject({
      browserError: {
        message: 'TypeError: basket is undefined',
        stack: 'TypeError: basket is undefined\n    at Basket (app.js:1:2)',
        page: '/checkout/',
      },
      user: { id: user.id, email: user.email },
      sessionUserId: user.id,
    });
  });

  it('refuses a report without a message, or with a bad user id or control characters, and logs nothing', async () => {
    const v = new Visitor(app, {}, '10.0.0.2');
    const before = reported().length;
    for (const body of [
      { page: '/checkout/' },
      { message: 'x', page: '/checkout/', user_id: 'abc' },
      { message: 'bad\u0000', page: '/checkout/' },
      { message: 'x'.repeat(1001), page: '/' },
    ]) {
      const res = await report(v, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toHaveProperty('error');
    }
    expect(reported()).toHaveLength(before);
  });

  it(`takes ${ERROR_REPORTS_PER_MINUTE} reports a minute from one address, then refuses them`, async () => {
    const v = new Visitor(app, {}, '10.0.0.3');
    for (let i = 0; i < ERROR_REPORTS_PER_MINUTE; i++)
      expect((await report(v, { message: `error ${i}`, page: '/checkout/' })).statusCode).toBe(204);
    const before = reported().length;
    expect((await report(v, { message: 'one too many', page: '/checkout/' })).statusCode).toBe(429);
    expect(reported()).toHaveLength(before);
    // Another address is not held back by it.
    expect(
      (await report(new Visitor(app, {}, '10.0.0.4'), { message: 'elsewhere', page: '/checkout/' })).statusCode,
    ).toBe(204);
  });
});
