/** The checkout object: what the server says about a buyer's sale, and the calls that read and move it. */
import { z } from 'zod/mini';
import { call, done, empty, id, money, nullableString, stepSchema } from './primitives.ts';

export const currencySchema = z.object({ symbol: z.string(), code: z.string().check(z.length(3)) });

export const seatSchema = z.object({
  section: z.string(),
  row: z.string(),
  number: z.string(),
  hold_token: z.optional(z.string()),
});

export const requiredTicketGroupSchema = z.object({ ids: z.array(id), title: z.string() });

export const ticketLineSchema = z.object({
  ticket_id: id,
  event_id: id,
  date_id: id,
  qty: id,
  /** 0 means no limit. */
  max_can_reserve: id,
  min_per_customer: id,
  can_update_quantity: z.boolean(),
  price: money,
  booking_fee: money,
  discount_amount: money,
  absorb_fee: z.boolean(),
  event_hide_booking_fee: z.boolean(),
  non_refundable: z.boolean(),
  refund_policy: z.object({ text: z.string(), title: z.string(), description: z.string() }),
  required_tickets: z.array(requiredTicketGroupSchema),
  seats: z.array(seatSchema),
  event_name: z.string(),
  event_url: z.string(),
  organiser_url: z.string(),
  ticket_name: z.string(),
  nice_date: z.string(),
  thumbnail: z.string(),
});
export type TicketLine = z.infer<typeof ticketLineSchema>;

export const giftVoucherLineSchema = z.object({
  id: id,
  name: z.string(),
  qty: id,
  value: money,
  o_name: z.string(),
  o_url: z.string(),
  uk_expiry_date: z.string(),
  thumbnail: z.string(),
});
export type GiftVoucherLine = z.infer<typeof giftVoucherLineSchema>;

export const eventSchema = z.object({
  id: id,
  title: z.string(),
  /** Whether refund protection can cover this event. */
  refund_protection: z.boolean(),
  warn_customers_about_different_timeslots_message: nullableString,
  ga: nullableString,
  ga_conversion_id: nullableString,
  fb_pixel: nullableString,
  venue: z.nullable(z.object({ full_address: z.string(), map_address: z.string(), map_checkin: z.string() })),
  has_livestream: z.boolean(),
  access_online: nullableString,
  reward_referrers: z.nullable(z.object({ text: z.string(), short_text: z.string() })),
  shareable_link: z.string(),
  /** The intro of the ticket questions' Basket step: the event's own, else its organiser's; null for the standard one. */
  questions_intro: nullableString,
});
export type CheckoutEvent = z.infer<typeof eventSchema>;

export const upcomingEventSchema = z.object({
  url: z.string(),
  title: z.string(),
  location: z.string(),
  date: z.string(),
  thumbnail: z.string(),
});

export const organiserSchema = z.object({
  id: id,
  name: z.string(),
  full_url: z.string(),
  has_custom_refund_policy: z.boolean(),
  is_saas: z.boolean(),
  upcoming_events: z.array(upcomingEventSchema),
});
export type Organiser = z.infer<typeof organiserSchema>;

export const charitySchema = z.object({
  id: id,
  name: z.string(),
  logo: z.string(),
  description_html: z.string(),
  donation_checkout_title: z.string(),
  /** Preset amounts in minor units. */
  donation_options: z.array(money),
  /** Minor units. */
  base_fee: money,
  /** Percent of the donation. */
  booking_fee: z.number(),
  booking_fee_includes_vat: z.boolean(),
  /** Percent of the fee. */
  booking_fee_vat: z.number(),
  /** Minor units; null when uncapped. */
  booking_fee_cap: z.nullable(money),
});
export type Charity = z.infer<typeof charitySchema>;

export const marketingPreferencesSchema = z.object({
  ct_subscribed: z.boolean(),
  event_subscribed: z.boolean(),
  basket_organisers: z.array(
    z.object({ id: id, organiser_subscribed: z.boolean(), marketing_signup_message: z.string() }),
  ),
});

export const questionSchema = z.object({
  id: id,
  ticket_id: id,
  question: z.string(),
  type: z.enum(['text', 'checkbox', 'dropdown']),
  mandatory: z.enum(['0', '1']),
  once_per_checkout: z.enum(['0', '1']),
  osq_id: z.nullable(id),
  prepopulated_array: z.array(z.string()),
});

export const afterSaleMessageSchema = z.object({
  organiser_name: z.string(),
  event_title: z.string(),
  date: z.string(),
  time: z.string(),
  message: z.string(),
});

export const paymentPlanOptionSchema = z.object({
  label: z.string(),
  schedule: z.array(z.object({ uk_due: z.string(), value: money })),
});

export const checkoutSchema = z.object({
  state: stepSchema,
  sale_reference: nullableString,
  seconds_remaining: z.number().check(z.int(), z.minimum(0)),
  /** A payment was started in time and has not finished: the hold is kept up to the payment grace. */
  payment_in_progress: z.boolean(),
  /** Seconds until the hold kept for a payment in progress ends (its deadline plus the grace); 0 otherwise. */
  payment_seconds_remaining: z.number().check(z.int(), z.minimum(0)),
  captcha_sitekey: nullableString,
  tickets: z.array(ticketLineSchema),
  gift_vouchers: z.array(giftVoucherLineSchema),
  events: z.array(eventSchema),
  organisers: z.array(organiserSchema),
  currency: currencySchema,
  basket_total: money,
  delivery_cost: money,
  /** Code to amount taken off, minor units. */
  discounts_applied: z.record(z.string(), money),
  offers_applied_total: money,
  gift_vouchers_applied_total: money,
  refund_protection: z.union([z.literal(0), z.literal(1)]),
  has_refund_protection: z.boolean(),
  refund_protection_cost: money,
  basket_errors: z.array(z.string()),
  basket_success: z.array(z.string()),
  reserving_error: nullableString,
  had_mismatching_currencies: z.boolean(),
  all_booking_fees_are_absorbed: z.boolean(),
  express: z.boolean(),
  donation: z.nullable(z.object({ amount_before_booking_fee: money, booking_fee: money, is_gift_aid: z.boolean() })),
  donation_amount: money,
  charity: z.nullable(charitySchema),
  is_gift_aid: z.boolean(),
  edit_basket_clicked: z.boolean(),
  ga_ua_properties: z.array(z.string()),
  /** Null when there is nothing left to ask. */
  marketing_preferences: z.nullable(marketingPreferencesSchema),
  require_delivery_address: z.boolean(),
  before_payment_questions: z.array(questionSchema),
  after_payment_questions: z.array(questionSchema),
  has_waivers: z.boolean(),
  after_sale_messages: z.array(afterSaleMessageSchema),
  payment_complete: z.boolean(),
  payment_plan_remaining: z.nullable(money),
  opoa: z.nullable(z.object({ provider: z.string(), merchant_id: nullableString, overridden: z.boolean() })),
  sagepay_or_stripe: nullableString,
  payment_plan_schedule_options: z.record(z.string(), paymentPlanOptionSchema),
  has_require_phone_number: z.boolean(),
  truelayer_returned_from: z.nullable(z.union([z.literal(0), z.literal(1)])),
  init_guest_email: nullableString,
});
export type Checkout = z.infer<typeof checkoutSchema>;

export const checkoutCalls = {
  getCheckout: call({
    method: 'GET',
    path: '/ajax/checkout/checkout/get/',
    encoding: 'none',
    request: empty,
    response: checkoutSchema,
  }),
  updateBasketState: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/update_basket_state/',
    encoding: 'form',
    request: z.object({ state: stepSchema }),
    response: z.object({ seconds_remaining: z.number().check(z.int(), z.minimum(0)) }),
  }),
  destroySale: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/destroy_sale/',
    encoding: 'form',
    request: empty,
    response: done,
  }),
} as const;
