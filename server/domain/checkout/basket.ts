/** What the checkout derives from its snapshot before it maps anything: who is in the basket, its currency and its price. */
import { priceBasket, type BasketPrice } from '../pricing.ts';
import type { BasketLine, CheckoutSnapshot } from './snapshot.ts';

type Organiser = BasketLine['organiser'];

export interface CheckoutBasket {
  /** The basket's events, each once, in line order. */
  events: BasketLine['event'][];
  /** The basket's organisers, each once: those of the ticket lines, then those of the vouchers. */
  organisers: Organiser[];
  /** The first basket organiser's charity, when one of them has one. */
  charity: CheckoutSnapshot['charities'][number] | null;
  currency: string;
  /** The payment account of the first basket organiser with a provider: the provider, its own account there, and whether the platform set it. */
  paymentAccount: { provider: string; merchantId: string | null; overridden: boolean } | null;
  price: BasketPrice;
}

export function basketOf(snapshot: CheckoutSnapshot): CheckoutBasket {
  const { sale, lines, vouchers } = snapshot;
  const organisers = uniqueBy([...lines.map((l) => l.organiser), ...vouchers.map((v) => v.organiser)], (o) => o.id);
  const charityId = organisers.find((o) => o.charityId !== null)?.charityId ?? null;
  return {
    events: uniqueBy(
      lines.map((l) => l.event),
      (e) => e.id,
    ),
    organisers,
    charity: charityId === null ? null : (snapshot.charities.find((c) => c.id === charityId) ?? null),
    currency: sale.currency ?? lines[0]?.event.currency ?? vouchers[0]?.voucher.currency ?? 'GBP',
    paymentAccount: ((o) =>
      o?.paymentProvider
        ? {
            provider: o.paymentProvider,
            merchantId: o.paymentMerchantId ?? null,
            overridden: o.paymentProviderOverridden ?? false,
          }
        : null)(organisers.find((o) => o.paymentProvider)),
    price: priceOf(snapshot),
  };
}

/** The basket priced: its tickets, vouchers, applied code and refund protection. */
function priceOf({ sale, lines, vouchers, code }: CheckoutSnapshot): BasketPrice {
  return priceBasket({
    tickets: lines.map(({ line, type, event }) => ({
      ticketId: type.id,
      eventId: event.id,
      organiserId: event.organiserId,
      qty: line.qty,
      price: type.price,
      bookingFee: type.bookingFee,
      absorbFee: type.absorbFee,
      offerBuyN: type.offerBuyN,
      coverable: event.refundProtection,
    })),
    vouchers: vouchers.map(({ line }) => ({ value: line.value, qty: line.qty })),
    code: code
      ? { code: code.code, kind: code.kind, amount: code.amount, organiserId: code.organiserId, eventId: code.eventId }
      : null,
    refundProtection: sale.refundProtection,
  });
}

function uniqueBy<T>(items: T[], key: (item: T) => number): T[] {
  const seen = new Map<number, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}
