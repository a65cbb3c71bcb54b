/** A paid sale is closed: its basket and hold cannot change, and the next add starts a new basket. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sales } from '../db/schema.ts';
import { completeSale } from './completeSale.ts';
import { PAID_SALE_MESSAGE } from '../routes/api/basket.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

describe.each(drivers)('a paid sale on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  it('refuses changes to its basket and hold, and the next add starts a new basket', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzGeneral]: 2 });
    const reserved = await v.json('reserveTickets', {});
    expect(reserved.reserved).toBe(true);
    const [sale] = await w.database.db
      .select()
      .from(sales)
      .where(eq(sales.reference, String(reserved.sale_reference)));
    await w.database.db.transaction((tx) => completeSale(tx, sale!.id, w.clock.now));

    const ticketId = w.demo.tickets.jazzGeneral;
    for (const [name, body] of [
      ['updateTicketQuantity', { ticket_id: ticketId, quantity: 1 }],
      ['removeFromBasket', { ticket_id: ticketId }],
      ['updateRefundProtection', { refund_protection: true }],
      ['destroySale', {}],
      ['extendHold', {}],
      ['reserveTickets', {}],
    ] as const) {
      const res = await v.call(name, body as never);
      expect(res.statusCode, name).toBe(409);
      expect(res.json(), name).toEqual({ error: PAID_SALE_MESSAGE });
    }
    const [after] = await w.database.db.select().from(sales).where(eq(sales.id, sale!.id));
    expect(after!.paidAt).not.toBeNull();
    expect(after!.reference).toBe(reserved.sale_reference);

    await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
    const next = await v.checkout();
    expect(next.tickets).toHaveLength(1);
    expect(next.tickets[0]).toMatchObject({ qty: 1 });
    expect(next.sale_reference).toBeFalsy();
  });
});
