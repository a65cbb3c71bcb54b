import { describe, expect, it } from 'vitest';
import { priceBasket, type PricedTicket } from './pricing.ts';

const line = (over: Partial<PricedTicket>): PricedTicket => ({
  ticketId: 1,
  eventId: 10,
  organiserId: 100,
  qty: 1,
  price: 1000,
  bookingFee: 0,
  absorbFee: false,
  offerBuyN: null,
  coverable: true,
  ...over,
});

describe('basket pricing', () => {
  it('spends a fixed code across covered lines in order, never below zero, and skips other events', () => {
    const p = priceBasket({
      tickets: [
        line({ ticketId: 1, price: 300 }),
        line({ ticketId: 2, price: 1000, eventId: 11 }),
        line({ ticketId: 3, price: 400 }),
      ],
      vouchers: [],
      code: { code: 'FIVEOFF', kind: 'fixed', amount: 500, organiserId: null, eventId: 10 },
      refundProtection: false,
    });
    expect(p.lines.get(1)!.discountAmount).toBe(300);
    expect(p.lines.get(2)!.discountAmount).toBe(0);
    expect(p.lines.get(3)!.discountAmount).toBe(200);
    expect(p.discountsApplied).toEqual({ FIVEOFF: 500 });
    expect(p.basketTotal).toBe(1700 - 500);
  });

  it('rounds percentages half up to the penny and applies them after the offer', () => {
    // 5 × £3.33 with buy-4-get-1: £13.32 after the offer; 12.5 % of it is 166.5p → 167p.
    const p = priceBasket({
      tickets: [line({ qty: 5, price: 333, offerBuyN: 4, bookingFee: 25 })],
      vouchers: [{ value: 1000, qty: 2 }],
      code: { code: 'EIGHTH', kind: 'percent', amount: 1250, organiserId: 100, eventId: null },
      refundProtection: true,
    });
    expect(p.offersTotal).toBe(333);
    expect(p.discountsApplied).toEqual({ EIGHTH: 167 });
    // Protection: 7 % of (1332 − 167) = 81.55p → 82p.
    expect(p.refundProtectionCost).toBe(82);
    expect(p.basketTotal).toBe(1665 - 333 - 167 + 5 * 25 + 82 + 2000);
  });

  it('calls fees absorbed only when every line absorbs them', () => {
    const all = priceBasket({
      tickets: [line({ absorbFee: true, bookingFee: 50 })],
      vouchers: [],
      code: null,
      refundProtection: false,
    });
    expect(all.allBookingFeesAbsorbed).toBe(true);
    expect(all.basketTotal).toBe(1000);
    // The buyer pays the face price; the organiser's share is the line price, the rest the fee.
    expect(all.lines.get(1)?.unitPrice).toBe(950);
    expect(all.bookingFees).toBe(50);
    const mixed = priceBasket({
      tickets: [line({ absorbFee: true }), line({ ticketId: 2, bookingFee: 50 })],
      vouchers: [],
      code: null,
      refundProtection: false,
    });
    expect(mixed.allBookingFeesAbsorbed).toBe(false);
    expect(mixed.basketTotal).toBe(2050);
    expect(priceBasket({ tickets: [], vouchers: [], code: null, refundProtection: false }).allBookingFeesAbsorbed).toBe(
      false,
    );
  });
});
