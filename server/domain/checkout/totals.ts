/** The basket's money as the checkout shows it, in minor units of its currency. */
import type { Checkout } from '../../../contract/index.ts';
import { currencySymbol } from '../../../contract/money.ts';
import type { BasketPrice } from '../pricing.ts';
import type { Sale } from '../sales.ts';

/** What the buyer pays: the priced basket and any donation with its fee. */
export function basketTotal(
  price: Pick<BasketPrice, 'basketTotal'>,
  donation: { amount: number; fee: number } | null,
): number {
  return price.basketTotal + (donation ? donation.amount + donation.fee : 0);
}

export function totalsFields(
  sale: Pick<Sale, 'refundProtection'>,
  p: { price: BasketPrice; total: number; currency: string; events: { refundProtection: boolean }[] },
): Pick<
  Checkout,
  | 'currency'
  | 'basket_total'
  | 'discounts_applied'
  | 'offers_applied_total'
  | 'refund_protection'
  | 'has_refund_protection'
  | 'refund_protection_cost'
  | 'all_booking_fees_are_absorbed'
> {
  return {
    currency: { symbol: currencySymbol(p.currency), code: p.currency },
    basket_total: p.total,
    discounts_applied: p.price.discountsApplied,
    offers_applied_total: p.price.offersTotal,
    refund_protection: sale.refundProtection ? 1 : 0,
    has_refund_protection: p.events.some((e) => e.refundProtection),
    refund_protection_cost: p.price.refundProtectionCost,
    all_booking_fees_are_absorbed: p.price.allBookingFeesAbsorbed,
  };
}
