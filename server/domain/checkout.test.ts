import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { checkoutSchema } from '../../contract/index.ts';
import { discountCodes, giftVouchers } from '../db/schema.ts';
import { appOn, drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

describe.each(drivers)('checkout object and pricing on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  it('answers an empty checkout, every field present and typed, to a visitor without a sale', async () => {
    const v = new Visitor(w.app);
    const res = await v.call('getCheckout');
    expect(res.statusCode).toBe(200);
    const body = res.json() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(Object.keys(checkoutSchema.shape).sort());
    const c = checkoutSchema.parse(body);
    expect(c).toMatchObject({
      state: 'basket',
      tickets: [],
      gift_vouchers: [],
      basket_total: 0,
      seconds_remaining: 0,
      sale_reference: null,
    });
  });

  it('prices non-absorbed fees, a buy-3-get-1-free offer, a percentage code, refund protection and a voucher', async () => {
    const { tickets, vouchers } = w.demo;
    const v = new Visitor(w.app);
    expect((await v.add({ [tickets.jazzGeneral]: 4 })).statusCode).toBe(200);

    // 4 × £22.50 = £90.00; the 4th is free (−£22.50); fees 4 × £1.50 = £6.00 are added.
    let c = await v.checkout();
    expect(Object.keys(c).sort()).toEqual(Object.keys(checkoutSchema.shape).sort());
    expect(c.offers_applied_total).toBe(2250);
    expect(c.basket_total).toBe(9000 - 2250 + 600);
    expect(c.all_booking_fees_are_absorbed).toBe(false);
    expect(c.has_refund_protection).toBe(true);
    // 7 % of the £67.50 the tickets cost after the offer, rounded to the penny.
    expect(c.refund_protection_cost).toBe(473);

    // SUMMER10 takes 10 % of £67.50 = £6.75.
    expect(await v.json('setCode', { code: 'summer10' })).toEqual({ code_applied: true });
    c = await v.checkout();
    expect(c.discounts_applied).toEqual({ SUMMER10: 675 });
    expect(c.tickets[0]!.discount_amount).toBe(675);
    expect(c.basket_success).toEqual(['Discount code SUMMER10 applied']);
    expect(c.basket_total).toBe(9000 - 2250 - 675 + 600);
    // Protection now covers £60.75: 7 % = £4.2525 → £4.25.
    expect(c.refund_protection_cost).toBe(425);

    await v.json('updateRefundProtection', { refund_protection: 'true' });
    c = await v.checkout();
    expect(c.refund_protection).toBe(1);
    expect(c.basket_total).toBe(9000 - 2250 - 675 + 600 + 425);

    // A £25 voucher is a product: its value joins the total.
    expect((await v.add({}, [{ id: vouchers.riverside, qty: 1, value: 2500 }])).statusCode).toBe(200);
    c = await v.checkout();
    expect(c.gift_vouchers).toMatchObject([
      { id: vouchers.riverside, qty: 1, value: 2500, name: 'Riverside Arts gift voucher' },
    ]);
    expect(c.basket_total).toBe(9000 - 2250 - 675 + 600 + 425 + 2500);
    expect(c.charity?.name).toBe('Harbour Lights Trust');

    await v.json('updateRefundProtection', { refund_protection: 'false' });
    expect((await v.checkout()).basket_total).toBe(9000 - 2250 - 675 + 600 + 2500);
  });

  it('keeps absorbed fees inside the face price and applies a fixed code scoped to its event', async () => {
    const { tickets } = w.demo;
    const v = new Visitor(w.app);
    await v.add({ [tickets.trail10k]: 2 });
    let c = await v.checkout();
    expect(c.all_booking_fees_are_absorbed).toBe(true);
    expect(c.basket_total).toBe(2 * 2800);
    // £28.00 face price: £26.00 to the organiser and the £2.00 fee it absorbs.
    expect(c.tickets[0]).toMatchObject({ price: 2600, booking_fee: 200, absorb_fee: true });
    expect(c.has_refund_protection).toBe(false);
    expect(c.organisers[0]!.has_custom_refund_policy).toBe(true);

    expect(await v.json('setCode', { code: 'SUMMER10' })).toEqual({ code_applied: false });
    expect(await v.json('setCode', { code: 'FIVEOFF' })).toEqual({ code_applied: true });
    c = await v.checkout();
    expect(c.discounts_applied).toEqual({ FIVEOFF: 500 });
    expect(c.basket_total).toBe(5600 - 500);
  });

  it('refuses unknown and used-up codes', async () => {
    const v = new Visitor(w.app);
    await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
    expect(await v.json('setCode', { code: 'NOSUCHCODE' })).toEqual({ code_applied: false });
    expect(await v.json('setCode', { code: w.demo.codes.exhausted })).toEqual({ code_applied: false });
    expect((await v.checkout()).discounts_applied).toEqual({});
  });

  it('keeps the first currency and flags tickets sold in another', async () => {
    const { tickets } = w.demo;
    const v = new Visitor(w.app);
    await v.add({ [tickets.jazzGeneral]: 1 });
    await v.add({ [tickets.foodDayPass]: 2 });
    const c = await v.checkout();
    expect(c.had_mismatching_currencies).toBe(true);
    expect(c.currency).toEqual({ symbol: '£', code: 'GBP' });
    expect(c.tickets.map((t) => t.ticket_id)).toEqual([tickets.jazzGeneral]);
  });

  it('holds a code’s usage limit when many buyers reserve with it at once', async () => {
    const [limited] = await w.database.db
      .insert(discountCodes)
      .values({ code: 'FEWLEFT', kind: 'percent', amount: 500, usageLimit: 3 })
      .returning();
    const visitors = Array.from({ length: 10 }, () => new Visitor(w.app));
    for (const v of visitors) await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
    // Applying takes no use; reserving claims one, under the code's lock.
    const answers = await Promise.all(visitors.map((v) => v.json('setCode', { code: 'FEWLEFT' })));
    expect(answers.every((a) => a.code_applied === true)).toBe(true);
    const reserved = await Promise.all(visitors.map((v) => v.json('reserveTickets')));
    expect(reserved.filter((r) => r.reserved === true)).toHaveLength(3);
    for (const r of reserved.filter((r) => r.reserved !== true))
      expect(r.error).toMatch(/Discount code FEWLEFT has been used as many times as it can be/);
    const [row] = await w.database.db.select().from(discountCodes).where(eq(discountCodes.id, limited!.id));
    expect(row!.used).toBe(0);
  });
  it('dates a voucher’s expiry by UK calendar months, ending a month after the 31st on the next month’s last day', async () => {
    const { vouchers } = w.demo;
    const expiryOn = async (now: string, months: number) => {
      await w.database.db
        .update(giftVouchers)
        .set({ validityMonths: months })
        .where(eq(giftVouchers.id, vouchers.riverside));
      const { app, clock } = await appOn(w.database);
      try {
        clock.now = new Date(now);
        const v = new Visitor(app);
        expect((await v.add({}, [{ id: vouchers.riverside, qty: 1, value: 2500 }])).statusCode).toBe(200);
        return (await v.checkout()).gift_vouchers[0]!.uk_expiry_date;
      } finally {
        await app.close();
      }
    };
    const [voucher] = await w.database.db
      .select({ months: giftVouchers.validityMonths })
      .from(giftVouchers)
      .where(eq(giftVouchers.id, vouchers.riverside));
    try {
      expect(await expiryOn('2027-01-31T12:00:00Z', 1)).toBe('28/02/2027');
      expect(await expiryOn('2028-01-31T12:00:00Z', 1)).toBe('29/02/2028');
      expect(await expiryOn('2028-02-29T12:00:00Z', 12)).toBe('28/02/2029');
      // 23:30 on 30 August in UTC is already 31 August in the UK (summer time).
      expect(await expiryOn('2027-08-30T23:30:00Z', 1)).toBe('30/09/2027');
      expect(await expiryOn('2027-03-15T12:00:00Z', 18)).toBe('15/09/2028');
    } finally {
      await w.database.db
        .update(giftVouchers)
        .set({ validityMonths: voucher!.months })
        .where(eq(giftVouchers.id, vouchers.riverside));
    }
  });
});
