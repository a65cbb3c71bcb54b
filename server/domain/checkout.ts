/**
 * The checkout object of spec 000 §3, built from the database on every read: every field
 * present and typed, even for a visitor without a sale.
 */
import { effectiveMaxPerOrder } from './limits.ts';
import { tz } from '@date-fns/tz';
import { addMonths } from 'date-fns/addMonths';
import { eq, getTableColumns, sql, type Column, type Table } from 'drizzle-orm';
import { preparedRows, rows, type Database } from '../db/index.ts';
import {
  charities,
  discountCodes,
  eventDates,
  events,
  giftVouchers,
  eventPaymentPlans,
  organiserPaymentSettings,
  organisers,
  questionIntros,
  saleLines,
  salePaymentDetails,
  sales,
  saleVouchers,
  ticketQuestions,
  ticketTypes,
  users,
} from '../db/schema.ts';
import type { Checkout, Step } from '../../contract/index.ts';
import { emptyCheckout } from '../../contract/emptyCheckout.ts';
import { priceBasket } from './pricing.ts';
import { holdIsLive, secondsRemaining } from './sales.ts';
import { formatEventDayAndTime, formatNiceDate, formatUkDate } from './format.ts';
import { currencySymbol } from '../../contract/money.ts';
import { findDonation } from './donation.ts';
import { needsDeliveryAddress } from './address.ts';
import { checkoutQuestions } from './questions.ts';
import { planRemaining, planScheduleOptions } from './instalments/schedule.ts';
import { seatsByType as seatsByTypeOf, type SaleSeat } from './seats.ts';

export const STANDARD_REFUND_POLICY = {
  title: 'Refund policy',
  description: 'Refunds up to 7 days before the event',
  text: 'You can ask for a refund up to 7 days before the event. Booking fees generally cannot be refunded; your statutory rights are unaffected.',
};

type Row<T extends Table> = T['$inferSelect'];

/** A voucher's months are counted on the UK calendar its expiry is shown in: a month after 31 January ends on February's last day. */
const ukCalendar = tz('Europe/London');

/** Each table's columns as [property, column] pairs, worked out once per table rather than per read. */
const columnsByTable = new WeakMap<Table, [string, Column][]>();
function columnsOf(table: Table): [string, Column][] {
  let columns = columnsByTable.get(table);
  if (!columns) columnsByTable.set(table, (columns = Object.entries(getTableColumns(table))));
  return columns;
}

/**
 * A row that came back as `to_json(alias)`, turned into what a Drizzle select of the table
 * returns: property names, and each value through its column's own driver mapping (so
 * timestamps become Dates exactly as they do in a select).
 */
function fromJson<T extends Table>(table: T, json: Record<string, unknown>): Row<T> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of columnsOf(table)) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as Row<T>;
}

type Json = Record<string, unknown>;

interface CheckoutRows {
  sale: Json | null;
  lines: [Json, Json, Json, Json, Json][] | null;
  vouchers: [Json, Json, Json][] | null;
  code: Json | null;
  user: Json | null;
  upcoming: [Json, string][] | null;
  charities: Json[] | null;
  postal_events: number;
  questions: Json[] | null;
  intros: Json[] | null;
  seats: SaleSeat[] | null;
  payment_settings: Json[] | null;
  plans: Json[] | null;
}

/**
 * Everything the checkout shows, in one round trip and one snapshot, so the lines, the sale and
 * its hold cannot disagree with each other. The statement lives in the database as
 * `checkout_snapshot` (migrations 0001 and 0018) so that its plan is prepared once per session,
 * and the call to it is a prepared statement, parsed once per connection: it is the call every
 * step repeats.
 */
async function readCheckoutRows(db: Pick<Database, 'execute'>, saleId: string, userId: number | null, now: Date): Promise<CheckoutRows> {
  const [result] = await preparedRows<{ snapshot: CheckoutRows }>(
    db,
    'checkout_snapshot',
    'SELECT checkout_snapshot($1, $2::int, $3::timestamptz) AS snapshot',
    [saleId, userId, now.toISOString()],
  );
  return result!.snapshot;
}

/**
 * When a payment has started and not finished (payment_started_at is cleared when it settles),
 * the time its sale's holds are kept until: the hold's deadline plus the payment grace. Null when
 * no payment is in progress or its holds have lapsed.
 */
export async function paymentKeptUntil(db: Pick<Database, 'execute'>, saleId: string, now: Date): Promise<Date | null> {
  const [row] = await rows<{ kept_until: string | Date | null }>(
    db,
    sql`SELECT max(h.deadline) AS kept_until
          FROM sale_payment_details d JOIN holds h ON h.sale_id = d.sale_id
         WHERE d.sale_id = ${saleId} AND d.payment_started_at IS NOT NULL AND h.deadline > ${now.toISOString()}::timestamptz`,
  );
  return row?.kept_until ? new Date(row.kept_until) : null;
}

/** Spec 001 truelayer_returned_from: 1 back from the bank, 0 cancelled there, null before any return. */
async function truelayerReturnedFrom(db: Pick<Database, 'select'>, saleId: string): Promise<0 | 1 | null> {
  const [row] = await db.select({ flag: salePaymentDetails.truelayerReturnedFrom }).from(salePaymentDetails).where(eq(salePaymentDetails.saleId, saleId));
  return row?.flag === 0 || row?.flag === 1 ? row.flag : null;
}

export async function buildCheckout(
  db: Pick<Database, 'execute' | 'select'>,
  saleId: string | null,
  now: Date,
  opts: { captchaSitekey: string | null; userId: number | null; maxPerOrder?: number },
): Promise<Checkout> {
  const base = emptyCheckout(opts.captchaSitekey);
  if (!saleId) return base;
  const found = await readCheckoutRows(db, saleId, opts.userId, now);
  if (!found.sale) return base;

  const sale = fromJson(sales, found.sale);
  const lines = (found.lines ?? []).map(([line, type, date, event, organiser]) => ({
    line: fromJson(saleLines, line),
    type: fromJson(ticketTypes, type),
    date: fromJson(eventDates, date),
    event: fromJson(events, event),
    organiser: fromJson(organisers, organiser),
  }));
  const vouchers = (found.vouchers ?? []).map(([line, voucher, organiser]) => ({
    line: fromJson(saleVouchers, line),
    voucher: fromJson(giftVouchers, voucher),
    organiser: fromJson(organisers, organiser),
  }));
  const code = found.code ? fromJson(discountCodes, found.code) : undefined;
  const user = found.user ? fromJson(users, found.user) : undefined;
  const upcoming = (found.upcoming ?? []).map(([event, startsAt]) => ({
    event: fromJson(events, event),
    startsAt: new Date(startsAt),
  }));

  const price = priceBasket({
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
    code: code ? { code: code.code, kind: code.kind, amount: code.amount, organiserId: code.organiserId, eventId: code.eventId } : null,
    refundProtection: sale.refundProtection,
  });

  const eventRows = uniqueBy(lines.map((l) => l.event), (e) => e.id);
  const organiserRows = uniqueBy(
    [...lines.map((l) => l.organiser), ...vouchers.map((v) => v.organiser)],
    (o) => o.id,
  );
  const charityId = organiserRows.find((o) => o.charityId !== null)?.charityId ?? null;
  const charityJson = charityId === null ? undefined : (found.charities ?? []).find((c) => c.id === charityId);
  const charity = charityJson ? fromJson(charities, charityJson) : undefined;

  // A paid sale's holds became sold stock: it stays on its step, with nothing left to run out.
  const paid = sale.paidAt !== null;
  const live = holdIsLive(sale, now);
  // A payment started in time keeps the sale on its step while its holds last (deadline plus the grace).
  const keptUntil = !paid && (sale.state === 'payment' || sale.state === 'awaiting_truelayer') ? await paymentKeptUntil(db, sale.id, now) : null;
  const paying = keptUntil !== null;
  const currency = sale.currency ?? lines[0]?.event.currency ?? vouchers[0]?.voucher.currency ?? 'GBP';
  const provider = organiserRows.find((o) => o.paymentProvider)?.paymentProvider ?? null;
  // A donation counts while the reservation it was given in holds (one more read, only with a charity).
  // The buyer's latest choice for each basket organiser, so Keep updated shows what they already agreed to.
  const subscribedTo =
    user && lines.length > 0 && sale.marketingSetAt === null && organiserRows.length > 0
      ? await organisersSubscribed(db, user, organiserRows.map((o) => o.id))
      : new Set<number>();
  const donation = charity && (live || paid) ? await findDonation(db, sale) : null;
  // Vouchers are posted anyway; otherwise the basket's events that post their tickets decide.
  const postalEvents = vouchers.length === 0 ? Number(found.postal_events ?? 0) : 0;
  const questions = checkoutQuestions(
    (found.questions ?? []).map((q) => fromJson(ticketQuestions, q)),
    (found.intros ?? []).map((i) => fromJson(questionIntros, i)),
    eventRows,
  );
  const seatsByType = seatsByTypeOf(found.seats ?? []);

  const basketTotal = price.basketTotal + (donation ? donation.amount + donation.fee : 0);
  return {
    ...base,
    state: live || paid || paying ? (sale.state as Step) : 'basket',
    after_sale_messages: paid ? afterSaleMessages(lines) : [],
    sale_reference: live || paid || paying ? sale.reference : null,
    seconds_remaining: live ? secondsRemaining(sale, now) : 0,
    payment_in_progress: paying,
    payment_seconds_remaining: keptUntil ? Math.max(1, Math.ceil((keptUntil.getTime() - now.getTime()) / 1000)) : 0,
    tickets: lines.map(({ line, type, date, event, organiser }) => ({
      ticket_id: type.id,
      event_id: event.id,
      date_id: date.id,
      qty: line.qty,
      // The effective maximum, so the basket warns and caps exactly where the server does.
      max_can_reserve: effectiveMaxPerOrder(type.maxCanReserve, event.maxPerOrder, opts.maxPerOrder),
      min_per_customer: type.minPerCustomer,
      // A seated line's quantity is its seats: it changes by choosing seats again.
      can_update_quantity: type.canUpdateQuantity && !seatsByType.has(type.id),
      price: price.lines.get(type.id)?.unitPrice ?? type.price,
      booking_fee: type.bookingFee,
      discount_amount: price.lines.get(type.id)?.discountAmount ?? 0,
      absorb_fee: type.absorbFee,
      event_hide_booking_fee: event.hideBookingFee,
      non_refundable: type.nonRefundable,
      refund_policy: organiser.customRefundPolicy
        ? { title: 'Refund policy', description: `${organiser.name}’s own refund policy`, text: organiser.customRefundPolicy }
        : STANDARD_REFUND_POLICY,
      required_tickets: type.requiredTickets,
      seats: seatsByType.get(type.id) ?? [],
      event_name: event.title,
      event_url: `/event/${event.id}/`,
      organiser_url: `/organiser/${organiser.id}/`,
      ticket_name: type.name,
      nice_date: formatNiceDate(date.startsAt),
      thumbnail: event.thumbnail,
    })),
    gift_vouchers: vouchers.map(({ line, voucher, organiser }) => ({
      id: voucher.id,
      name: voucher.name,
      qty: line.qty,
      value: line.value,
      o_name: organiser.name,
      o_url: `/organiser/${organiser.id}/`,
      uk_expiry_date: formatUkDate(addMonths(now, voucher.validityMonths, { in: ukCalendar })),
      thumbnail: voucher.thumbnail,
    })),
    events: eventRows.map((e) => ({
      id: e.id,
      title: e.title,
      refund_protection: e.refundProtection,
      warn_customers_about_different_timeslots_message: e.timeslotWarning,
      ga: null,
      ga_conversion_id: null,
      fb_pixel: null,
      venue: { full_address: `${e.venueName}, ${e.venueAddress}`, map_address: e.venueAddress, map_checkin: checkInDate(lines, e.id) },
      has_livestream: e.accessOnline !== null,
      access_online: e.accessOnline,
      reward_referrers: e.rewardText !== null && e.rewardShortText !== null ? { text: e.rewardText, short_text: e.rewardShortText } : null,
      shareable_link: `/event/${e.id}/`,
      questions_intro: questions.introOf(e.id),
    })),
    organisers: organiserRows.map((o) => ({
      id: o.id,
      name: o.name,
      full_url: `/organiser/${o.id}/`,
      has_custom_refund_policy: o.customRefundPolicy !== null,
      is_saas: o.isSaas,
      upcoming_events: upcoming
        .filter((u) => u.event.organiserId === o.id)
        .slice(0, 4)
        .map((u) => ({
          url: `/event/${u.event.id}/`,
          title: u.event.title,
          location: `${u.event.venueName}, ${u.event.city}`,
          date: formatNiceDate(u.startsAt),
          thumbnail: u.event.thumbnail,
        })),
    })),
    currency: { symbol: currencySymbol(currency), code: currency },
    basket_total: basketTotal,
    discounts_applied: price.discountsApplied,
    offers_applied_total: price.offersTotal,
    refund_protection: sale.refundProtection ? 1 : 0,
    has_refund_protection: eventRows.some((e) => e.refundProtection),
    refund_protection_cost: price.refundProtectionCost,
    basket_errors: sale.basketErrors,
    basket_success: sale.basketSuccess,
    reserving_error: sale.reservingError,
    had_mismatching_currencies: sale.hadMismatchingCurrencies,
    all_booking_fees_are_absorbed: price.allBookingFeesAbsorbed,
    charity: charity
      ? {
          id: charity.id,
          name: charity.name,
          logo: charity.logo,
          description_html: charity.descriptionHtml,
          donation_checkout_title: charity.donationCheckoutTitle,
          donation_options: charity.donationOptions,
          base_fee: charity.baseFee,
          booking_fee: charity.bookingFeeBp / 100,
          booking_fee_includes_vat: charity.bookingFeeIncludesVat,
          booking_fee_vat: charity.bookingFeeVatBp / 100,
          booking_fee_cap: charity.bookingFeeCap,
        }
      : null,
    donation: donation ? { amount_before_booking_fee: donation.amount, booking_fee: donation.fee, is_gift_aid: donation.isGiftAid } : null,
    donation_amount: donation?.amount ?? 0,
    is_gift_aid: donation?.isGiftAid ?? false,
    edit_basket_clicked: sale.editBasketClicked,
    marketing_preferences:
      lines.length > 0 && sale.marketingSetAt === null
        ? {
            ct_subscribed: user?.subscribed ?? false,
            event_subscribed: user?.isEventSubscribed ?? false,
            basket_organisers: organiserRows.map((o) => ({
              id: o.id,
              organiser_subscribed: subscribedTo.has(o.id),
              marketing_signup_message: o.marketingSignupMessage,
            })),
          }
        : null,
    sagepay_or_stripe: provider,
    before_payment_questions: questions.before,
    after_payment_questions: questions.after,
    require_delivery_address: needsDeliveryAddress(vouchers.length, postalEvents),
    opoa: provider ? { provider, merchant_id: null, overridden: false } : null,
    payment_complete: paid,
    truelayer_returned_from: sale.state === 'awaiting_truelayer' ? await truelayerReturnedFrom(db, sale.id) : null,
    ...paymentSettingsOf((found.payment_settings ?? []).map((r) => fromJson(organiserPaymentSettings, r)), organiserRows.length, opts.userId),
    ...(await planFieldsOf(db, sale.id, (found.plans ?? []).map((r) => fromJson(eventPaymentPlans, r)), { eventIds: eventRows.map((e) => e.id), total: basketTotal, currency, now, paid })),
  };
}

/**
 * The sale's payment plan: what it still owes once set up (one more read, only for a paid sale);
 * before payment, the plans its events offer (`plans`, read with the checkout) with their
 * schedules for this total.
 */
async function planFieldsOf(
  db: Pick<Database, 'execute' | 'select'>,
  saleId: string,
  plans: (typeof eventPaymentPlans.$inferSelect)[],
  p: { eventIds: number[]; total: number; currency: string; now: Date; paid: boolean },
): Promise<Pick<Checkout, 'payment_plan_remaining' | 'payment_plan_schedule_options'>> {
  if (p.paid) return { payment_plan_remaining: await planRemaining(db, saleId), payment_plan_schedule_options: {} };
  return { payment_plan_remaining: null, payment_plan_schedule_options: planScheduleOptions(plans, p) };
}

/**
 * The organisers' payment settings as the checkout shows them: a contact number when any organiser
 * asks for one; express when no one is signed in and every organiser offers express checkout.
 */
function paymentSettingsOf(
  settings: (typeof organiserPaymentSettings.$inferSelect)[],
  organiserCount: number,
  userId: number | null,
): Pick<Checkout, 'has_require_phone_number' | 'express'> {
  if (organiserCount === 0) return { has_require_phone_number: false, express: false };
  return {
    has_require_phone_number: settings.some((s) => s.requirePhoneNumber),
    express: userId === null && settings.filter((s) => s.expressCheckout).length === organiserCount,
  };
}

const ukDate = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The accommodation map's check-in: the day (YYYY-MM-DD, UK time) of the event's first date in the basket. */
function checkInDate(lines: { event: { id: number }; date: { startsAt: Date } }[], eventId: number): string {
  const first = Math.min(...lines.filter((l) => l.event.id === eventId).map((l) => l.date.startsAt.getTime()));
  return Number.isFinite(first) ? ukDate.format(new Date(first)) : '';
}

function uniqueBy<T>(items: T[], key: (item: T) => number): T[] {
  const seen = new Map<number, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/** The organisers whose marketing the user last said yes to (their latest consent per organiser). */
async function organisersSubscribed(db: Pick<Database, 'execute'>, user: { id: number; email: string }, organiserIds: number[]): Promise<Set<number>> {
  const latest = await rows<{ organiser_id: number; subscribed: boolean }>(
    db,
    sql`SELECT DISTINCT ON (organiser_id) organiser_id, subscribed FROM marketing_consents
        WHERE topic = 'organiser' AND (user_id = ${user.id} OR email = ${user.email})
          AND organiser_id IN (${sql.join(organiserIds.map((id) => sql`${id}`), sql`, `)})
        ORDER BY organiser_id, at DESC, id DESC`,
  );
  return new Set(latest.filter((r) => r.subscribed).map((r) => Number(r.organiser_id)));
}

/**
 * The organisers' messages to a paid order's buyers (spec 001 "After sale messages"): one for each
 * event date of the order whose event has a message, with the date and time it starts.
 */
function afterSaleMessages(lines: { event: { id: number; title: string; afterSaleMessage: string | null }; date: { id: number; startsAt: Date }; organiser: { name: string } }[]) {
  const seen = new Set<number>();
  return lines.flatMap(({ event, date, organiser }) => {
    if (event.afterSaleMessage === null || seen.has(date.id)) return [];
    seen.add(date.id);
    return [{ organiser_name: organiser.name, event_title: event.title, ...formatEventDayAndTime(date.startsAt), message: event.afterSaleMessage }];
  });
}
