/**
 * The order summary's figures, derived from the checkout as spec 001 §9 says. The server sends
 * the basket total and the parts it knows; the booking fee total is what remains once every other
 * part is taken away. Everything is in minor units.
 */
import type { Checkout } from '../contract';
import { giftAidUplift } from '../contract/giftAidUplift';

export interface DiscountLine {
  code: string;
  amount: number;
}

export interface OrderSummary {
  currencyCode: string;
  /** Σ price × qty of tickets and gift vouchers, plus the booking fees when all are absorbed. */
  subtotal: number;
  shipping: number;
  bookingFees: number;
  /** Absorbed fees are already inside the prices: the screen shows them in brackets. */
  bookingFeesAbsorbed: boolean;
  discounts: DiscountLine[];
  offers: number;
  giftVoucher: number;
  /** Null unless the buyer chose refund protection. */
  refundProtection: number | null;
  /** Null when the buyer has not donated. */
  donation: number | null;
  donationFee: number | null;
  charityName: string | null;
  /** The 25 % the charity claims on top of the donation; null without Gift Aid. */
  giftAid: number | null;
  total: number;
}

type SummarySource = Pick<
  Checkout,
  | 'tickets'
  | 'gift_vouchers'
  | 'currency'
  | 'basket_total'
  | 'delivery_cost'
  | 'discounts_applied'
  | 'offers_applied_total'
  | 'gift_vouchers_applied_total'
  | 'refund_protection'
  | 'refund_protection_cost'
  | 'all_booking_fees_are_absorbed'
  | 'donation'
  | 'donation_amount'
  | 'charity'
  | 'is_gift_aid'
>;

/** Gift vouchers are products: their value times quantity counts as a line. */
function voucherLinesTotal(c: SummarySource): number {
  return c.gift_vouchers.reduce((sum, v) => sum + v.value * v.qty, 0);
}

function ticketLinesTotal(c: SummarySource): number {
  return c.tickets.reduce((sum, t) => sum + t.price * t.qty, 0);
}

/** `discount_amount` is what the codes took off the whole line. */
function ticketLinesAfterDiscounts(c: SummarySource): number {
  return c.tickets.reduce((sum, t) => sum + t.price * t.qty - t.discount_amount, 0);
}

function donationParts(c: SummarySource): { amount: number; fee: number } | null {
  if (c.donation) return { amount: c.donation.amount_before_booking_fee, fee: c.donation.booking_fee };
  return c.donation_amount > 0 ? { amount: c.donation_amount, fee: 0 } : null;
}

export function orderSummary(c: SummarySource): OrderSummary {
  const donation = donationParts(c);
  const refundProtection = c.refund_protection === 1 ? c.refund_protection_cost : null;
  const bookingFees =
    c.basket_total +
    c.gift_vouchers_applied_total +
    c.offers_applied_total -
    c.delivery_cost -
    (refundProtection ?? 0) -
    (donation ? donation.amount + donation.fee : 0) -
    (ticketLinesAfterDiscounts(c) + voucherLinesTotal(c));
  const subtotal = ticketLinesTotal(c) + (c.all_booking_fees_are_absorbed ? bookingFees : 0) + voucherLinesTotal(c);
  const giftAidApplies = (c.is_gift_aid || c.donation?.is_gift_aid === true) && donation !== null;

  return {
    currencyCode: c.currency.code,
    subtotal,
    shipping: c.delivery_cost,
    bookingFees,
    bookingFeesAbsorbed: c.all_booking_fees_are_absorbed,
    discounts: Object.entries(c.discounts_applied).map(([code, amount]) => ({ code, amount })),
    offers: c.offers_applied_total,
    giftVoucher: c.gift_vouchers_applied_total,
    refundProtection,
    donation: donation?.amount ?? null,
    donationFee: donation && donation.fee > 0 ? donation.fee : null,
    charityName: donation ? (c.charity?.name ?? null) : null,
    giftAid: giftAidApplies && donation ? giftAidUplift(donation.amount) : null,
    total: c.basket_total,
  };
}
