import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SALE_COOKIE } from './http/session.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';

describe.each(drivers)('the session cookie on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { trustProxy: 1 });
  });
  afterAll(async () => w?.close());

  it('is created lazily, signed, HttpOnly and SameSite=Lax; Secure only over HTTPS', async () => {
    const v = new Visitor(w.app);
    const read = await v.call('getCheckout');
    expect(read.headers['set-cookie']).toBeUndefined();

    const plain = await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
    const cookie = String(plain.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${SALE_COOKIE}=[0-9a-f-]{36}\\.`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);

    const https = await new Visitor(w.app, { 'x-forwarded-proto': 'https' }).add({ [w.demo.tickets.jazzGeneral]: 1 });
    expect(String(https.headers['set-cookie'])).toMatch(/Secure/);
  });

  it('ignores a forged sale cookie', async () => {
    const owner = new Visitor(w.app);
    await owner.add({ [w.demo.tickets.jazzGeneral]: 3 });
    const saleId = /hf_sale=([0-9a-f-]{36})/.exec(owner.cookieHeader)![1]!;
    const forger = await w.app.inject({ method: 'GET', url: '/ajax/checkout/checkout/get/', headers: { cookie: `${SALE_COOKIE}=${saleId}.forged` } });
    expect(forger.json().tickets).toEqual([]);
  });

  it('verifies a signature once, and still refuses a forged one and one signed by another site’s secret', async () => {
    const owner = new Visitor(w.app);
    await owner.add({ [w.demo.tickets.jazzGeneral]: 2 });
    const read = () => w.app.inject({ method: 'GET', url: '/ajax/checkout/checkout/get/', headers: { cookie: owner.cookieHeader } });
    expect((await read()).json().tickets).toHaveLength(1);
    // Remembered: the same signed cookie reads the same sale again.
    expect((await read()).json().tickets).toHaveLength(1);
    const signed = /hf_sale=([^;]+)/.exec(owner.cookieHeader)![1]!;
    const tampered = `${signed.slice(0, -2)}${signed.endsWith('A') ? 'BB' : 'AA'}`;
    const forged = await w.app.inject({ method: 'GET', url: '/ajax/checkout/checkout/get/', headers: { cookie: `${SALE_COOKIE}=${tampered}` } });
    expect(forged.json().tickets).toEqual([]);
    // Another app on the same database with its own secret has not seen it, and does not take it.
    const other = await appOn(w.database, { sessionSecret: 'another-site-secret-of-enough-length-0123456789' });
    try {
      const there = await other.app.inject({ method: 'GET', url: '/ajax/checkout/checkout/get/', headers: { cookie: owner.cookieHeader } });
      expect(there.json().tickets).toEqual([]);
    } finally {
      await other.app.close();
    }
  });
});
