import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge } from 'altcha-lib/v1';
import { LOCAL_CAPTCHA_SITEKEY } from '../../contract/index.ts';
import { HCAPTCHA_VERIFY_URL } from './captcha.ts';
import type { FastifyInstance } from 'fastify';
import { openTestDatabase } from '../db/testing.ts';
import type { OpenDatabase } from '../db/index.ts';
import { seed, type Demo } from '../seed.ts';
import type { Config } from '../config.ts';
import { appOn, drivers, Visitor } from '../test/harness.ts';

async function solvedToken(v: Visitor): Promise<string> {
  const res = await v.call('getCaptchaChallenge');
  expect(res.statusCode).toBe(200);
  const challenge = res.json() as {
    algorithm: 'SHA-256';
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  };
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber)
    .promise;
  expect(solution).not.toBeNull();
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution!.number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

describe.each(drivers)('captcha on %s', (driver) => {
  let database: OpenDatabase;
  let demo: Demo;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(driver);
    demo = await seed(database.db);
  });
  afterAll(async () => database?.close());
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** Each case uses its own addresses, so the shared attempt log does not leak between them. */
  const start = async (config: Partial<Config>, fetchImpl?: typeof fetch) => {
    const built = await appOn(database, config, fetchImpl ? { fetch: fetchImpl } : {});
    app = built.app;
    return { ...built, demo };
  };

  const buyer = async (world: { app: FastifyInstance; demo: Demo }, ip: string) => {
    const v = new Visitor(world.app, {}, ip);
    await v.add({ [world.demo.tickets.jazzGeneral]: 1 });
    return v;
  };

  it('auto: an address gets 3 attempts in 10 minutes, then must solve one; the window moves on', async () => {
    const w = await start({ captcha: 'auto' });
    for (let i = 0; i < 3; i++) {
      const v = await buyer(w, '203.0.113.7');
      expect((await v.json('reserveTickets')).reserved).toBe(true);
    }
    const fourth = await buyer(w, '203.0.113.7');
    expect(await fourth.json('reserveTickets')).toEqual({
      reserved: false,
      captcha: true,
      captcha_sitekey: LOCAL_CAPTCHA_SITEKEY,
    });
    // Another address is not affected.
    expect((await (await buyer(w, '198.51.100.2')).json('reserveTickets')).reserved).toBe(true);

    const token = await solvedToken(fourth);
    expect(await fourth.json('reserveTickets', { 'h-captcha-response': token })).toMatchObject({
      reserved: true,
      fresh_reservation: true,
    });

    w.clock.advance(10 * 60_000 + 1);
    expect((await (await buyer(w, '203.0.113.7')).json('reserveTickets')).reserved).toBe(true);
  });

  it('auto: an attempt the reservation refuses counts as one, and the refusal is worded', async () => {
    const w = await start({ captcha: 'auto', maxHeldPerBuyer: 2 });
    expect((await (await buyer(w, '203.0.113.20')).json('reserveTickets')).reserved).toBe(true);
    // Two more tickets from an address the buyer cap allows two in all: refused under the
    // reservation's locks, in words, and counted.
    const v = new Visitor(w.app, {}, '203.0.113.20');
    await v.add({ [w.demo.tickets.jazzGeneral]: 2 });
    for (let i = 0; i < 2; i++) {
      const refused = await v.json('reserveTickets');
      expect(refused.reserved).toBe(false);
      expect(refused.error).toEqual(expect.any(String));
      expect(refused.captcha).toBeUndefined();
    }
    expect(await v.json('reserveTickets')).toEqual({
      reserved: false,
      captcha: true,
      captcha_sitekey: LOCAL_CAPTCHA_SITEKEY,
    });
  });

  it('always: every reservation needs a solved challenge, and each solution works once', async () => {
    const w = await start({ captcha: 'always' });
    const v = await buyer(w, '203.0.113.8');
    expect((await v.checkout()).captcha_sitekey).toBe(LOCAL_CAPTCHA_SITEKEY);
    expect(await v.json('reserveTickets')).toMatchObject({ reserved: false, captcha: true });
    expect(await v.json('reserveTickets', { 'h-captcha-response': 'bm90IGEgc29sdXRpb24=' })).toMatchObject({
      reserved: false,
      captcha: true,
    });

    const token = await solvedToken(v);
    expect(await v.json('reserveTickets', { 'h-captcha-response': token })).toMatchObject({ reserved: true });
    const other = await buyer(w, '203.0.113.9');
    expect(await other.json('reserveTickets', { 'h-captcha-response': token })).toMatchObject({
      reserved: false,
      captcha: true,
    });
  });

  it('never: no captcha however many attempts', async () => {
    const w = await start({ captcha: 'never' });
    for (let i = 0; i < 5; i++) {
      const v = await buyer(w, '203.0.113.10');
      expect(await v.json('reserveTickets')).toMatchObject({ reserved: true });
    }
    expect((await (await buyer(w, '203.0.113.10')).checkout()).captcha_sitekey).toBeNull();
  });

  it('hCaptcha: verifies the token with siteverify when keys are configured', async () => {
    const requests: { url: string; init: RequestInit }[] = [];
    let success = false;
    const fakeFetch = (async (url: string | URL | Request, init?: RequestInit) => {
      requests.push({ url: String(url), init: init ?? {} });
      return new Response(JSON.stringify({ success }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const w = await start({ captcha: 'always', hcaptcha: { sitekey: 'site-123', secret: 'shh' } }, fakeFetch);
    const v = await buyer(w, '203.0.113.11');
    expect((await v.checkout()).captcha_sitekey).toBe('site-123');
    expect((await v.call('getCaptchaChallenge')).statusCode).toBe(404);

    expect(await v.json('reserveTickets', { 'h-captcha-response': 'token-abc' })).toEqual({
      reserved: false,
      captcha: true,
      captcha_sitekey: 'site-123',
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe(HCAPTCHA_VERIFY_URL);
    expect(requests[0]!.init.method).toBe('POST');
    expect(new Headers(requests[0]!.init.headers).get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(String(requests[0]!.init.body)))).toEqual({
      secret: 'shh',
      response: 'token-abc',
      sitekey: 'site-123',
      remoteip: '203.0.113.11',
    });

    success = true;
    expect(await v.json('reserveTickets', { 'h-captcha-response': 'token-def' })).toMatchObject({ reserved: true });
  });
});
