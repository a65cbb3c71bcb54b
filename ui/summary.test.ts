import { describe, expect, it } from 'vitest';
import type { Checkout, GiftVoucherLine, TicketLine } from '../contract';
import { orderSummary } from './summary';

type Source = Parameters<typeof orderSummary>[0];

function ticket(over: Partial<TicketLine>): TicketLine {
  return {
    ticket_id: 1,
    event_id: 1,
    date_id: 1,
    qty: 1,
    max_can_reserve: 0,
    min_per_customer: 1,
    can_update_quantity: true,
    price: 0,
    booking_fee: 0,
    discount_amount: 0,
    absorb_fee: false,
    event_hide_booking_fee: false,
    non_refundable: false,
    refund_policy: { text: '', title: '', description: '' },
    required_tickets: [],
    seats: [],
    event_name: 'Harbour Lights',
    event_url: '/event/1/',
    organiser_url: '/o/1/',
    ticket_name: 'Standing',
    nice_date: 'Fri 21 Nov 2025',
    thumbnail: '',
    ...over,
  };
}

function voucher(over: Partial<GiftVoucherLine>): GiftVoucherLine {
  return {
    id: 1,
    name: 'Gift voucher',
    qty: 1,
    value: 0,
    o_name: 'Org',
    o_url: '/o/1/',
    uk_expiry_date: '1 Jan 2027',
    thumbnail: '',
    ...over,
  };
}

function source(over: Partial<Source>): Source {
  return {
    tickets: [],
    gift_vouchers: [],
    currency: { symbol: '£', code: 'GBP' },
    basket_total: 0,
    delivery_cost: 0,
    discounts_applied: {},
    offers_applied_total: 0,
    gift_vouchers_applied_total: 0,
    refund_protection: 0,
    refund_protection_cost: 0,
    all_booking_fees_are_absorbed: false,
    donation: null,
    donation_amount: 0,
    charity: null,
    is_gift_aid: false,
    ...over,
  };
}

const charity: Checkout['charity'] = {
  id: 1,
  name: 'Sea Rescue',
  logo: '',
  description_html: '',
  donation_checkout_title: 'Donate',
  donation_options: [500],
  base_fee: 20,
  booking_fee: 2,
  booking_fee_includes_vat: false,
  booking_fee_vat: 0,
  booking_fee_cap: null,
};

describe('orderSummary', () => {
  it('finds the booking fees as what remains of the total', () => {
    // 2 × £20 + 2 × £1.50 fees = £43
    const s = orderSummary(
      source({ tickets: [ticket({ price: 2000, qty: 2, booking_fee: 150 })], basket_total: 4300 }),
    );
    expect(s.subtotal).toBe(4000);
    expect(s.bookingFees).toBe(300);
    expect(s.total).toBe(4300);
  });

  it('puts absorbed booking fees into the subtotal', () => {
    const s = orderSummary(
      source({ tickets: [ticket({ price: 2000, qty: 2 })], basket_total: 4300, all_booking_fees_are_absorbed: true }),
    );
    expect(s.bookingFeesAbsorbed).toBe(true);
    expect(s.bookingFees).toBe(300);
    expect(s.subtotal).toBe(4300);
  });

  it('counts gift voucher products as lines in the subtotal, not as fees', () => {
    const s = orderSummary(
      source({
        tickets: [ticket({ price: 1000, qty: 1 })],
        gift_vouchers: [voucher({ value: 2500, qty: 2 })],
        basket_total: 1000 + 100 + 5000,
      }),
    );
    expect(s.subtotal).toBe(6000);
    expect(s.bookingFees).toBe(100);
  });

  it('takes discounts, offers and applied vouchers off without mistaking them for fees', () => {
    // £30 line, £5 code off the line, £2 offer, £3 voucher applied, £1 fee, £4 shipping
    const s = orderSummary(
      source({
        tickets: [ticket({ price: 1500, qty: 2, discount_amount: 500 })],
        discounts_applied: { SPRING: 500 },
        offers_applied_total: 200,
        gift_vouchers_applied_total: 300,
        delivery_cost: 400,
        basket_total: 3000 - 500 + 100 + 400 - 200 - 300,
      }),
    );
    expect(s.bookingFees).toBe(100);
    expect(s.discounts).toEqual([{ code: 'SPRING', amount: 500 }]);
    expect(s.shipping).toBe(400);
    expect(s.offers).toBe(200);
    expect(s.giftVoucher).toBe(300);
    expect(s.subtotal).toBe(3000);
  });

  it('shows refund protection only when chosen, and keeps it out of the fees', () => {
    const base = { tickets: [ticket({ price: 1000, qty: 1 })], refund_protection_cost: 80 };
    const chosen = orderSummary(source({ ...base, refund_protection: 1, basket_total: 1000 + 50 + 80 }));
    expect(chosen.refundProtection).toBe(80);
    expect(chosen.bookingFees).toBe(50);
    const declined = orderSummary(source({ ...base, refund_protection: 0, basket_total: 1000 + 50 }));
    expect(declined.refundProtection).toBeNull();
    expect(declined.bookingFees).toBe(50);
  });

  it('lists the donation, its fee, the charity and the Gift Aid uplift', () => {
    const s = orderSummary(
      source({
        tickets: [ticket({ price: 1000, qty: 1 })],
        donation: { amount_before_booking_fee: 1000, booking_fee: 40, is_gift_aid: true },
        donation_amount: 1000,
        charity,
        is_gift_aid: true,
        basket_total: 1000 + 100 + 1000 + 40,
      }),
    );
    expect(s.bookingFees).toBe(100);
    expect(s.donation).toBe(1000);
    expect(s.donationFee).toBe(40);
    expect(s.charityName).toBe('Sea Rescue');
    expect(s.giftAid).toBe(250);
  });

  it('has no donation lines without a donation', () => {
    const s = orderSummary(source({ charity, basket_total: 0 }));
    expect(s.donation).toBeNull();
    expect(s.donationFee).toBeNull();
    expect(s.charityName).toBeNull();
    expect(s.giftAid).toBeNull();
  });
});
