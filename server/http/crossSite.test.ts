import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qs from 'qs';
import { calls, type CallName } from '../../contract/index.ts';
import { CROSS_SITE_MESSAGE } from './crossSite.ts';
import { databaseDigest } from '../test/digest.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

describe.each(drivers)('cross-site protection on %s', (driver) => {
  let w: TestWorld;
  let visitor: Visitor;
  beforeAll(async () => {
    w = await openWorld(driver);
    visitor = new Visitor(w.app, { host: 'tickets.example' });
    await visitor.add({ [w.demo.tickets.jazzGeneral]: 1 });
  });
  afterAll(async () => w?.close());

  /** A body each call would accept, so only the origin decides. */
  const validBodies: Partial<Record<CallName, Record<string, unknown>>> = {
    updateBasketState: { state: 'login' },
    updateTicketQuantity: { ticket_id: 1, quantity: 3 },
    updateGiftVoucherQuantity: { gift_voucher_id: 1, qty: 2, value: 2500 },
    updateRefundProtection: { refund_protection: 'true' },
    setCode: { code: 'SUMMER10' },
    removeFromBasket: { ticket_id: 1 },
    removeGiftVoucherFromBasket: { gift_voucher_id: 1, value: 2500 },
    addToBasket: { ticket: { '1|1|1|0': { ticket: 1, qty: 1 } } },
  };
  const postPaths = [
    ...(Object.keys(calls) as CallName[])
      .filter((n) => calls[n].method === 'POST')
      .map((n) => ({ path: calls[n].path, body: qs.stringify(validBodies[n] ?? {}) })),
    { path: '/signin/', body: 'email=tom.okafor%40example.com' },
    { path: '/mailing-list', body: 'email=fan%40example.org' },
  ];

  it.each(postPaths)('refuses $path from another site and changes nothing', async ({ path, body }) => {
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://shop.tickets.example' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of foreign) {
      const before = await databaseDigest(w.database.db);
      const res = await visitor.request({ method: 'POST', url: path, body, headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toEqual({ error: CROSS_SITE_MESSAGE });
      expect(await databaseDigest(w.database.db)).toBe(before);
    }
  });

  it('lets the same origin through, by either header, and non-browser clients without them', async () => {
    const sameOrigin = await visitor.request({
      method: 'POST',
      url: calls.setCode.path,
      body: 'code=SUMMER10',
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.json()).toEqual({ code_applied: true });
    const byOrigin = await visitor.request({
      method: 'POST',
      url: calls.updateBasketState.path,
      body: 'state=basket',
      headers: { origin: 'http://tickets.example' },
    });
    expect(byOrigin.statusCode).toBe(200);
    expect((await visitor.call('updateRefundProtection', { refund_protection: 'true' })).statusCode).toBe(200);
    expect((await visitor.checkout()).refund_protection).toBe(1);
  });

  it('does not block reading from another site’s link (GET)', async () => {
    const res = await visitor.request({
      method: 'GET',
      url: '/all-events/',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(200);
  });
});
