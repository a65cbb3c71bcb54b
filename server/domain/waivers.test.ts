/**
 * Waivers (spec 001 §2 "Waiver", routes; §4 next-step rules): an event whose organiser wrote
 * activity terms makes the checkout say `has_waivers`, and the sale's waiver link shows those
 * terms (and only those) to anyone with the link; a reference that names no such sale is a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sales, users } from '../db/schema.ts';
import { completeSale } from './completeSale.ts';
import { waiverPath } from '../../contract/index.ts';
import { WAIVER_MESSAGES } from '../../contract/messages/waiver.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

describe.each(drivers)('waivers on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  async function reserved(lines: Record<number, number>) {
    const v = new Visitor(w.app);
    expect((await v.add(lines)).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    const reference = (await v.checkout()).sale_reference!;
    return { v, reference };
  }

  async function pay(reference: string) {
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    expect((await w.database.db.transaction((tx) => completeSale(tx, sale!.id, w.clock.now))).booked).toBe(true);
  }

  const stranger = () => new Visitor(w.app);

  it('has_waivers is true for a basket with an event that has terms, and false without one', async () => {
    const { v, reference } = await reserved({ [w.demo.tickets.ropesTaster]: 2, [w.demo.tickets.freeEntry]: 1 });
    expect((await v.checkout()).has_waivers).toBe(true);
    await pay(reference);
    expect((await v.checkout()).has_waivers).toBe(true);

    const other = await reserved({ [w.demo.tickets.freeEntry]: 1 });
    expect((await other.v.checkout()).has_waivers).toBe(false);
    // A visitor without a sale has nothing to read.
    expect((await stranger().checkout()).has_waivers).toBe(false);
  });

  it("the waiver link shows the events' terms to anyone with it, and nothing about the buyer", async () => {
    const email = `ropes-${Math.random().toString(36).slice(2, 10)}@example.com`;
    const [user] = await w.database.db
      .insert(users)
      .values({ email, firstName: 'Grace', lastName: 'Hopper' })
      .returning();
    const buyer = new Visitor(w.app);
    expect((await buyer.request({ method: 'POST', url: '/signin/', body: `user_id=${user!.id}` })).statusCode).toBe(
      303,
    );
    expect((await buyer.add({ [w.demo.tickets.ropesFull]: 3, [w.demo.tickets.freeEntry]: 1 })).statusCode).toBe(200);
    expect((await buyer.json('reserveTickets')).reserved).toBe(true);
    const reference = (await buyer.checkout()).sale_reference!;
    await pay(reference);

    const res = await stranger().request({ method: 'GET', url: waiverPath(reference) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('<h1>Activity terms and conditions</h1>');
    expect(res.body).toContain('Ashcombe Treetop Ropes Course');
    expect(res.body).toContain('Terms set by Ashcombe Estate');
    expect(res.body).toContain('Participants must be at least 8 years old and 1.2 m tall');
    // The site's own header and footer.
    expect(res.body).toContain('class="site-header');
    expect(res.body).toContain('class="site-footer');
    // Only terms: not the event without any, nor the buyer, the quantities or the reference.
    expect(res.body).not.toContain('Community Open Day');
    expect(res.body).not.toContain('Grace');
    expect(res.body).not.toContain(email);
    expect(res.body).not.toContain('Full course');
  });

  it('a reference that names no sale, a sale without terms, or a malformed one is a 404 page, never a 500', async () => {
    const { reference: noTerms } = await reserved({ [w.demo.tickets.freeEntry]: 1 });
    for (const ref of ['HF-ZZZZZZZZ', noTerms, 'not-a-reference', "HF-'; DROP TABLE sales; --", 'x'.repeat(500)]) {
      const res = await stranger().request({ method: 'GET', url: waiverPath(ref) });
      expect(res.statusCode, ref).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain(WAIVER_MESSAGES.notFound);
    }
    // A path below a reference is not a waiver link either.
    const { reference } = await reserved({ [w.demo.tickets.ropesTaster]: 1 });
    expect((await stranger().request({ method: 'GET', url: `${waiverPath(reference)}more/` })).statusCode).toBe(404);
    expect((await stranger().request({ method: 'GET', url: waiverPath(reference) })).statusCode).toBe(200);
  });
});
