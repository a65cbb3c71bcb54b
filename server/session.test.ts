import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SALE_COOKIE } from './http/session.ts';
import { drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';

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
});
