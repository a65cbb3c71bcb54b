/**
 * Basket pricing in integer minor units. Pure: the checkout builder feeds it rows and shows
 * its figures. The totals obey spec 001 §9, so the browser can derive the booking fee line as
 * basket_total + offers − delivery − refund protection − Σ(line price×qty − discount_amount).
 *
 * An absorbed fee is paid by the organiser out of the ticket's face price: the buyer pays the face
 * price, of which the line price is the organiser's share and the rest the booking fee. So the
 * fee is inside the total either way, and the summary shows absorbed fees in brackets.
 */

/** Refund protection costs this share of the protected lines' price (basis points: 7 %). */
export const REFUND_PROTECTION_BP = 700;

export interface PricedTicket {
  ticketId: number;
  eventId: number;
  organiserId: number;
  qty: number;
  price: number;
  bookingFee: number;
  absorbFee: boolean;
  offerBuyN: number | null;
  coverable: boolean;
}

export interface PricedVoucher {
  value: number;
  qty: number;
}

export interface AppliedCode {
  code: string;
  kind: 'percent' | 'fixed';
  amount: number;
  organiserId: number | null;
  eventId: number | null;
}

export interface BasketPrice {
  /** Per ticket type: the line price the buyer sees (net of an absorbed fee), and what came off it. */
  lines: Map<number, { unitPrice: number; discountAmount: number; offerAmount: number }>;
  discountsApplied: Record<string, number>;
  offersTotal: number;
  /** Every booking fee in the basket, absorbed ones included. */
  bookingFees: number;
  refundProtectionCost: number;
  vouchersTotal: number;
  basketTotal: number;
  allBookingFeesAbsorbed: boolean;
}

/** Half-up rounding of a non-negative integer ratio, without floats drifting. */
function share(amount: number, bp: number): number {
  return Math.floor((amount * bp + 5000) / 10_000);
}

export function codeCovers(
  code: Pick<AppliedCode, 'organiserId' | 'eventId'>,
  line: Pick<PricedTicket, 'organiserId' | 'eventId'>,
): boolean {
  if (code.eventId !== null) return code.eventId === line.eventId;
  if (code.organiserId !== null) return code.organiserId === line.organiserId;
  return true;
}

/** Tickets given away by a 'buy N get one free' offer: one in every N+1. */
export function freeTickets(qty: number, offerBuyN: number | null): number {
  return offerBuyN && offerBuyN > 0 ? Math.floor(qty / (offerBuyN + 1)) : 0;
}

export function priceBasket(input: {
  tickets: PricedTicket[];
  vouchers: PricedVoucher[];
  code: AppliedCode | null;
  refundProtection: boolean;
  deliveryCost?: number;
}): BasketPrice {
  const lines: BasketPrice['lines'] = new Map();
  let fixedLeft = input.code?.kind === 'fixed' ? input.code.amount : 0;
  let gross = 0;
  let offersTotal = 0;
  let discountTotal = 0;
  let bookingFees = 0;
  let coverableNet = 0;

  for (const t of input.tickets) {
    const unitPrice = t.absorbFee ? Math.max(0, t.price - t.bookingFee) : t.price;
    const lineGross = unitPrice * t.qty;
    const offerAmount = freeTickets(t.qty, t.offerBuyN) * unitPrice;
    const afterOffer = lineGross - offerAmount;
    let discountAmount = 0;
    if (input.code && codeCovers(input.code, t)) {
      if (input.code.kind === 'percent') discountAmount = share(afterOffer, input.code.amount);
      else {
        discountAmount = Math.min(afterOffer, fixedLeft);
        fixedLeft -= discountAmount;
      }
    }
    lines.set(t.ticketId, { unitPrice, discountAmount, offerAmount });
    gross += lineGross;
    offersTotal += offerAmount;
    discountTotal += discountAmount;
    bookingFees += (t.absorbFee ? t.price - unitPrice : t.bookingFee) * t.qty;
    if (t.coverable) coverableNet += afterOffer - discountAmount;
  }

  const vouchersTotal = input.vouchers.reduce((sum, v) => sum + v.value * v.qty, 0);
  const refundProtectionCost = share(coverableNet, REFUND_PROTECTION_BP);
  const deliveryCost = input.deliveryCost ?? 0;
  const basketTotal =
    gross -
    discountTotal -
    offersTotal +
    bookingFees +
    (input.refundProtection ? refundProtectionCost : 0) +
    vouchersTotal +
    deliveryCost;

  return {
    lines,
    discountsApplied: input.code && discountTotal > 0 ? { [input.code.code]: discountTotal } : {},
    offersTotal,
    bookingFees,
    refundProtectionCost,
    vouchersTotal,
    basketTotal,
    allBookingFeesAbsorbed: input.tickets.length > 0 && input.tickets.every((t) => t.absorbFee),
  };
}
