/** The basket's lines as the checkout shows them: ticket lines, gift-voucher lines, and a paid order's after-sale messages. */
import { tz } from '@date-fns/tz';
import { addMonths } from 'date-fns/addMonths';
import type { Checkout, GiftVoucherLine, TicketLine } from '../../../contract/index.ts';
import type { BasketPrice } from '../pricing.ts';
import { effectiveMaxPerOrder } from '../limits.ts';
import { formatEventDayAndTime, formatNiceDate, formatUkDate } from '../format.ts';
import type { seatsByType } from '../seats.ts';
import type { BasketLine, BasketVoucher } from './snapshot.ts';

export const STANDARD_REFUND_POLICY = {
  title: 'Refund policy',
  description: 'Refunds up to 7 days before the event',
  text: 'You can ask for a refund up to 7 days before the event. Booking fees generally cannot be refunded; your statutory rights are unaffected.',
};

/** A voucher's months are counted on the UK calendar its expiry is shown in: a month after 31 January ends on February's last day. */
const ukCalendar = tz('Europe/London');

export function ticketLines(
  lines: BasketLine[],
  p: { price: BasketPrice; seatsByType: ReturnType<typeof seatsByType>; maxPerOrder: number | undefined },
): TicketLine[] {
  return lines.map(({ line, type, date, event, organiser }) => ({
    ticket_id: type.id,
    event_id: event.id,
    date_id: date.id,
    qty: line.qty,
    // The effective maximum, so the basket warns and caps exactly where the server does.
    max_can_reserve: effectiveMaxPerOrder(type.maxCanReserve, event.maxPerOrder, p.maxPerOrder),
    min_per_customer: type.minPerCustomer,
    // A seated line's quantity is its seats: it changes by choosing seats again.
    can_update_quantity: type.canUpdateQuantity && !p.seatsByType.has(type.id),
    price: p.price.lines.get(type.id)?.unitPrice ?? type.price,
    booking_fee: type.bookingFee,
    discount_amount: p.price.lines.get(type.id)?.discountAmount ?? 0,
    absorb_fee: type.absorbFee,
    event_hide_booking_fee: event.hideBookingFee,
    non_refundable: type.nonRefundable,
    refund_policy: refundPolicyOf(organiser),
    required_tickets: type.requiredTickets,
    seats: p.seatsByType.get(type.id) ?? [],
    event_name: event.title,
    event_url: `/event/${event.id}/`,
    organiser_url: `/organiser/${organiser.id}/`,
    ticket_name: type.name,
    nice_date: formatNiceDate(date.startsAt),
    thumbnail: event.thumbnail,
  }));
}

/** The organiser's own refund policy when it has one, else the standard one. */
export function refundPolicyOf(
  organiser: Pick<BasketLine['organiser'], 'name' | 'customRefundPolicy'>,
): TicketLine['refund_policy'] {
  return organiser.customRefundPolicy
    ? {
        title: 'Refund policy',
        description: `${organiser.name}’s own refund policy`,
        text: organiser.customRefundPolicy,
      }
    : STANDARD_REFUND_POLICY;
}

/** The voucher lines, each with the expiry a voucher bought now would have. */
export function giftVoucherLines(vouchers: BasketVoucher[], now: Date): GiftVoucherLine[] {
  return vouchers.map(({ line, voucher, organiser }) => ({
    id: voucher.id,
    name: voucher.name,
    qty: line.qty,
    value: line.value,
    o_name: organiser.name,
    o_url: `/organiser/${organiser.id}/`,
    uk_expiry_date: formatUkDate(addMonths(now, voucher.validityMonths, { in: ukCalendar })),
    thumbnail: voucher.thumbnail,
  }));
}

/**
 * The organisers' messages to a paid order's buyers (spec 001 "After sale messages"): one for each
 * event date of the order whose event has a message, with the date and time it starts.
 */
export function afterSaleMessages(
  lines: Pick<BasketLine, 'event' | 'date' | 'organiser'>[],
): Checkout['after_sale_messages'] {
  const seen = new Set<number>();
  return lines.flatMap(({ event, date, organiser }) => {
    if (event.afterSaleMessage === null || seen.has(date.id)) return [];
    seen.add(date.id);
    return [
      {
        organiser_name: organiser.name,
        event_title: event.title,
        ...formatEventDayAndTime(date.startsAt),
        message: event.afterSaleMessage,
      },
    ];
  });
}
