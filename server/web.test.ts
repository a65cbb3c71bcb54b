/**
 * The usual web defences: security headers on pages and API replies, the policy widened only for
 * the configured captcha, proxy headers trusted only from configured proxies, 405 for a wrong
 * method, notices shown only by code, sign-out only by a same-site POST.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calls } from '../contract/index.ts';
import { parseConfig } from './config.ts';
import { CROSS_SITE_MESSAGE } from './http/crossSite.ts';
import { sha256Source } from './plugins/security.ts';
import { STYLE } from './views/html.ts';
import { ENTRY_LOADER } from '../contract/entryLoader.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';
import { directives } from './test/csp.ts';

describe.each(drivers)('web defences on %s', (driver) => {
  let w: TestWorld;
  const staticDir = mkdtempSync(path.join(tmpdir(), 'holdfast-static-'));
  writeFileSync(
    path.join(staticDir, 'index.html'),
    '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
  );
  beforeAll(async () => {
    w = await openWorld(driver, { staticDir });
  });
  afterAll(async () => w?.close());

  it('sends the API’s JSON replies a policy that allows nothing, no framing and no sniffing, without the headers only documents use', async () => {
    const v = new Visitor(w.app);
    for (const url of [calls.getCheckout.path, '/health', '/ajax/checkout/checkout/nothing_here/']) {
      const res = await v.request({ method: 'GET', url });
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('default-src'), url).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['permissions-policy'], url).toBeUndefined();
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('sends a strict policy and the other security headers on pages, found or not', async () => {
    const v = new Visitor(w.app);
    for (const url of ['/all-events/', `/event/${w.demo.events.jazz}/`, '/checkout/', '/nowhere/at/all']) {
      const res = await v.request({ method: 'GET', url });
      const csp = directives(res.headers['content-security-policy']);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(
        csp.get('script-src')!.every((s) => s === "'self'" || s.startsWith("'sha256-")),
        url,
      ).toBe(true);
      expect(csp.get('script-src')!.join(' '), url).not.toMatch(/unsafe|https:/);
      expect(csp.get('style-src')!.join(' '), url).not.toMatch(/unsafe|https:/);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['permissions-policy'], url).toMatch(/camera=\(\)/);
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('allows exactly the pages’ own inline stylesheet and script by hash, and gives the app page a style nonce', async () => {
    const v = new Visitor(w.app);
    const event = await v.request({ method: 'GET', url: `/event/${w.demo.events.jazz}/` });
    const csp = directives(event.headers['content-security-policy']);
    expect(csp.get('style-src')).toContain(sha256Source(STYLE));
    expect(event.body).toContain(`<style>${STYLE}</style>`);
    // The order form's script is the build's own file, which the policy allows as the site's own; no inline script but the checkout's loader is allowed.
    expect(event.body).not.toMatch(/<script>/);
    expect(csp.get('script-src')).toContain("'self'");
    expect(csp.get('script-src')).toContain(sha256Source(ENTRY_LOADER));
    expect(csp.get('script-src')!.filter((s) => s.startsWith("'sha256-"))).toHaveLength(1);

    const app1 = await v.request({ method: 'GET', url: '/checkout/' });
    const app2 = await v.request({ method: 'GET', url: '/checkout/' });
    const nonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(app1.body)?.[1];
    expect(nonce).toBeTruthy();
    expect(directives(app1.headers['content-security-policy']).get('style-src')).toContain(`'nonce-${nonce}'`);
    expect(app2.body).not.toContain(nonce);
  });

  it('widens the policy for hCaptcha only when it is configured', async () => {
    const before = directives(
      (await new Visitor(w.app).request({ method: 'GET', url: '/all-events/' })).headers['content-security-policy'],
    );
    expect([...before.values()].flat().join(' ')).not.toMatch(/hcaptcha/);
    expect(before.get('frame-src')).toEqual(["'none'"]);
    const { app } = await appOn(w.database, { hcaptcha: { sitekey: 'site', secret: 'secret' } });
    try {
      const res = await new Visitor(app).request({ method: 'GET', url: '/all-events/' });
      const csp = directives(res.headers['content-security-policy']);
      for (const d of ['script-src', 'frame-src', 'style-src', 'connect-src']) {
        expect(csp.get(d), d).toEqual(expect.arrayContaining(['https://hcaptcha.com', 'https://*.hcaptcha.com']));
      }
      expect(csp.get('img-src')!.join(' ')).not.toMatch(/hcaptcha/);
    } finally {
      await app.close();
    }
  });

  it('sends HSTS only over HTTPS, as told by a trusted proxy', async () => {
    const { app } = await appOn(w.database, { trustProxy: 1 });
    try {
      const https = await app.inject({ method: 'GET', url: '/all-events/', headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      const plain = await app.inject({ method: 'GET', url: '/all-events/' });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
      const call = await app.inject({ method: 'GET', url: '/health', headers: { 'x-forwarded-proto': 'https' } });
      expect(call.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    } finally {
      await app.close();
    }
  });

  it('answers a wrong method on an API route with 405 and Allow', async () => {
    const v = new Visitor(w.app);
    const get = await v.request({ method: 'GET', url: calls.reserveTickets.path });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(typeof get.json().error).toBe('string');
    const post = await v.request({ method: 'POST', url: calls.getCheckout.path, body: '' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const noSlash = await v.request({ method: 'GET', url: calls.addToBasket.path.replace(/\/$/, '') });
    expect(noSlash.statusCode).toBe(405);
    expect((await v.request({ method: 'GET', url: '/ajax/checkout/checkout/nothing_here/' })).statusCode).toBe(404);
  });

  it('shows only known notices by code on the catalogue pages, never the link’s own words', async () => {
    const v = new Visitor(w.app);
    for (const url of ['/all-events/', `/event/${w.demo.events.jazz}/`]) {
      const forged = await v.request({
        method: 'GET',
        url: `${url}?error=${encodeURIComponent('Your card was declined: call 0800 000 000')}`,
      });
      expect(forged.body, url).not.toContain('0800 000 000');
      expect(forged.body, url).not.toContain('notice error');
      const known = await v.request({ method: 'GET', url: `${url}?error=too-many` });
      expect(known.body, url).toContain('You chose more tickets than one order can hold.');
    }
    const refused = await v.request({
      method: 'POST',
      url: calls.addToBasket.path,
      body: `parent_event_id=${w.demo.events.jazz}&ticket[a][ticket]=${w.demo.tickets.jazzGeneral}&ticket[a][qty]=5000`,
      headers: { accept: 'text/html' },
    });
    expect(refused.headers.location).toBe(`/event/${w.demo.events.jazz}/?error=not-added`);
  });

  it('signs out only by a same-site POST; a link to /signout/ shows the button', async () => {
    const v = new Visitor(w.app);
    await v.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.notSubscribed.id}` });
    const signedIn = async () => ((await v.json('getUser')) as { user: unknown }).user !== null;
    expect(await signedIn()).toBe(true);

    const link = await v.request({ method: 'GET', url: '/signout/', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(link.statusCode).toBe(200);
    expect(link.body).toContain('<form method="post" action="/signout/">');
    expect(link.headers['set-cookie']).toBeUndefined();
    expect(await signedIn()).toBe(true);

    const foreign = await v.request({
      method: 'POST',
      url: '/signout/',
      body: '',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ error: CROSS_SITE_MESSAGE });
    expect(await signedIn()).toBe(true);

    const own = await v.request({
      method: 'POST',
      url: '/signout/',
      body: '',
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(own.statusCode).toBe(303);
    expect(await signedIn()).toBe(false);
  });
});

describe.each(drivers)('proxy headers on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { captcha: 'auto', trustProxy: 1, rateLimitPerMinute: 20 });
  });
  afterAll(async () => w?.close());

  it('takes the address the trusted proxy saw, so rotating X-Forwarded-For beats neither the captcha rule nor the rate limit', async () => {
    let asked = 0;
    for (let i = 0; i < 6; i++) {
      const v = new Visitor(w.app, { 'x-forwarded-for': `10.9.${i}.1, 203.0.113.7` });
      await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
      const reply = await v.json('reserveTickets', {});
      if (reply.captcha === true) asked++;
    }
    expect(asked).toBe(3);
    let limited = 0;
    for (let i = 0; i < 25; i++) {
      const res = await w.app.inject({
        method: 'GET',
        url: '/health',
        headers: { 'x-forwarded-for': `10.8.${i}.1, 198.51.100.9` },
      });
      if (res.statusCode === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
  });

  it("sends built files precompressed and cached for a year, and the page itself (a buyer's own data) never stored", async () => {
    const { brotliCompressSync, gzipSync, brotliDecompressSync } = await import('node:zlib');
    const staticDir = mkdtempSync(path.join(tmpdir(), 'holdfast-assets-'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.join(staticDir, 'assets'));
    const source = `export const app = "${'checkout '.repeat(400)}";`;
    writeFileSync(
      path.join(staticDir, 'index.html'),
      '<!doctype html><html><head></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(path.join(staticDir, 'assets', 'index-abc123.js'), source);
    writeFileSync(path.join(staticDir, 'assets', 'index-abc123.js.br'), brotliCompressSync(source));
    writeFileSync(path.join(staticDir, 'assets', 'index-abc123.js.gz'), gzipSync(source));
    const v = await openWorld(driver, { staticDir });
    try {
      const br = await v.app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.rawPayload.length).toBeLessThan(source.length / 10);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(source);
      const gz = await v.app.inject({
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(gz.headers['content-encoding']).toBe('gzip');
      const plain = await v.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(source);
      const page = await v.app.inject({ method: 'GET', url: '/checkout/' });
      expect(page.headers['cache-control']).toBe('no-store');
    } finally {
      await v.close();
    }
  });

  it("does not spend an address's budget of calls on a queued buyer's polls, which the server paces itself", async () => {
    const v = await openWorld(driver, { trustProxy: 1, rateLimitPerMinute: 20 });
    try {
      const from = { 'x-forwarded-for': '198.51.100.78' };
      const polls = [];
      for (let i = 0; i < 40; i++)
        polls.push((await v.app.inject({ method: 'GET', url: '/ajax/queue/1/status/', headers: from })).statusCode);
      expect(polls.every((s) => s !== 429)).toBe(true);
      // Joining the queue is counted, as is every other call.
      const calls = [];
      for (let i = 0; i < 21; i++)
        calls.push((await v.app.inject({ method: 'POST', url: '/ajax/queue/1/join/', headers: from })).statusCode);
      expect(calls.slice(0, 20).every((s) => s !== 429)).toBe(true);
      expect(calls[20]).toBe(429);
    } finally {
      await v.close();
    }
  });

  it("does not spend an address's budget of calls on the build's files", async () => {
    const staticDir = mkdtempSync(path.join(tmpdir(), 'holdfast-assets-'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.join(staticDir, 'assets'));
    writeFileSync(path.join(staticDir, 'assets', 'entry-abc123.js'), 'export {};');
    const v = await openWorld(driver, { trustProxy: 1, rateLimitPerMinute: 20, staticDir });
    try {
      const from = { 'x-forwarded-for': '198.51.100.77' };
      const assets = [];
      for (let i = 0; i < 40; i++)
        assets.push((await v.app.inject({ method: 'GET', url: '/assets/entry-abc123.js', headers: from })).statusCode);
      expect(assets.every((s) => s === 200)).toBe(true);
      const calls = [];
      for (let i = 0; i < 21; i++)
        calls.push((await v.app.inject({ method: 'GET', url: '/health', headers: from })).statusCode);
      expect(calls.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(calls[20]).toBe(429);
    } finally {
      await v.close();
    }
  });

  it('refuses TRUST_PROXY=true at start, and reads a hop count or a list of addresses', () => {
    expect(() => parseConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY.*number of proxies/);
    expect(() => parseConfig({ TRUST_PROXY: 'anyone' })).toThrow(/TRUST_PROXY/);
    expect(parseConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(parseConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.0.0.0/8',
      'loopback',
    ]);
    expect(parseConfig({}).trustProxy).toBe(false);
  });
});
