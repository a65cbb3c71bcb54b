/**
 * The demo's movable clock over HTTP: POST /dev/clock moves the server's time forward for the
 * holds the buyer sees, so a hold runs out without anyone waiting; it never goes back, refuses a
 * bad number in words, and exists only in demo mode with DEV_CLOCK=1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import { openSeededTestDatabase } from '../../db/testing.ts';
import type { OpenDatabase } from '../../db/index.ts';
import { movableClock } from './clock.ts';
import { Visitor } from '../../test/harness.ts';
import { hotEvent } from '../../test/fixtures.ts';

describe('the movable clock', () => {
  let database: OpenDatabase;
  let app: FastifyInstance;
  let withoutFlag: FastifyInstance;
  let live: FastifyInstance;
  let ticket: number;
  /** The real time as the clock sees it: still, so only moving the clock changes what is read. */
  const realMs = Date.parse('2026-06-01T12:00:00Z');

  beforeAll(async () => {
    ({ database } = await openSeededTestDatabase('pglite'));
    const clock = movableClock(() => realMs);
    app = await buildApp({
      db: database.db,
      config: testConfig({ demo: true, devClock: true }),
      movableClock: clock,
      logger: false,
    });
    withoutFlag = await buildApp({
      db: database.db,
      config: testConfig({ demo: true, devClock: false }),
      movableClock: movableClock(),
      logger: false,
    });
    live = await buildApp({
      db: database.db,
      config: testConfig({ demo: false, devClock: true }),
      movableClock: movableClock(),
      logger: false,
    });
    ticket = (await hotEvent(database.db, { capacity: 100, types: 1 })).types[0]!.id;
  });
  afterAll(async () => {
    await Promise.all([app?.close(), withoutFlag?.close(), live?.close()]);
    await database?.close();
  });

  const post = (target: FastifyInstance, query: string) => target.inject({ method: 'POST', url: `/dev/clock${query}` });

  it('moves the time forward and answers the time it now reads', async () => {
    const before = (await app.inject({ method: 'GET', url: '/dev/clock' })).json<{ now: string }>().now;
    const moved = await post(app, '?seconds=90');
    expect(moved.statusCode).toBe(200);
    expect(Date.parse(moved.json<{ now: string }>().now) - Date.parse(before)).toBe(90_000);
  });

  it('a held basket runs out when the clock passes its deadline, with no waiting', async () => {
    const buyer = new Visitor(app);
    expect((await buyer.add({ [ticket]: 1 })).statusCode).toBe(200);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    const held = (await buyer.checkout()).seconds_remaining!;
    expect(held).toBeGreaterThan(60);

    expect((await post(app, '?seconds=60')).statusCode).toBe(200);
    expect((await buyer.checkout()).seconds_remaining).toBe(held - 60);

    expect((await post(app, `?seconds=${held}`)).statusCode).toBe(200);
    const after = await buyer.checkout();
    expect(after.seconds_remaining ?? 0).toBe(0);
    expect(after.state).toBe('basket');
  });

  it.each(['', '?seconds=0', '?seconds=-5', '?seconds=1.5', '?seconds=soon', '?seconds=86401'])(
    'refuses %j in words and leaves the time as it was',
    async (query) => {
      const before = (await app.inject({ method: 'GET', url: '/dev/clock' })).json<{ now: string }>().now;
      const refused = await post(app, query);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ error: 'seconds must be a whole number from 1 to 86400' });
      expect((await app.inject({ method: 'GET', url: '/dev/clock' })).json<{ now: string }>().now).toBe(before);
    },
  );

  it('is not served without DEV_CLOCK=1, nor out of demo mode', async () => {
    expect((await post(withoutFlag, '?seconds=60')).statusCode).toBe(404);
    expect((await withoutFlag.inject({ method: 'GET', url: '/dev/clock' })).statusCode).toBe(404);
    expect((await post(live, '?seconds=60')).statusCode).toBe(404);
  });
});
