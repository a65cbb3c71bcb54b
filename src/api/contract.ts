/**
 * The wire contract: one schema per call, shared by the browser client (which parses every
 * response with it) and the server (which validates every request with it).
 *
 * Paths, methods and field names are the specification's. Money is integer minor units
 * (pence, cents) everywhere on our wire; the browser formats it through one Intl formatter.
 * Form bodies are application/x-www-form-urlencoded with nested keys in bracket notation
 * (`ticket[12|34|56|0][qty]=2`), so every scalar arrives as a string: request schemas coerce.
 */
import { z } from 'zod/mini';

export const STEPS = [
  'determining',
  'basket',
  'captcha',
  'reserve',
  'login',
  'marketing_preferences',
  'donation',
  'gift_aid',
  'delivery_address',
  'ticket_questions_before',
  'payment',
  'deliver_tickets',
  'awaiting_truelayer',
  'ticket_questions_after',
  'after_sale_messages',
  'waiver',
  'order_completed',
] as const;
export type Step = (typeof STEPS)[number];
export const stepSchema = z.enum(STEPS);

/** The site key the server hands out when the self-hosted proof-of-work captcha is in use. */
export const LOCAL_CAPTCHA_SITEKEY = 'local-altcha';

/* ---------- building blocks ---------- */

const MAX_ID = 2_147_483_647;
const MAX_QTY = 1000;
const MAX_MONEY = 100_000_000; // one million in major units

/** A database id sent in a form field. */
export const formId = z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_ID));
/** A ticket or voucher quantity sent in a form field. The spec's quantity input has a minimum of 1. */
export const formQty = z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_QTY));
/** An amount of money in minor units sent in a form field. */
export const formMoney = z.coerce.number().check(z.int(), z.minimum(0), z.maximum(MAX_MONEY));
/** A boolean sent in a form field: true/false, 1/0, yes/no, on/off. */
export const formBool = z.stringbool();

const id = z.number().check(z.int());
const money = z.number().check(z.int());
const nullableString = z.nullable(z.string());

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
  venue: z.nullable(
    z.object({ full_address: z.string(), map_address: z.string(), map_checkin: z.string() }),
  ),
  has_livestream: z.boolean(),
  access_online: nullableString,
  reward_referrers: z.nullable(z.object({ text: z.string(), short_text: z.string() })),
  shareable_link: z.string(),
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
  donation: z.nullable(
    z.object({ amount_before_booking_fee: money, booking_fee: money, is_gift_aid: z.boolean() }),
  ),
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
  opoa: z.nullable(
    z.object({ provider: z.string(), merchant_id: nullableString, overridden: z.boolean() }),
  ),
  sagepay_or_stripe: nullableString,
  payment_plan_schedule_options: z.record(z.string(), paymentPlanOptionSchema),
  has_require_phone_number: z.boolean(),
  truelayer_returned_from: z.nullable(z.union([z.literal(0), z.literal(1)])),
  init_guest_email: nullableString,
});
export type Checkout = z.infer<typeof checkoutSchema>;

export const userSchema = z.object({
  id: id,
  email: z.string(),
  is_dark_mode: z.boolean(),
  subscribed: z.boolean(),
  is_event_subscribed: z.boolean(),
  full_name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** 'organiser' is the default view type. */
  view_type: z.enum(['organiser', 'customer']),
});
export type User = z.infer<typeof userSchema>;

/** Every 4xx and 5xx reply carries a message a person can read. */
export const errorReplySchema = z.object({ error: z.string() });
export type ErrorReply = z.infer<typeof errorReplySchema>;

const done = z.object({ success: z.literal(true) });
const empty = z.object({});

/* ---------- the calls ---------- */

export type Encoding = 'none' | 'form' | 'json';

export interface Call<Req extends z.ZodMiniType = z.ZodMiniType, Res extends z.ZodMiniType = z.ZodMiniType> {
  method: 'GET' | 'POST';
  path: string;
  /** How the request travels: a GET's query, or a POST's form-urlencoded or JSON body. */
  encoding: Encoding;
  request: Req;
  response: Res;
}

function call<Req extends z.ZodMiniType, Res extends z.ZodMiniType>(c: Call<Req, Res>): Call<Req, Res> {
  return c;
}

const addLineSchema = z.object({
  /** Ticket type id. */
  ticket: formId,
  vz_id: z.optional(z.string().check(z.maxLength(64))),
  has_offer: z.optional(formBool),
  qty: formQty,
  seats: z.optional(
    z
      .array(
        z.object({
          section: z.string().check(z.maxLength(32)),
          row: z.string().check(z.maxLength(32)),
          number: z.string().check(z.maxLength(32)),
          hold_token: z.optional(z.string().check(z.maxLength(128))),
        }),
      )
      .check(z.maxLength(100)),
  ),
});

const addGiftVoucherSchema = z.object({ id: formId, qty: formQty, value: formMoney });

const lineKey = z.string().check(z.maxLength(64));
const MAX_LINES = 50;
const fewLines = z.refine<Record<string, unknown>>((lines) => Object.keys(lines).length <= MAX_LINES, {
  message: `At most ${MAX_LINES} lines can be added at once`,
});

export const calls = {
  getUser: call({
    method: 'GET',
    path: '/ajax/user/user/get_user/',
    encoding: 'none',
    request: empty,
    response: z.object({ user: z.nullable(userSchema) }),
  }),
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
  updateTicketQuantity: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/update_ticket_quantity/',
    encoding: 'form',
    request: z.object({ ticket_id: formId, quantity: formQty }),
    response: done,
  }),
  updateGiftVoucherQuantity: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/update_gift_voucher_quantity/',
    encoding: 'form',
    request: z.object({ gift_voucher_id: formId, qty: formQty, value: formMoney }),
    response: done,
  }),
  updateRefundProtection: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/update_refund_protection/',
    encoding: 'form',
    request: z.object({ refund_protection: formBool }),
    response: done,
  }),
  setCode: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/set_code/',
    encoding: 'form',
    request: z.object({ code: z.string().check(z.minLength(1), z.maxLength(64)) }),
    response: z.object({ code_applied: z.boolean() }),
  }),
  removeFromBasket: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/remove_from_basket/',
    encoding: 'form',
    request: z.object({ ticket_id: formId }),
    response: done,
  }),
  removeGiftVoucherFromBasket: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/remove_gift_voucher_from_basket/',
    encoding: 'form',
    request: z.object({ gift_voucher_id: formId, value: formMoney }),
    response: done,
  }),
  reserveTickets: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/reserve_tickets/',
    encoding: 'form',
    request: z.object({ 'h-captcha-response': z.optional(z.string().check(z.maxLength(20_000))) }),
    response: z.object({
      reserved: z.boolean(),
      sale_reference: z.optional(z.string()),
      fresh_reservation: z.optional(z.boolean()),
      checkout_time: z.optional(z.number().check(z.int())),
      captcha: z.optional(z.boolean()),
      captcha_sitekey: z.optional(z.string()),
      redirect: z.optional(z.string()),
      error: z.optional(z.string()),
    }),
  }),
  /**
   * The local captcha's proof-of-work challenge (ALTCHA). Used only when `captcha_sitekey` is
   * LOCAL_CAPTCHA_SITEKEY; with hCaptcha configured the widget talks to hCaptcha instead.
   */
  getCaptchaChallenge: call({
    method: 'GET',
    path: '/ajax/checkout/captcha/challenge/',
    encoding: 'none',
    request: empty,
    response: z.looseObject({ algorithm: z.string(), challenge: z.string(), salt: z.string(), signature: z.string() }),
  }),
  addToBasket: call({
    method: 'POST',
    path: '/do/checkout/add/',
    encoding: 'form',
    request: z.object({
      parent_event_id: z.optional(z.union([z.literal(''), z.literal('null'), formId])),
      /** Keyed `eventId|eventDateId|ticketType|0`. */
      ticket: z.optional(z.record(lineKey, addLineSchema).check(fewLines)),
      /** Gift vouchers are products too, keyed by voucher id. */
      gift_voucher: z.optional(z.record(lineKey, addGiftVoucherSchema).check(fewLines)),
    }),
    response: z.object({ success: z.literal(true), redirect: z.string() }),
  }),
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type RequestOf<N extends CallName> = z.input<Calls[N]['request']>;
export type ParsedRequestOf<N extends CallName> = z.output<Calls[N]['request']>;
export type ResponseOf<N extends CallName> = z.output<Calls[N]['response']>;
