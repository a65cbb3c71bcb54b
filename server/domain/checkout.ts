/**
 * The checkout object of spec 000 §3, built from the database on every read: every field
 * present and typed, even for a visitor without a sale. One read (the snapshot) and a few more
 * only where the sale's state asks for them; everything else maps those rows to the wire shape.
 */
import type { Checkout } from '../../contract/index.ts';
import { emptyCheckout } from '../../contract/emptyCheckout.ts';
import type { Database } from '../db/index.ts';
import { needsDeliveryAddress } from './address.ts';
import { checkoutQuestions } from './questions.ts';
import { seatsByType } from './seats.ts';
import { basketOf } from './checkout/basket.ts';
import { checkoutCharity, donationFields } from './checkout/charity.ts';
import { checkoutEvents } from './checkout/events.ts';
import { afterSaleMessages, giftVoucherLines, ticketLines } from './checkout/lines.ts';
import { checkoutOrganisers, marketingPreferences } from './checkout/organisers.ts';
import { planFieldsOf, paymentSettingsOf, providerFields } from './checkout/payment.ts';
import { readFollowUps } from './checkout/reads.ts';
import { readCheckoutSnapshot, type CheckoutSnapshot } from './checkout/snapshot.ts';
import { basketMessages, stepFields } from './checkout/step.ts';
import { hasWaivers } from './waivers.ts';
import { basketTotal, totalsFields } from './checkout/totals.ts';

export { STANDARD_REFUND_POLICY } from './checkout/lines.ts';
export { paymentKeptUntil } from './checkout/reads.ts';

export async function buildCheckout(
  db: Pick<Database, 'execute' | 'select' | 'selectDistinctOn'>,
  saleId: string | null,
  now: Date,
  opts: { captchaSitekey: string | null; userId: number | null; maxPerOrder?: number },
): Promise<Checkout> {
  const base = emptyCheckout(opts.captchaSitekey);
  if (!saleId) return base;
  const snapshot = await readCheckoutSnapshot(db, saleId, opts.userId, now);
  if (!snapshot) return base;
  const basket = basketOf(snapshot);
  const followUps = await readFollowUps(db, snapshot, basket, now);

  const { sale, lines, vouchers } = snapshot;
  const paid = sale.paidAt !== null;
  const total = basketTotal(basket.price, followUps.donation);
  const questions = checkoutQuestions(snapshot.questions, snapshot.intros, basket.events);
  return {
    ...base,
    ...stepFields(sale, followUps.keptUntil, now),
    ...basketMessages(sale),
    after_sale_messages: paid ? afterSaleMessages(lines) : [],
    tickets: ticketLines(lines, {
      price: basket.price,
      seatsByType: seatsByType(snapshot.seats),
      maxPerOrder: opts.maxPerOrder,
    }),
    gift_vouchers: giftVoucherLines(vouchers, now),
    events: checkoutEvents(basket.events, lines, questions.introOf),
    organisers: checkoutOrganisers(basket.organisers, snapshot.upcoming),
    ga_ua_properties: [...new Set(basket.organisers.flatMap((o) => o.gaUaProperties ?? []))],
    ...totalsFields(sale, { price: basket.price, total, currency: basket.currency, events: basket.events }),
    charity: checkoutCharity(basket.charity),
    ...donationFields(followUps.donation),
    marketing_preferences: marketingPreferences(snapshot, basket.organisers, followUps.subscribedTo),
    before_payment_questions: questions.before,
    after_payment_questions: questions.after,
    has_waivers: hasWaivers(basket.events),
    require_delivery_address: requiresDeliveryAddress(snapshot),
    ...providerFields(basket.paymentAccount),
    // The e-mail this sale already knows for a buyer no one has signed in as (the express details
    // given before, or an address proven with its code here), which the express form starts from.
    init_guest_email: sale.userId === null ? (sale.buyerEmail ?? sale.verifiedEmail ?? null) : null,
    truelayer_returned_from: followUps.truelayerReturnedFrom,
    ...paymentSettingsOf(snapshot.paymentSettings, basket.organisers.length, opts.userId),
    ...planFieldsOf(snapshot.plans, followUps.planRemaining, {
      eventIds: basket.events.map((e) => e.id),
      total,
      currency: basket.currency,
      now,
      paid,
    }),
  };
}

/** Vouchers are posted anyway; otherwise the basket's events that post their tickets decide. */
function requiresDeliveryAddress({
  vouchers,
  postalEvents,
}: Pick<CheckoutSnapshot, 'vouchers' | 'postalEvents'>): boolean {
  return needsDeliveryAddress(vouchers.length, vouchers.length === 0 ? postalEvents : 0);
}
