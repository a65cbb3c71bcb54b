import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { calls, seatBasketKey, type RequestOf } from '../../contract/index.ts';
import { sales, saleSeats, seats, tickets } from '../db/schema.ts';
import { issueTickets } from './tickets.ts';
import { completeSale } from './completeSale.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

type Plan = ReturnType<typeof calls.getSeatingPlan.response.parse>;

describe.each(drivers)('seat selection on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver, { seatHoldSeconds: 900 });
  });
  afterAll(async () => w?.close());

  const date = () => w.demo.seated.date;
  async function plan(v: Visitor): Promise<Plan> {
    const res = await v.call('getSeatingPlan', { event_date_id: date() });
    expect(res.statusCode, res.body).toBe(200);
    return calls.getSeatingPlan.response.parse(res.json());
  }
  function seatOf(p: Plan, section: string, row: string, number: string) {
    const seat = p.seating_plan_layout.sections
      .find((s) => s.name === section)
      ?.rows.find((r) => r.name === row)
      ?.seats.find((s) => s.number === number);
    if (!seat) throw new Error(`no seat ${section} ${row} ${number}`);
    return seat;
  }
  let reference: Plan;
  const id = (section: string, row: string, number: string) => seatOf(reference, section, row, number).id;
  const hold = (v: Visitor, ...ids: number[]) => v.call('holdSeats', { event_date_id: date(), seats: ids });
  const release = (v: Visitor, ...ids: number[]) => v.call('releaseSeats', { event_date_id: date(), seats: ids });
  function addSeats(
    v: Visitor,
    ticketTypeId: number,
    chosen: { section: string; row: string; number: string; hold_token?: string }[],
  ) {
    const body = {
      parent_event_id: 'null',
      ticket: {
        [seatBasketKey(w.demo.seated.event, date(), ticketTypeId)]: {
          ticket: ticketTypeId,
          vz_id: '',
          has_offer: false,
          qty: chosen.length,
          seats: chosen,
        },
      },
    } as unknown as RequestOf<'addToBasket'>;
    return v.call('addToBasket', body, { accept: 'application/json' });
  }

  it('reads the event date and its seating plan: sections, rows, prices, unpriced and sold seats', async () => {
    const v = new Visitor(w.app);
    const info = await v.call('getEventDate', { event_date_id: date() });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({
      event: { title: 'Twelfth Night at the Harbour Playhouse', currency: { symbol: '£', code: 'GBP' } },
      event_date: { id: date() },
    });
    reference = await plan(v);
    expect(reference.seating_plan_layout.seating_plan_provider).toEqual({
      provider: 'holdfast',
      public_key: null,
      region: null,
    });
    expect(reference.seating_plan_layout.sections.map((s) => s.name)).toEqual(['Stalls', 'Circle']);
    expect(reference.seating_plan_event.pricing.map((p) => [p.ticket_name, p.price])).toEqual([
      ['Stalls premium', 3250],
      ['Stalls', 2500],
      ['Circle', 1800],
    ]);
    expect(seatOf(reference, 'Circle', 'D', '1').ticket_type_id).toBeNull();
    expect(seatOf(reference, 'Stalls', 'C', '5').status).toBe('taken');
    expect(seatOf(reference, 'Stalls', 'A', '1').status).toBe('available');
    // An aisle: seat 9 of a stalls row is two places along from seat 8.
    expect(seatOf(reference, 'Stalls', 'A', '9').position - seatOf(reference, 'Stalls', 'A', '8').position).toBe(2);
    expect(reference.seating_plan_event.hold).toEqual({ hold_token: null, seconds_remaining: 0, seat_ids: [] });
  });

  it('answers an unknown date or a date without a plan with a message', async () => {
    const v = new Visitor(w.app);
    const none = await v.call('getSeatingPlan', { event_date_id: w.demo.dates.jazz });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ error: 'This event date has no seating plan.' });
    expect((await v.call('getEventDate', { event_date_id: 999_999 })).json()).toEqual({
      error: 'This event date could not be found.',
    });
    expect(
      (await v.request({ method: 'GET', url: '/ajax/organiser/event_dates/get_current_seating_plan/abc/' })).statusCode,
    ).toBe(400);
  });

  it('holds a seat for one buyer only, and explains each rule it refuses', async () => {
    const ann = new Visitor(w.app);
    const ben = new Visitor(w.app);
    const first = await hold(ann, id('Stalls', 'A', '1'));
    expect(first.statusCode, first.body).toBe(200);
    const held = first.json() as { hold_token: string; seconds_remaining: number; seat_ids: number[] };
    expect(held.hold_token).toMatch(/^[0-9a-f]{32}$/);
    expect(held.seconds_remaining).toBe(900);
    expect(held.seat_ids).toEqual([id('Stalls', 'A', '1')]);
    expect(seatOf(await plan(ann), 'Stalls', 'A', '1').status).toBe('yours');
    expect(seatOf(await plan(ben), 'Stalls', 'A', '1').status).toBe('taken');

    const taken = await hold(ben, id('Stalls', 'A', '1'));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'Stalls, row A, seat 1 is taken by another buyer.' });
    expect((await hold(ben, id('Stalls', 'A', '3'))).json()).toEqual({
      error: 'That would leave Stalls, row A, seat 2 empty on its own. Choose seats that leave no single empty seat.',
    });
    expect((await hold(ben, id('Circle', 'D', '1'))).json()).toEqual({
      error: 'Circle, row D, seat 1 has no price yet, so it cannot be chosen.',
    });
    expect((await hold(ann, id('Stalls', 'A', '2'))).statusCode).toBe(200);
    expect((await hold(ann, id('Stalls', 'A', '5'))).json()).toEqual({
      error: 'Your seats in Stalls, row A must be next to each other, with no gap between them.',
    });
    // Several seats at once are judged together: B2 and B3 leave B1 alone; B1 to B3 do not.
    expect((await hold(ben, id('Stalls', 'B', '2'), id('Stalls', 'B', '3'))).statusCode).toBe(409);
    expect(seatOf(await plan(ben), 'Stalls', 'B', '2').status).toBe('available');
    expect(
      (await hold(ben, id('Stalls', 'B', '1'), id('Stalls', 'B', '2'), id('Stalls', 'B', '3'))).json(),
    ).toMatchObject({ seat_ids: [id('Stalls', 'B', '1'), id('Stalls', 'B', '2'), id('Stalls', 'B', '3')] });

    // Giving back: not a seat that would be left alone at the row end, but the end of the block.
    expect((await release(ann, id('Stalls', 'A', '1'))).json()).toEqual({
      error: 'That would leave Stalls, row A, seat 1 empty on its own. Choose seats that leave no single empty seat.',
    });
    expect((await release(ben, id('Stalls', 'B', '2'))).statusCode).toBe(409);
    expect((await release(ben, id('Stalls', 'B', '3'))).json()).toMatchObject({
      seat_ids: [id('Stalls', 'B', '1'), id('Stalls', 'B', '2')],
    });
    expect((await release(ann, id('Stalls', 'H', '1'))).json()).toEqual({
      error: 'You do not hold Stalls, row H, seat 1.',
    });
    expect((await release(ann, id('Stalls', 'A', '1'), id('Stalls', 'A', '2'))).json()).toMatchObject({ seat_ids: [] });
    expect((await release(ben, id('Stalls', 'B', '1'), id('Stalls', 'B', '2'))).json()).toMatchObject({ seat_ids: [] });
  });

  it('lets a hold expire at its deadline, after which another buyer may take the seat', async () => {
    const ann = new Visitor(w.app);
    const ben = new Visitor(w.app);
    expect((await hold(ann, id('Stalls', 'E', '1'))).statusCode).toBe(200);
    w.clock.advance(899_000);
    expect((await hold(ben, id('Stalls', 'E', '1'))).statusCode).toBe(409);
    w.clock.advance(1_000);
    expect((await hold(ben, id('Stalls', 'E', '1'))).statusCode).toBe(200);
    expect((await plan(ann)).seating_plan_event.hold.seat_ids).toEqual([]);
    expect((await release(ben, id('Stalls', 'E', '1'))).statusCode).toBe(200);
  });

  it('adds held seats to the basket with their hold token, shows them on the ticket line, reserves and sells them', async () => {
    const buyer = new Visitor(w.app);
    const premium = w.demo.seated.tickets.premium;
    const token = ((await hold(buyer, id('Stalls', 'D', '1'), id('Stalls', 'D', '2'))).json() as { hold_token: string })
      .hold_token;
    const d1 = { section: 'Stalls', row: 'D', number: '1', hold_token: token };
    const d2 = { section: 'Stalls', row: 'D', number: '2', hold_token: token };

    // Refused, with nothing added: no seats for a seated type, a wrong token, a quantity that is not the seats'.
    const noSeats = await buyer.add({ [premium]: 2 });
    expect(noSeats.json()).toEqual({ error: 'Choose your seats for Stalls premium on the seating plan.' });
    expect((await addSeats(buyer, premium, [{ ...d1, hold_token: 'f'.repeat(32) }])).json()).toEqual({
      error: 'Your hold on Stalls, row D, seat 1 has ended. Please choose your seats again.',
    });
    expect((await addSeats(buyer, w.demo.seated.tickets.stalls, [d1])).json()).toEqual({
      error: 'Stalls, row D, seat 1 is not sold as Stalls.',
    });
    expect((await buyer.checkout()).tickets).toEqual([]);

    const added = await addSeats(buyer, premium, [d1, d2]);
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toEqual({ success: true, redirect: '/checkout/' });
    const line = (await buyer.checkout()).tickets[0]!;
    expect(line).toMatchObject({ ticket_id: premium, qty: 2, can_update_quantity: false, seats: [d1, d2] });
    expect((await buyer.call('updateTicketQuantity', { ticket_id: premium, quantity: 3 })).statusCode).toBe(409);

    // The seat hold ends; nobody took the seats, so reserving still gets them, under the countdown.
    w.clock.advance(901_000);
    const reserved = await buyer.json('reserveTickets', {});
    expect(reserved).toMatchObject({ reserved: true, checkout_time: 600 });
    const other = new Visitor(w.app);
    expect(seatOf(await plan(other), 'Stalls', 'D', '1').status).toBe('taken');
    expect((await hold(other, id('Stalls', 'D', '3'), id('Stalls', 'D', '4'))).statusCode).toBe(200);
    const [row] = await w.database.db
      .select()
      .from(seats)
      .where(eq(seats.id, id('Stalls', 'D', '1')));
    expect(row!.heldUntil!.getTime()).toBe(w.clock.now.getTime() + 600_000);

    // More time moves the seats' deadline with the hold.
    expect((await buyer.call('extendHold', {})).statusCode).toBe(200);
    const [extended] = await w.database.db
      .select()
      .from(seats)
      .where(eq(seats.id, id('Stalls', 'D', '1')));
    expect(extended!.heldUntil!.getTime()).toBe(w.clock.now.getTime() + 1_200_000);

    const [{ saleId }] = (await w.database.db
      .select({ saleId: saleSeats.saleId })
      .from(saleSeats)
      .where(eq(saleSeats.seatId, id('Stalls', 'D', '1')))) as [{ saleId: string }];
    const done = await w.database.db.transaction((tx) => completeSale(tx, saleId, w.clock.now));
    expect(done).toEqual({ booked: true, alreadyBooked: false });
    const [sold] = await w.database.db
      .select()
      .from(seats)
      .where(eq(seats.id, id('Stalls', 'D', '2')));
    expect(sold).toMatchObject({ soldSaleId: saleId, heldUntil: null });
    // Each ticket issued carries its seat.
    await w.database.db.update(sales).set({ userId: w.demo.users.notSubscribed.id }).where(eq(sales.id, saleId));
    expect(await issueTickets(w.database.db, saleId, w.clock.now)).toEqual({ issued: true, count: 2 });
    const issued = await w.database.db
      .select({ seat: tickets.seat })
      .from(tickets)
      .where(eq(tickets.saleId, saleId))
      .orderBy(tickets.copy);
    expect(issued.map((t) => t.seat)).toEqual(['Stalls D 1', 'Stalls D 2']);
    w.clock.advance(3_600_000);
    expect(seatOf(await plan(other), 'Stalls', 'D', '2').status).toBe('taken');
    expect((await hold(other, id('Stalls', 'D', '2'))).statusCode).toBe(409);
  });

  it('refuses to reserve seats another buyer took after the seat hold ended', async () => {
    const buyer = new Visitor(w.app);
    const circle = w.demo.seated.tickets.circle;
    const token = ((await hold(buyer, id('Circle', 'A', '1'), id('Circle', 'A', '2'))).json() as { hold_token: string })
      .hold_token;
    expect(
      (
        await addSeats(buyer, circle, [
          { section: 'Circle', row: 'A', number: '1', hold_token: token },
          { section: 'Circle', row: 'A', number: '2', hold_token: token },
        ])
      ).statusCode,
    ).toBe(200);
    w.clock.advance(901_000);
    const rival = new Visitor(w.app);
    expect((await hold(rival, id('Circle', 'A', '1'))).statusCode).toBe(200);
    const refused = await buyer.json('reserveTickets', {});
    expect(refused).toEqual({
      reserved: false,
      error:
        'Sorry, these seats are no longer available: Circle, row A, seat 1; Circle, row A, seat 2. Please choose your seats again.',
    });
    expect(seatOf(await plan(rival), 'Circle', 'A', '2').status).toBe('available');
    // Removing the line takes its seats out of the basket.
    expect((await buyer.call('removeFromBasket', { ticket_id: circle })).statusCode).toBe(200);
    expect(await w.database.db.select().from(saleSeats).where(eq(saleSeats.ticketTypeId, circle))).toEqual([]);
  });

  it('serves the seat page for a seated date, and a 404 page for any other', async () => {
    const v = new Visitor(w.app);
    const page = await v.request({ method: 'GET', url: `/events/book_seats/${date()}/` });
    expect(page.statusCode).not.toBe(404);
    expect((await v.request({ method: 'GET', url: `/events/book_seats/${w.demo.dates.jazz}/` })).statusCode).toBe(404);
    const event = await v.request({ method: 'GET', url: `/event/${w.demo.seated.event}/` });
    expect(event.body).toContain(`href="/events/book_seats/${date()}/"`);
  });
});
