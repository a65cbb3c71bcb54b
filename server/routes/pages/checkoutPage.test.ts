/**
 * The checkout page paints before its script runs and carries the first checkout and user, so the
 * first screen needs no call; the data cannot break out of its script element.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calls, INITIAL_DATA_ID } from '../../../contract/index.ts';
import { ENTRY_LOADER } from '../../../contract/entryLoader.ts';
import { jsonScript } from '../../views/html.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../../test/harness.ts';

const INDEX =
  '<!doctype html><html><head><title>Checkout</title><link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head><body><div id="root"></div><script type="module" src="/assets/index.js"></script></body></html>';
const CSS = '.step__title{font-size:2rem}';

function initialData(html: string): { checkout: unknown; user: unknown } {
  const match = new RegExp(`<script id="${INITIAL_DATA_ID}" type="application/json">(.*?)</script>`, 's').exec(html);
  if (!match) throw new Error('no initial data in the page');
  return JSON.parse(match[1]!) as { checkout: unknown; user: unknown };
}

/** What the page puts in the app's root, which the app draws again: its first screen. */
const rootOf = (body: string) =>
  /<div id="root">(<main id="main" class="page">[\s\S]*?<\/main>)<\/div>/.exec(body)?.[1] ?? '';

describe.each(drivers)('the checkout page on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    const staticDir = mkdtempSync(path.join(tmpdir(), 'holdfast-page-'));
    writeFileSync(path.join(staticDir, 'index.html'), INDEX);
    mkdirSync(path.join(staticDir, 'assets'));
    writeFileSync(path.join(staticDir, 'assets', 'index-abc.css'), CSS);
    w = await openWorld(driver, { staticDir });
  });
  afterAll(async () => w?.close());

  it('paints the first screen before any script and carries the buyer’s checkout and user', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzGeneral]: 2 });
    const res = await v.request({ method: 'GET', url: '/checkout/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    // At the basket the page paints the basket itself: its line, quantity, total and Reserve Basket.
    const root = rootOf(res.body);
    expect(root).toContain('data-step="basket"');
    // Inert until the app draws it again: nothing on it can be pressed before its controls work.
    expect(root).toMatch(/<section[^>]*data-step="basket"[^>]*inert=""/);
    expect(root).toContain('>Basket</h1>');
    expect(root).toContain('General admission');
    expect(root).toMatch(/<input[^>]*class="stepper__input"[^>]*value="2"/);
    expect(root).toContain('£48.00');
    expect(root).toContain('Reserve Basket');
    expect(root).not.toContain('Determining checkout progress');
    // The header and footer are the server's, around the app's root: the header counts the basket.
    const [before, after] = res.body.split(/<div id="root">[\s\S]*?<\/main><\/div>/);
    expect(before).toContain('Skip to content');
    expect(before).toMatch(
      /<header class="site-header">[\s\S]*Basket<span class="site-header__count" data-testid="basket-count"><span aria-hidden="true">2<\/span><span class="visually-hidden">2 items<\/span>/,
    );
    expect(after).toMatch(/^\s*<footer class="site-footer">/);

    const data = initialData(res.body);
    const checkout = calls.getCheckout.response.parse(data.checkout);
    expect(checkout.tickets).toHaveLength(1);
    expect(checkout.tickets[0]).toMatchObject({ qty: 2 });
    expect(calls.getUser.response.parse(data.user)).toEqual({ user: null });
    // The same as the call would answer.
    expect(checkout).toEqual(await v.checkout());
  });

  it('carries its stylesheet inside, allowed by the page’s own nonce, its link disabled, and comes compressed when the browser accepts it', async () => {
    const plain = await new Visitor(w.app).request({ method: 'GET', url: '/checkout/' });
    // The link stays, disabled (never fetched), so the app's chunk loader knows the stylesheet is there.
    expect([...plain.body.matchAll(/<link rel="stylesheet"[^>]*>/g)].map((m) => m[0])).toEqual([
      '<link rel="stylesheet" href="/assets/index-abc.css" disabled>',
    ]);
    const nonce = /<style nonce="([^"]+)">/.exec(plain.body)?.[1];
    expect(nonce).toBeTruthy();
    expect(plain.body).toContain(`<style nonce="${nonce}">${CSS}</style>`);
    expect(String(plain.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);

    const zipped = await new Visitor(w.app).request({
      method: 'GET',
      url: '/checkout/',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('accept-encoding');
    expect(gunzipSync(zipped.rawPayload).toString()).toContain('Looking for something to put in your basket?');
  });

  it('paints Determining checkout progress for a sale past the basket, whose step the app decides', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
    expect(await v.json('reserveTickets', {})).toMatchObject({ reserved: true });
    await v.json('updateBasketState', { state: 'login' });
    const res = await v.request({ method: 'GET', url: '/checkout/' });
    const root = rootOf(res.body);
    expect(root).toContain('<h1 class="step__title">Determining checkout progress</h1>');
    expect(root).not.toContain('Reserve Basket');
  });

  it('gives a newcomer an empty checkout with the page', async () => {
    const res = await new Visitor(w.app).request({ method: 'GET', url: '/checkout/' });
    const checkout = calls.getCheckout.response.parse(initialData(res.body).checkout);
    expect(checkout.tickets).toEqual([]);
  });
});

describe('a checkout page built from another version of the app', () => {
  const built = (loader: string) =>
    `<!doctype html><html><head><title>Checkout</title><meta name="app-entry" content="/assets/main.js" data-preload=""><script>${loader}</script></head><body><div id="root"></div></body></html>`;

  it('is not served with a loader the page’s policy would block: it says to build the app again', async () => {
    const staticDir = mkdtempSync(path.join(tmpdir(), 'holdfast-page-'));
    // An older build carries an older loader, which the server's policy (the hash of its own) refuses to run.
    writeFileSync(path.join(staticDir, 'index.html'), built(ENTRY_LOADER.replace('setTimeout', 'window.setTimeout')));
    const w = await openWorld('pglite', { staticDir });
    try {
      const stale = await new Visitor(w.app).request({ method: 'GET', url: '/checkout/' });
      expect(stale.statusCode).toBe(503);
      expect(stale.body).toContain('The checkout app was built from another version');
      expect(stale.body).toContain('npm run build');
      writeFileSync(path.join(staticDir, 'index.html'), built(ENTRY_LOADER));
      const fresh = await new Visitor(w.app).request({ method: 'GET', url: '/checkout/' });
      expect(fresh.statusCode).toBe(200);
      expect(fresh.body).toContain(`<script>${ENTRY_LOADER}</script>`);
    } finally {
      await w.close();
    }
  });
});

describe('page data in a script element', () => {
  it('cannot close its element or start another, whatever the text', () => {
    const hostile = { name: '</script><script>alert(1)</script><!--', line: '\u2028\u2029' };
    const html = jsonScript('x', hostile);
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    expect(html.endsWith('</script>')).toBe(true);
    expect(html).not.toContain('<!--');
    const json = /^<script id="x" type="application\/json">(.*)<\/script>$/s.exec(html)![1]!;
    expect(JSON.parse(json)).toEqual(hostile);
  });
});
