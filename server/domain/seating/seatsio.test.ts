import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { calls, seatBasketKey, type RequestOf } from '../../../contract/index.ts';
import { saleSeats, seatPlans, seats } from '../../db/schema.ts';
import { completeSale } from '../completeSale.ts';
import { parseConfig } from '../../config.ts';
import { seatsioSeats } from '../../providers/seatsio.ts';
import { seatingWiring } from '../../providers/seating.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from '../../test/harness.ts';
import { startFakeSeatsio, type FakeSeatsio } from '../../test/fakeSeatsio.ts';
import { directives } from '../../test/csp.ts';

const SECRET = 'sk-test-workspace-secret';
const PUBLIC = 'pk-test-workspace-public';
const EVENT_KEY = 'harbour-playhouse-seatsio';

/**
 * A seated date whose plan seats.io keeps (spec 001 §2, §3): with seats.io keyed the page is told to
 * draw seats.io's chart for the event key; the seats the chart held for the buyer are checked at
 * seats.io when added, booked there when the sale completes, and given back when taken out of the basket.
 */
describe.each(drivers)('seats.io seating on %s', (driver) => {
  let w: TestWorld;
  let fake: FakeSeatsio;
  const date = () => w.demo.seated.date;
  // The provider the app books with, as the app builds it from the same keys.
  const seating = () => seatsioSeats({ secretKey: SECRET, apiBase: fake.base });
  beforeAll(async () => {
    fake = await startFakeSeatsio({ secretKey: SECRET, events: {} });
    w = await openWorld(driver, {
      seatsio: { publicKey: PUBLIC, secretKey: SECRET, region: 'oc', apiBase: fake.base },
    });
    await w.database.db
      .update(seatPlans)
      .set({ provider: 'seatsio', providerIdentifier: EVENT_KEY })
      .where(eq(seatPlans.eventDateId, date()));
    const all = await w.database.db.select().from(seats).where(eq(seats.eventDateId, date()));
    fake.events.set(
      EVENT_KEY,
      new Map(all.map((s) => [`${s.section}-${s.row}-${s.number}`, { status: 'free' as const }])),
    );
  });
  afterAll(async () => {
    await w?.close();
    await fake?.close();
  });

  function addSeats(
    v: Visitor,
    ticketTypeId: number,
    chosen: { section: string; row: string; number: string; hold_token: string }[],
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
  const seat = (row: string, number: string, hold_token: string) => ({ section: 'Stalls', row, number, hold_token });
  async function saleOf(row: string, number: string): Promise<string> {
    const rows = await w.database.db
      .select({ saleId: saleSeats.saleId, seat: seats })
      .from(saleSeats)
      .innerJoin(seats, eq(seats.id, saleSeats.seatId));
    return rows.find((r) => r.seat.section === 'Stalls' && r.seat.row === row && r.seat.number === number)!.saleId;
  }

  it('tells the page to draw seats.io’s chart for the event key, with the public key and region', async () => {
    const res = await new Visitor(w.app).call('getSeatingPlan', { event_date_id: date() });
    const plan = calls.getSeatingPlan.response.parse(res.json());
    expect(plan.seating_plan_layout.seating_plan_provider).toEqual({
      provider: 'seatsio',
      public_key: PUBLIC,
      region: 'oc',
    });
    expect(plan.seating_plan_event.provider_identifier).toBe(EVENT_KEY);
    expect(plan.seating_plan_event.pricing.map((p) => p.ticket_name)).toEqual(['Stalls premium', 'Stalls', 'Circle']);
  });

  it('refuses our own seat holds on a plan whose chart holds its seats', async () => {
    const v = new Visitor(w.app);
    const [any] = await w.database.db.select().from(seats).where(eq(seats.eventDateId, date()));
    for (const call of ['holdSeats', 'releaseSeats'] as const) {
      const res = await v.call(call, { event_date_id: date(), seats: [any!.id] });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: 'Seats on this plan are chosen on its seating chart, which holds them.' });
    }
  });

  it('adds only seats seats.io holds under the buyer’s token, reserves them, and books them there when the sale completes', async () => {
    const buyer = new Visitor(w.app);
    const premium = w.demo.seated.tickets.premium;
    fake.now = () => w.clock.now;
    const token = fake.newHoldToken();
    // The chart holds what the buyer selects, under its hold token.
    fake.hold(EVENT_KEY, ['Stalls-D-1', 'Stalls-D-2'], token);
    const stranger = fake.newHoldToken();
    const refused = await addSeats(buyer, premium, [seat('D', '1', stranger)]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'Your hold on Stalls, row D, seat 1 has ended. Please choose your seats again.',
    });

    const added = await addSeats(buyer, premium, [seat('D', '1', token), seat('D', '2', token)]);
    expect(added.statusCode, added.body).toBe(200);
    expect((await buyer.checkout()).tickets[0]).toMatchObject({
      ticket_id: premium,
      qty: 2,
      seats: [seat('D', '1', token), seat('D', '2', token)],
    });
    expect(fake.requests.filter((r) => r.method === 'GET').at(-1)!.path).toBe(
      `/events/${EVENT_KEY}/objects?label=Stalls-D-1&label=Stalls-D-2`,
    );

    // The picking hold lasts a minute more; reserving makes it last the countdown, and More time longer still.
    expect(fake.expiryOf(token)!.getTime()).toBe(w.clock.now.getTime() + 900_000);
    w.clock.advance(840_000);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true, checkout_time: 600 });
    expect(fake.expiryOf(token)!.getTime()).toBe(w.clock.now.getTime() + 600_000);
    expect((await buyer.call('extendHold', {})).statusCode).toBe(200);
    expect(fake.expiryOf(token)!.getTime()).toBe(w.clock.now.getTime() + 1_200_000);
    const saleId = await saleOf('D', '1');
    const done = await w.database.db.transaction((tx) => completeSale(tx, saleId, w.clock.now, seating()));
    expect(done).toEqual({ booked: true, alreadyBooked: false });
    expect(fake.events.get(EVENT_KEY)!.get('Stalls-D-1')).toEqual({ status: 'booked', orderId: saleId });
    expect(fake.events.get(EVENT_KEY)!.get('Stalls-D-2')).toEqual({ status: 'booked', orderId: saleId });
    const [sold] = await w.database.db
      .select()
      .from(seats)
      .where(eq(seats.id, (await seatRow('D', '2')).id));
    expect(sold!.soldSaleId).toBe(saleId);
  });

  it('completes nothing when another buyer got the seats at seats.io after the hold ended', async () => {
    const buyer = new Visitor(w.app);
    const stalls = w.demo.seated.tickets.stalls;
    const token = fake.newHoldToken();
    fake.hold(EVENT_KEY, ['Stalls-E-1', 'Stalls-E-2'], token);
    expect((await addSeats(buyer, stalls, [seat('E', '1', token), seat('E', '2', token)])).statusCode).toBe(200);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    fake.expire(token);
    fake.hold(EVENT_KEY, ['Stalls-E-2'], fake.newHoldToken());
    const saleId = await saleOf('E', '1');
    expect(await w.database.db.transaction((tx) => completeSale(tx, saleId, w.clock.now, seating()))).toEqual({
      booked: false,
    });
    // Nothing is booked at seats.io nor here: the caller refunds.
    expect(fake.events.get(EVENT_KEY)!.get('Stalls-E-1')!.status).not.toBe('booked');
    expect((await seatRow('E', '1')).soldSaleId).toBeNull();
  });

  it('books a sale’s seats all or none: what one hold token booked is given back when another’s seats are gone', async () => {
    const buyer = new Visitor(w.app);
    const first = fake.newHoldToken();
    const second = fake.newHoldToken();
    fake.hold(EVENT_KEY, ['Stalls-D-5', 'Stalls-D-6'], first);
    fake.hold(EVENT_KEY, ['Stalls-G-5', 'Stalls-G-6'], second);
    expect(
      (await addSeats(buyer, w.demo.seated.tickets.premium, [seat('D', '5', first), seat('D', '6', first)])).statusCode,
    ).toBe(200);
    expect(
      (await addSeats(buyer, w.demo.seated.tickets.stalls, [seat('G', '5', second), seat('G', '6', second)]))
        .statusCode,
    ).toBe(200);
    expect(await buyer.json('reserveTickets', {})).toMatchObject({ reserved: true });
    fake.expire(second);
    fake.hold(EVENT_KEY, ['Stalls-G-6'], fake.newHoldToken());
    const saleId = await saleOf('D', '5');
    expect(await w.database.db.transaction((tx) => completeSale(tx, saleId, w.clock.now, seating()))).toEqual({
      booked: false,
    });
    expect(fake.events.get(EVENT_KEY)!.get('Stalls-D-5')).toEqual({ status: 'free' });
    expect(fake.events.get(EVENT_KEY)!.get('Stalls-D-6')).toEqual({ status: 'free' });
  });

  it('gives the seats back at seats.io when their line is taken out of the basket', async () => {
    const buyer = new Visitor(w.app);
    const stalls = w.demo.seated.tickets.stalls;
    const token = fake.newHoldToken();
    fake.hold(EVENT_KEY, ['Stalls-G-1', 'Stalls-G-2'], token);
    expect((await addSeats(buyer, stalls, [seat('G', '1', token), seat('G', '2', token)])).statusCode).toBe(200);
    expect((await buyer.call('removeFromBasket', { ticket_id: stalls })).statusCode).toBe(200);
    expect(fake.events.get(EVENT_KEY)!.get('Stalls-G-1')).toEqual({ status: 'free' });
    expect(fake.requests.at(-1)!.body).toMatchObject({ type: 'RELEASE', holdToken: token, events: [EVENT_KEY] });
  });

  it('answers 409 in words when seats.io cannot be reached as seats are added', async () => {
    const buyer = new Visitor(w.app);
    const token = fake.newHoldToken();
    fake.hold(EVENT_KEY, ['Stalls-H-1'], token);
    const saved = fake.events.get(EVENT_KEY)!;
    fake.events.delete(EVENT_KEY);
    const res = await addSeats(buyer, w.demo.seated.tickets.stalls, [seat('H', '1', token)]);
    fake.events.set(EVENT_KEY, saved);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'The seating plan could not be reached. Please try again.' });
  });

  it('lets the pages load seats.io’s chart, its frame and its API for the region', async () => {
    const page = await new Visitor(w.app).request({ method: 'GET', url: `/events/book_seats/${date()}/` });
    const csp = directives(page.headers['content-security-policy']);
    expect(csp.get('script-src')).toContain('https://cdn-oc.seatsio.net');
    expect(csp.get('frame-src')).toEqual(['https://cdn-oc.seatsio.net']);
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://api-oc.seatsio.net']);
  });

  it('without seats.io keys the same plan is drawn by our own map (provider holdfast), and the policy names no seats.io host', async () => {
    const { app } = await appOn(w.database, {});
    try {
      const res = await new Visitor(app).call('getSeatingPlan', { event_date_id: date() });
      expect(calls.getSeatingPlan.response.parse(res.json()).seating_plan_layout.seating_plan_provider).toEqual({
        provider: 'holdfast',
        public_key: null,
        region: null,
      });
      expect(seatingWiring(parseConfig({}))).toBeNull();
      const page = await new Visitor(app).request({ method: 'GET', url: `/events/book_seats/${date()}/` });
      expect(String(page.headers['content-security-policy'])).not.toMatch(/seatsio/);
    } finally {
      await app.close();
    }
  });

  async function seatRow(row: string, number: string) {
    const all = await w.database.db.select().from(seats).where(eq(seats.eventDateId, date()));
    return all.find((s) => s.section === 'Stalls' && s.row === row && s.number === number)!;
  }
});
