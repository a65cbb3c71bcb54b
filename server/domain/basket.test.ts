import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { holds, mailingList } from '../db/schema.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

describe.each(drivers)('basket, reservation and pages on %s', (driver) => {
  let w: TestWorld;
  const staticDir = mkdtempSync(path.join(tmpdir(), 'holdfast-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><div id="root">checkout app</div>');
  beforeAll(async () => {
    w = await openWorld(driver, { staticDir, checkoutTimeSeconds: 600 });
  });
  afterAll(async () => w?.close());

  const holdRows = async () => (await w.database.db.select({ n: sql<number>`count(*)::int` }).from(holds))[0]!.n;

  it('refuses an add above max_can_reserve and caps a quantity change at it', async () => {
    const v = new Visitor(w.app);
    const refused = await v.add({ [w.demo.tickets.jazzTable]: 6 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'Riverside table seat: You can only reserve 4 tickets of this type' });
    expect((await v.checkout()).tickets).toEqual([]);
    await v.add({ [w.demo.tickets.jazzTable]: 4 });
    let c = await v.checkout();
    expect(c.tickets[0]).toMatchObject({ qty: 4, max_can_reserve: 4 });
    await v.json('updateTicketQuantity', { ticket_id: w.demo.tickets.jazzTable, quantity: 2 });
    expect((await v.checkout()).tickets[0]!.qty).toBe(2);
    await v.json('updateTicketQuantity', { ticket_id: w.demo.tickets.jazzTable, quantity: 9 });
    c = await v.checkout();
    expect(c.tickets[0]!.qty).toBe(4);
    expect(c.basket_errors).toEqual([]);
  });

  it('refuses quantity changes on a ticket that cannot be changed, and on tickets not in the basket', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzPatron]: 1 });
    const res = await v.call('updateTicketQuantity', { ticket_id: w.demo.tickets.jazzPatron, quantity: 2 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'The quantity of this ticket cannot be changed' });
    const missing = await v.call('updateTicketQuantity', { ticket_id: w.demo.tickets.trail10k, quantity: 2 });
    expect(missing.statusCode).toBe(404);
    expect((await v.checkout()).tickets[0]!.qty).toBe(1);
  });

  it('does not add a sold-out ticket and says why', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzEarly]: 2, [w.demo.tickets.jazzGeneral]: 1 });
    const c = await v.checkout();
    expect(c.tickets.map((t) => t.ticket_id)).toEqual([w.demo.tickets.jazzGeneral]);
    expect(c.basket_errors).toEqual(['Early bird is sold out']);
  });

  it('refuses to reserve an empty basket, a line under its minimum, or a missing required ticket', async () => {
    const v = new Visitor(w.app);
    expect(await v.json('reserveTickets')).toEqual({ reserved: false, error: 'Your basket is empty' });

    // The add path refuses 1 of a 'minimum 2' ticket, so the line gets below its minimum by a quantity change.
    await v.add({ [w.demo.tickets.comedyCabaret]: 2 });
    await v.json('updateTicketQuantity', { ticket_id: w.demo.tickets.comedyCabaret, quantity: 1 });
    expect(await v.json('reserveTickets')).toEqual({
      reserved: false,
      error: 'Cabaret table (pairs): You must purchase a minimum of 2 tickets of this type',
    });
    // Said once, in the reply: the checkout does not repeat it as the sale's reserving_error.
    expect((await v.checkout()).reserving_error).toBeNull();

    const runner = new Visitor(w.app);
    await runner.add({ [w.demo.tickets.trailParking]: 1 });
    const refused = await runner.json('reserveTickets');
    expect(refused).toEqual({
      reserved: false,
      error: 'You must also purchase the following tickets to continue the checkout. 10K or half marathon entry',
    });
    await runner.add({ [w.demo.tickets.trailHalf]: 1 });
    expect(await runner.json('reserveTickets')).toMatchObject({
      reserved: true,
      fresh_reservation: true,
      checkout_time: 600,
    });
  });

  it('reserves, reports the hold in the checkout, re-reserves without a second hold, and releases on basket edits', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.lanternEarlyAdult]: 2, [w.demo.tickets.lanternLateAdult]: 1 });
    const before = await holdRows();
    const first = await v.json('reserveTickets');
    expect(first).toMatchObject({ reserved: true, fresh_reservation: true, checkout_time: 600 });
    expect(first.sale_reference).toMatch(/^HF-[A-Z2-9]{8}$/);
    expect(await holdRows()).toBe(before + 2);

    expect(await v.json('updateBasketState', { state: 'login' })).toEqual({ seconds_remaining: 600 });
    w.clock.advance(61_000);
    let c = await v.checkout();
    expect(c).toMatchObject({ state: 'login', sale_reference: first.sale_reference, seconds_remaining: 539 });
    expect(c.events[0]!.warn_customers_about_different_timeslots_message).toMatch(/different entry times/);

    const again = await v.json('reserveTickets');
    expect(again).toEqual({
      reserved: true,
      sale_reference: first.sale_reference,
      fresh_reservation: false,
      checkout_time: 539,
    });
    expect(await holdRows()).toBe(before + 2);

    await v.json('updateTicketQuantity', { ticket_id: w.demo.tickets.lanternEarlyAdult, quantity: 3 });
    c = await v.checkout();
    expect(c).toMatchObject({ state: 'basket', sale_reference: null, seconds_remaining: 0 });
    expect(c.tickets.find((t) => t.ticket_id === w.demo.tickets.lanternEarlyAdult)!.qty).toBe(3);
    expect(await holdRows()).toBe(before);
  });

  it('destroy_sale releases the hold and keeps the basket', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzGeneral]: 2 }, [{ id: w.demo.vouchers.riverside, qty: 1, value: 1000 }]);
    const r = await v.json('reserveTickets');
    expect(r.reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    expect(await v.json('destroySale')).toEqual({ success: true });
    const c = await v.checkout();
    expect(c).toMatchObject({ state: 'basket', sale_reference: null, seconds_remaining: 0, edit_basket_clicked: true });
    expect(c.tickets).toHaveLength(1);
    expect(c.gift_vouchers).toHaveLength(1);
    const saleHolds = await w.database.db
      .select()
      .from(holds)
      .where(eq(holds.ticketTypeId, w.demo.tickets.jazzGeneral));
    expect(saleHolds).toEqual([]);
  });

  it('changes and removes vouchers and tickets', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzGeneral]: 1 }, [{ id: w.demo.vouchers.riverside, qty: 1, value: 5000 }]);
    await v.json('updateGiftVoucherQuantity', { gift_voucher_id: w.demo.vouchers.riverside, qty: 3, value: 5000 });
    expect((await v.checkout()).gift_vouchers[0]!.qty).toBe(3);
    expect(
      (await v.call('updateGiftVoucherQuantity', { gift_voucher_id: w.demo.vouchers.riverside, qty: 3, value: 999 }))
        .statusCode,
    ).toBe(404);
    await v.json('removeGiftVoucherFromBasket', { gift_voucher_id: w.demo.vouchers.riverside, value: 5000 });
    await v.json('removeFromBasket', { ticket_id: w.demo.tickets.jazzGeneral });
    const c = await v.checkout();
    expect(c.tickets).toEqual([]);
    expect(c.gift_vouchers).toEqual([]);
    // An emptied basket takes the next currency it is given.
    await v.add({ [w.demo.tickets.foodDayPass]: 1 });
    expect((await v.checkout()).currency.code).toBe('EUR');
  });

  it('refuses a voucher value outside its range', async () => {
    const v = new Visitor(w.app);
    const res = await v.add({}, [{ id: w.demo.vouchers.riverside, qty: 1, value: 50 }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Riverside Arts gift voucher is sold at £10.00, £25.00, £50.00');
  });

  it('adds from the event page form and goes to the checkout; a bad form goes back with the message', async () => {
    const v = new Visitor(w.app);
    const page = await v.request({ method: 'GET', url: `/event/${w.demo.events.jazz}/` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Summer Jazz on the Quay');
    expect(page.body).toContain(
      `name="ticket[${w.demo.events.jazz}|${w.demo.dates.jazz}|${w.demo.tickets.jazzGeneral}|0][qty]"`,
    );
    expect(page.body).toMatch(/Early bird[\s\S]*?Sold out/);

    const key = `${w.demo.events.jazz}|${w.demo.dates.jazz}|${w.demo.tickets.jazzGeneral}|0`;
    const form = new URLSearchParams({
      parent_event_id: String(w.demo.events.jazz),
      [`ticket[${key}][ticket]`]: String(w.demo.tickets.jazzGeneral),
      [`ticket[${key}][qty]`]: '2',
      [`gift_voucher[${w.demo.vouchers.riverside}][id]`]: String(w.demo.vouchers.riverside),
      [`gift_voucher[${w.demo.vouchers.riverside}][value]`]: '2500',
      [`gift_voucher[${w.demo.vouchers.riverside}][qty]`]: '1',
    });
    const res = await v.request({
      method: 'POST',
      url: '/do/checkout/add/',
      body: form.toString(),
      headers: { accept: 'text/html' },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/checkout/');
    const c = await v.checkout();
    expect(c.tickets.map((t) => [t.ticket_id, t.qty])).toEqual([[w.demo.tickets.jazzGeneral, 2]]);
    expect(c.gift_vouchers.map((g) => [g.id, g.value, g.qty])).toEqual([[w.demo.vouchers.riverside, 2500, 1]]);

    const bad = await v.request({
      method: 'POST',
      url: '/do/checkout/add/',
      body: `parent_event_id=${w.demo.events.jazz}&ticket[${encodeURIComponent(key)}][ticket]=${w.demo.tickets.jazzGeneral}&ticket[${encodeURIComponent(key)}][qty]=two`,
      headers: { accept: 'text/html' },
    });
    expect(bad.statusCode).toBe(303);
    expect(bad.headers.location).toBe(`/event/${w.demo.events.jazz}/?error=not-added`);
    const shown = await v.request({ method: 'GET', url: String(bad.headers.location) });
    expect(shown.body).toContain('class="notice error"');
  });

  it('signs a demo user in and out', async () => {
    const v = new Visitor(w.app);
    expect(await v.json('getUser')).toEqual({ user: null });
    const page = await v.request({ method: 'GET', url: '/signin/' });
    expect(page.body).toContain(w.demo.users.subscribedDark.email);
    const res = await v.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.notSubscribed.id}` });
    expect(res.statusCode).toBe(303);
    expect(await v.json('getUser')).toEqual({
      user: {
        id: w.demo.users.notSubscribed.id,
        email: 'tom.okafor@example.com',
        is_dark_mode: false,
        subscribed: false,
        is_event_subscribed: false,
        full_name: 'Tom Okafor',
        first_name: 'Tom',
        last_name: 'Okafor',
        view_type: 'organiser',
      },
    });
    await v.request({ method: 'POST', url: '/signout/', body: '' });
    expect(await v.json('getUser')).toEqual({ user: null });
  });

  it('takes mailing-list sign-ups by double opt-in: the form alone lists no one (server/mail/mailingList.test.ts)', async () => {
    const v = new Visitor(w.app);
    const ok = await v.request({ method: 'POST', url: '/mailing-list', body: 'email=new.fan%40example.org' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Open it to confirm your sign-up');
    const bad = await v.request({ method: 'POST', url: '/mailing-list', body: 'email=nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Please type a valid email address');
    const rows = await w.database.db.select().from(mailingList).where(eq(mailingList.email, 'new.fan@example.org'));
    expect(rows).toEqual([]);
  });

  it('serves the checkout app on other paths, the catalogue and policies as pages, and JSON 404s for unknown calls', async () => {
    const v = new Visitor(w.app);
    const app = await v.request({ method: 'GET', url: '/checkout/' });
    expect(app.statusCode).toBe(200);
    expect(app.body).toContain('checkout app');
    expect((await v.request({ method: 'GET', url: '/some/deep/link' })).body).toContain('checkout app');
    const list = await v.request({ method: 'GET', url: '/all-events/' });
    expect(list.body).toContain('Ashcombe Winter Lantern Trail');
    expect(list.body).toContain('from €18.00');
    const terms = await v.request({ method: 'GET', url: '/legal-information/purchase-terms-and-conditions/' });
    expect(terms.body).toContain(
      '4.10 Booking fees generally cannot be refunded; your statutory rights are unaffected.',
    );
    expect((await v.request({ method: 'GET', url: '/refund-policy/' })).statusCode).toBe(200);
    expect((await v.request({ method: 'GET', url: `/organiser/${w.demo.organisers.peak}/` })).body).toContain(
      'Refunds are given only if the race is cancelled',
    );
    const unknown = await v.request({ method: 'GET', url: '/ajax/checkout/checkout/nope/' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toHaveProperty('error');
    expect((await v.request({ method: 'GET', url: `/events/book_seats/${w.demo.dates.jazz}/` })).statusCode).toBe(404);
  });
});
