/**
 * Bad input gets a clear 4xx, never a 500: control characters in text, lenient numbers,
 * wrong methods, foreign words in the pages' notices, sign-out from another site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, MAX_ID } from '../contract/index.ts';
import { databaseDigest } from './test/digest.ts';
import { drivers, openWorld, Visitor, type TestWorld } from './test/harness.ts';

describe.each(drivers)('input hardening on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  const post = (v: Visitor, url: string, body: string, headers: Record<string, string> = {}) =>
    v.request({ method: 'POST', url, body, headers: { accept: 'application/json', ...headers } });

  it('refuses control characters and lone surrogates in every text field with a 400 naming the field', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
    const before = await databaseDigest(w.database.db);
    for (const code of ['%00', 'SUMMER10%00', 'SUMMER10%07', 'SUM%0AMER10', 'SUMMER10%7F', 'SUMMER10%C2%85']) {
      const res = await post(v, calls.setCode.path, `code=${code}`);
      expect(res.statusCode, code).toBe(400);
      expect(res.json(), code).toEqual({ error: 'Invalid code: must not contain control characters' });
    }
    const surrogate = await v.request({
      method: 'POST',
      url: calls.setCode.path,
      body: '{"code":"SUMMER10\\ud800"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json().error).toMatch(/control characters/);
    const token = await post(v, calls.reserveTickets.path, 'h-captcha-response=abc%00');
    expect(token.statusCode).toBe(400);
    const seat = await post(
      v,
      calls.addToBasket.path,
      `ticket[1|1|1|0][ticket]=${w.demo.tickets.jazzGeneral}&ticket[1|1|1|0][qty]=1&ticket[1|1|1|0][vz_id]=a%00`,
    );
    expect(seat.statusCode).toBe(400);
    const key = await post(
      v,
      calls.addToBasket.path,
      `ticket[1%00][ticket]=${w.demo.tickets.jazzGeneral}&ticket[1%00][qty]=1`,
    );
    expect(key.statusCode).toBe(400);
    expect(await databaseDigest(w.database.db)).toBe(before);
  });

  it('answers the HTML forms with their own page and a 400, not a 500 or JSON', async () => {
    for (const url of ['/signin/', '/mailing-list']) {
      const res = await new Visitor(w.app).request({
        method: 'POST',
        url,
        body: 'email=a%00@example.com',
        headers: { accept: 'text/html' },
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.body, url).toContain('notice error');
    }
  });

  it('accepts plain decimal digits only for quantities and ids, and names the real limits', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
    const path = calls.updateTicketQuantity.path;
    for (const quantity of ['0x10', '1e2', '%201%20', '+1', '1.0', '-1', '0b1', '１', '']) {
      const res = await post(v, path, `ticket_id=${w.demo.tickets.jazzGeneral}&quantity=${quantity}`);
      expect(res.statusCode, quantity).toBe(400);
      expect(res.json(), quantity).toEqual({ error: 'Invalid quantity: must be a whole number from 1 to 1000' });
    }
    for (const id of [String(MAX_ID + 1), '99999999999999999999', '0x7fffffff']) {
      const res = await post(v, path, `ticket_id=${id}&quantity=1`);
      expect(res.statusCode, id).toBe(400);
      expect(res.json(), id).toEqual({ error: 'Invalid ticket_id: must be a whole number from 1 to 2147483647' });
    }
    expect((await v.checkout()).tickets[0]!.qty).toBe(1);
    expect((await post(v, path, `ticket_id=${w.demo.tickets.jazzGeneral}&quantity=3`)).statusCode).toBe(200);
    expect((await v.checkout()).tickets[0]!.qty).toBe(3);
  });
});
