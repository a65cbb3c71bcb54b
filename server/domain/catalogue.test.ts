import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

/** The catalogue's own rules: what the event page offers, what the add path accepts, what 'from' means. */
describe.each(drivers)('catalogue and the add path on %s', (driver) => {
  let w: TestWorld;
  const staticDir = mkdtempSync(path.join(tmpdir(), 'holdfast-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><div id="root">checkout app</div>');
  beforeAll(async () => {
    w = await openWorld(driver, { staticDir, checkoutTimeSeconds: 600 });
  });
  afterAll(async () => w?.close());

  const lines = async (v: Visitor) => (await v.checkout()).tickets.map((t) => [t.ticket_id, t.qty]);

  it('refuses fewer than a ticket type’s minimum and changes nothing, not even a live hold', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.comedyCabaret]: 2 });
    expect(await v.json('reserveTickets')).toMatchObject({ reserved: true });

    const fresh = new Visitor(w.app);
    const refused = await fresh.add({ [w.demo.tickets.comedyCabaret]: 1 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: 'Cabaret table (pairs): You must purchase a minimum of 2 tickets of this type',
    });
    expect(await lines(fresh)).toEqual([]);

    // The other line of a refused add is not written either, and the hold stays.
    const mixed = await v.add({ [w.demo.tickets.jazzGeneral]: 1, [w.demo.tickets.comedyCabaret]: 30 });
    expect(mixed.statusCode).toBe(400);
    const after = await v.checkout();
    expect(after.tickets.map((t) => [t.ticket_id, t.qty])).toEqual([[w.demo.tickets.comedyCabaret, 2]]);
    expect(after.sale_reference).toBeTruthy();
    expect(after.seconds_remaining).toBeGreaterThan(0);
  });

  it('counts what the basket already holds against the minimum and the maximum', async () => {
    const v = new Visitor(w.app);
    expect((await v.add({ [w.demo.tickets.comedyCabaret]: 2 })).statusCode).toBe(200);
    expect((await v.add({ [w.demo.tickets.comedyCabaret]: 1 })).statusCode).toBe(200);
    expect(await lines(v)).toEqual([[w.demo.tickets.comedyCabaret, 3]]);

    const table = new Visitor(w.app);
    expect((await table.add({ [w.demo.tickets.jazzTable]: 3 })).statusCode).toBe(200);
    const over = await table.add({ [w.demo.tickets.jazzTable]: 2 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      error: 'Riverside table seat: You can only reserve 4 tickets of this type (your basket already has 3)',
    });
    expect(await lines(table)).toEqual([[w.demo.tickets.jazzTable, 3]]);
  });

  it('refuses more than the configured default per order (10) of a type without its own maximum, as the event page offers', async () => {
    const v = new Visitor(w.app);
    const over = await v.add({ [w.demo.tickets.jazzGeneral]: 11 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ error: 'General admission: You can only reserve 10 tickets of this type' });
    expect((await v.add({ [w.demo.tickets.jazzGeneral]: 10 })).statusCode).toBe(200);
  });

  it('sends the event page’s form back with the refusal shown on the page', async () => {
    const v = new Visitor(w.app);
    const key = `${w.demo.events.comedyFriday}|0|${w.demo.tickets.comedyCabaret}|0`;
    const body = new URLSearchParams({
      parent_event_id: String(w.demo.events.comedyFriday),
      [`ticket[${key}][ticket]`]: String(w.demo.tickets.comedyCabaret),
      [`ticket[${key}][qty]`]: '1',
    });
    const res = await v.request({
      method: 'POST',
      url: '/do/checkout/add/',
      body: body.toString(),
      headers: { accept: 'text/html' },
    });
    expect(res.statusCode).toBe(303);
    const shown = await v.request({ method: 'GET', url: String(res.headers.location) });
    expect(shown.body).toContain('Cabaret table (pairs): You must purchase a minimum of 2 tickets of this type');
    expect(await lines(v)).toEqual([]);
  });

  it('takes the event page’s form as sent without its script: lines left at 0 are not added, and all at 0 asks for a choice', async () => {
    const v = new Visitor(w.app);
    const event = w.demo.events.jazz;
    const form = (await v.request({ method: 'GET', url: `/event/${event}/` })).body;
    const keys = [...form.matchAll(/name="ticket\[([^\]]+)\]\[ticket\]" value="(\d+)"/g)].map((m) => ({
      key: m[1]!,
      id: m[2]!,
    }));
    expect(keys.length).toBeGreaterThan(1);
    const send = async (chosen: number) => {
      const body = new URLSearchParams({ parent_event_id: String(event) });
      keys.forEach(({ key, id }, i) => {
        body.set(`ticket[${key}][ticket]`, id);
        body.set(`ticket[${key}][qty]`, i === 0 ? String(chosen) : '0');
      });
      return v.request({
        method: 'POST',
        url: '/do/checkout/add/',
        body: body.toString(),
        headers: { accept: 'text/html' },
      });
    };
    const none = await send(0);
    expect(none.statusCode).toBe(303);
    expect(none.headers.location).toBe(`/event/${event}/?error=nothing-chosen`);
    expect((await v.request({ method: 'GET', url: String(none.headers.location) })).body).toContain(
      'Choose at least one ticket or gift voucher to add',
    );
    expect(await lines(v)).toEqual([]);
    const one = await send(1);
    expect(one.headers.location).toBe('/checkout/');
    expect(await lines(v)).toEqual([[Number(keys[0]!.id), 1]]);
  });

  it('offers each ticket type between its minimum and its maximum on the event page', async () => {
    const v = new Visitor(w.app);
    const comedy = (await v.request({ method: 'GET', url: `/event/${w.demo.events.comedyFriday}/` })).body;
    const cabaret = comedy.match(/<input[^>]*aria-label="Quantity of Cabaret table \(pairs\)"[^>]*>/)?.[0] ?? '';
    expect(cabaret).toContain('data-min="2"');
    expect(cabaret).toContain('max="10"');
    expect(comedy).toContain('minimum 2');
    const jazz = (await v.request({ method: 'GET', url: `/event/${w.demo.events.jazz}/` })).body;
    const table = jazz.match(/<input[^>]*aria-label="Quantity of Riverside table seat"[^>]*>/)?.[0] ?? '';
    expect(table).toContain('max="4"');
    expect(table).toContain('data-min="1"');
  });

  it('shows ‘from’ prices only of tickets a buyer can buy on their own', async () => {
    const v = new Visitor(w.app);
    const list = (await v.request({ method: 'GET', url: '/all-events/' })).body;
    const card = (title: string) => list.split('class="event-card"').find((c) => c.includes(`>${title}<`)) ?? '';
    // Early bird (£18.00) is sold out: the cheapest a buyer can get is General admission.
    expect(card('Summer Jazz on the Quay')).toContain('from £22.50');
    // The £6.00 parking permit needs an entry ticket, so it is not a price to start from.
    expect(card('Castleton Trail Run')).toContain('from £28.00');
  });

  it('draws the basket count in the header of the catalogue pages, from the buyer’s own basket (spec 001 §9)', async () => {
    const count = (body: string) =>
      /data-testid="basket-count"><span aria-hidden="true">(\d+)<\/span><span class="visually-hidden">([^<]+)<\/span>/
        .exec(body)
        ?.slice(1) ?? null;
    const pages = ['/all-events/', `/event/${w.demo.events.jazz}/`];
    const v = new Visitor(w.app);
    for (const url of pages) expect(count((await v.request({ method: 'GET', url })).body)).toBeNull();

    await v.add({ [w.demo.tickets.jazzGeneral]: 2 }, [{ id: w.demo.vouchers.riverside, qty: 1, value: 2500 }]);
    for (const url of pages) expect(count((await v.request({ method: 'GET', url })).body)).toEqual(['3', '3 items']);
    const organiser = /href="\/organiser\/(\d+)\/"/.exec(
      (await v.request({ method: 'GET', url: `/event/${w.demo.events.jazz}/` })).body,
    )![1];
    expect(count((await v.request({ method: 'GET', url: `/organiser/${organiser}/` })).body)).toEqual(['3', '3 items']);

    // Another buyer's page shows their own basket, none here.
    expect(count((await new Visitor(w.app).request({ method: 'GET', url: '/all-events/' })).body)).toBeNull();
  });

  it('draws the basket count on the server’s other pages too: sign-in, wallet, waiver, smart checkout and the information pages (spec 001 §9)', async () => {
    const count = (body: string) =>
      /data-testid="basket-count"><span aria-hidden="true">(\d+)<\/span><span class="visually-hidden">([^<]+)<\/span>/
        .exec(body)
        ?.slice(1) ?? null;
    const pages = [
      '/signin/',
      '/account/wallet/',
      '/activity-terms-and-conditions/no-such-sale/',
      '/smartcheckout/?session=nothing',
      '/signout/',
      '/mailing-list',
      '/refund-policy/',
      '/legal-information/purchase-terms-and-conditions/',
    ];
    const v = new Visitor(w.app);
    for (const url of pages) expect(count((await v.request({ method: 'GET', url })).body), url).toBeNull();
    await v.add({ [w.demo.tickets.jazzGeneral]: 1 }, [{ id: w.demo.vouchers.riverside, qty: 1, value: 2500 }]);
    for (const url of pages)
      expect(count((await v.request({ method: 'GET', url })).body), url).toEqual(['2', '2 items']);
  });
});
