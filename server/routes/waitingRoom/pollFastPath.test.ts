/**
 * A queue poll over HTTP: most polls are answered before Fastify (the waiting room's fast path),
 * and such an answer is the route's own, word for word and header for header. Whatever the fast
 * path cannot answer at once (an admission to hand out, a date without a queue, another method, a
 * request over HTTPS the site does not know it serves) Fastify answers as before.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { testConfig } from '../../config.ts';
import * as t from '../../db/schema.ts';
import type { OpenDatabase } from '../../db/index.ts';
import { openTestDatabase } from '../../db/testing.ts';
import { join } from '../../domain/waitingRoom/room.ts';
import { signer, type Place } from '../../domain/waitingRoom/tokens.ts';
import { bindingOf } from '../../http/session.ts';
import { hotEvent } from '../../test/fixtures.ts';
import { drivers } from '../../test/harness.ts';

const SECRET = 'a-secret-for-the-poll-tests-0123456789';
/** Headers that differ between two answers by their moment or the transport, not by what was answered. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

describe.each(drivers)('a queue poll over HTTP on %s', (driver) => {
  let database: OpenDatabase;
  const clock = { now: new Date('2026-06-01T12:00:00Z') };
  const apps: FastifyInstance[] = [];
  /** Fastify's log of the requests it handled, per app. */
  const handled = new Map<FastifyInstance, string[]>();
  let dateId: number;
  const sign = signer(SECRET);
  const places: Place[] = [];

  async function start(publicUrl?: string): Promise<{ app: FastifyInstance; base: string }> {
    const lines: string[] = [];
    const app = await buildApp({
      db: database.db,
      config: testConfig({ sessionSecret: SECRET, logLevel: 'info', ...(publicUrl ? { publicUrl } : {}) }),
      clock: () => clock.now,
      logStream: { write: (line) => void lines.push(line) },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    apps.push(app);
    handled.set(app, lines);
    const { port } = app.server.address() as { port: number };
    return { app, base: `http://127.0.0.1:${port}` };
  }

  /** The URLs of the requests Fastify itself logged as coming in. */
  const reachedFastify = (app: FastifyInstance) =>
    handled
      .get(app)!
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } })
      .filter((entry) => entry.msg === 'incoming request')
      .map((entry) => entry.req?.url);

  beforeAll(async () => {
    database = await openTestDatabase(driver);
    const { types } = await hotEvent(database.db, { capacity: 50, types: 1 });
    dateId = types[0]!.eventDateId;
    const onSaleAt = new Date(clock.now.getTime() - 10_000);
    await database.db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt,
      maxShoppers: 100,
      admitPerMinute: 60,
      admissionSeconds: 600,
      pollSeconds: 2,
      drawn: true,
      admittedThrough: 1,
      steppedAt: clock.now,
    });
    // Places 1 (admitted already), 2 and 3 (waiting).
    for (let i = 0; i < 3; i++) {
      const place = await join(database.db, dateId, clock.now);
      places.push({
        dateId,
        placeId: place.placeId,
        number: place.number,
        startedAt: place.startedAt,
        admittedUntil: 0,
        expiresAt: clock.now.getTime() / 1000 + 86400,
      });
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.close();
  });

  const path = () => `/ajax/queue/${dateId}/status/`;
  /** A browser's session id (anonymous), one per place unless said otherwise. */
  const sessionOf = (name: string | number) => `a${createHash('sha256').update(`poll ${name}`).digest('base64url')}`;
  /** The cookies of the browser that holds `place`: its session and its place, bound to that session. */
  const cookieOf = (place: Place, session = sessionOf(place.placeId)) =>
    `hf_session=${session}; hf_queue_${dateId}=${sign.place(place, bindingOf(session))}`;

  /** The answer over HTTP, and the route's own through Fastify (inject), side by side. */
  async function both(app: FastifyInstance, base: string, headers: Record<string, string>, url = path()) {
    const res = await fetch(`${base}${url}`, { headers });
    const overHttp = {
      status: res.status,
      body: await res.text(),
      headers: Object.fromEntries([...res.headers].filter(([name]) => !TRANSPORT.has(name))),
    };
    const injected = await app.inject({ method: 'GET', url, headers });
    const viaRoute = {
      status: injected.statusCode,
      body: injected.body,
      headers: Object.fromEntries(
        Object.entries(injected.headers)
          .filter(([name]) => !TRANSPORT.has(name))
          .map(([name, value]) => [name, String(value)]),
      ),
    };
    return { overHttp, viaRoute };
  }

  it('answers a waiting place, a browser without a place and a forged place before Fastify, as the route would', async () => {
    const { app, base } = await start();
    // The process's first read of the queue is Fastify's to make; the polls after it, within the second, are answered at once.
    await fetch(`${base}${path()}`, { headers: { cookie: cookieOf(places[1]!) } });
    const before = reachedFastify(app).length;
    for (const cookie of [
      cookieOf(places[1]!),
      cookieOf(places[2]!),
      '',
      `hf_queue_${dateId}=q1.${dateId}.9.9.0.AAAA`,
    ]) {
      const { overHttp, viaRoute } = await both(app, base, cookie ? { cookie } : {});
      expect(overHttp).toEqual(viaRoute);
      expect(overHttp.status).toBe(200);
      expect(overHttp.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(overHttp.headers['cache-control']).toBe('private, no-store');
    }
    const answers = await Promise.all(
      [places[1]!, places[2]!].map(
        async (p) =>
          (await (await fetch(`${base}${path()}`, { headers: { cookie: cookieOf(p) } })).json()) as {
            state: string;
            position: number;
          },
      ),
    );
    expect(answers.map((a) => [a.state, a.position])).toEqual([
      ['waiting', 1],
      ['waiting', 2],
    ]);
    // Only the route's own requests (the inject calls) reached Fastify.
    expect(reachedFastify(app).length - before).toBe(4);
  });

  it('leaves to Fastify a place just let in (its admission cookie is set there), a date with no queue, another method and HTTPS it was not told of', async () => {
    const { app, base } = await start();
    await fetch(`${base}${path()}`);
    const before = reachedFastify(app).length;

    const letIn = await fetch(`${base}${path()}`, { headers: { cookie: cookieOf(places[0]!) } });
    expect(letIn.status).toBe(200);
    expect(((await letIn.json()) as { state: string }).state).toBe('admitted');
    // The place notes when its admission ends, and the admission is set: both for this browser's session.
    const set = letIn.headers.getSetCookie().map((c) => c.split(';')[0]!);
    expect(set.map((c) => c.split('=')[0])).toEqual([`hf_queue_${dateId}`, `hf_admit_${dateId}`]);
    expect(set[1]).toMatch(new RegExp(`^hf_admit_${dateId}=a2\\.`));
    // With its admission, the place's next poll is answered before Fastify again.
    const next = await both(app, base, { cookie: `hf_session=${sessionOf(places[0]!.placeId)}; ${set.join('; ')}` });
    expect(next.overHttp).toEqual(next.viaRoute);
    expect((JSON.parse(next.overHttp.body) as { state: string }).state).toBe('admitted');

    const noQueue = await fetch(`${base}/ajax/queue/999999/status/`);
    expect([noQueue.status, ((await noQueue.json()) as { error: string }).error]).toEqual([
      404,
      'This event date has no queue.',
    ]);
    const posted = await fetch(`${base}${path()}`, { method: 'POST', headers: { origin: base } });
    expect(posted.status).toBe(405);
    const forwarded = await fetch(`${base}${path()}`, {
      headers: { cookie: cookieOf(places[1]!), 'x-forwarded-proto': 'https' },
    });
    expect(forwarded.status).toBe(200);

    expect(reachedFastify(app).slice(before)).toEqual([path(), path(), '/ajax/queue/999999/status/', path(), path()]);
  });

  it('refuses, before Fastify and as the route would, a place copied into another browser or kept past its end', async () => {
    const { app, base } = await start();
    await fetch(`${base}${path()}`);
    const before = reachedFastify(app).length;
    // The place's cookie as its own browser holds it, then in another browser's jar and in a jar without a session.
    const placeCookie = `hf_queue_${dateId}=${sign.place(places[2]!, bindingOf(sessionOf(places[2]!.placeId)))}`;
    const copied = `hf_session=${sessionOf('another browser')}; ${placeCookie}`;
    const bare = placeCookie;
    const ended = cookieOf({ ...places[2]!, expiresAt: clock.now.getTime() / 1000 - 1 });
    for (const cookie of [copied, bare, ended]) {
      const { overHttp, viaRoute } = await both(app, base, { cookie });
      expect(overHttp).toEqual(viaRoute);
      expect((JSON.parse(overHttp.body) as { state: string }).state).toBe('no-place');
    }
    expect(reachedFastify(app).length - before).toBe(3);
  });

  it('sends HSTS with the fast answer of a site whose address is HTTPS', async () => {
    const { app, base } = await start('https://tickets.example');
    await fetch(`${base}${path()}`);
    const { overHttp, viaRoute } = await both(app, base, { cookie: cookieOf(places[2]!) });
    expect(overHttp).toEqual(viaRoute);
    expect(overHttp.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
