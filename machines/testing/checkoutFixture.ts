/** A complete checkout object as the server sends it, for tests to adjust field by field. */
import type { Checkout } from '../checkout/checkout.types';
import type { TicketLine } from '../../src/api/contract';

export function makeCheckout(overrides: Partial<Checkout> = {}): Checkout {
  return {
    state: 'basket',
    sale_reference: null,
    seconds_remaining: 600,
    captcha_sitekey: null,
    tickets: [],
    gift_vouchers: [],
    events: [],
    organisers: [],
    currency: { symbol: '£', code: 'GBP' },
    basket_total: 0,
    delivery_cost: 0,
    discounts_applied: {},
    offers_applied_total: 0,
    gift_vouchers_applied_total: 0,
    refund_protection: 0,
    has_refund_protection: false,
    refund_protection_cost: 0,
    basket_errors: [],
    basket_success: [],
    reserving_error: null,
    had_mismatching_currencies: false,
    all_booking_fees_are_absorbed: false,
    express: false,
    donation: null,
    donation_amount: 0,
    charity: null,
    is_gift_aid: false,
    edit_basket_clicked: false,
    ga_ua_properties: [],
    marketing_preferences: null,
    require_delivery_address: false,
    before_payment_questions: [],
    after_payment_questions: [],
    has_waivers: false,
    after_sale_messages: [],
    payment_complete: false,
    payment_plan_remaining: null,
    opoa: null,
    sagepay_or_stripe: null,
    payment_plan_schedule_options: {},
    has_require_phone_number: false,
    truelayer_returned_from: null,
    init_guest_email: null,
    ...overrides,
  };
}

export function makeTicketLine(overrides: Partial<TicketLine> = {}): TicketLine {
  return {
    ticket_id: 1,
    event_id: 1,
    date_id: 1,
    qty: 1,
    max_can_reserve: 0,
    min_per_customer: 1,
    can_update_quantity: true,
    price: 1000,
    booking_fee: 100,
    discount_amount: 0,
    absorb_fee: false,
    event_hide_booking_fee: false,
    non_refundable: false,
    refund_policy: { text: '', title: '', description: '' },
    required_tickets: [],
    seats: [],
    event_name: 'Harbour Lights',
    event_url: '/events/harbour-lights/',
    organiser_url: '/organisers/holdfast-live/',
    ticket_name: 'General admission',
    nice_date: 'Sat 6 June 2026',
    thumbnail: '',
    ...overrides,
  };
}

export const charity: NonNullable<Checkout['charity']> = {
  id: 1,
  name: 'Harbour Trust',
  logo: '',
  description_html: '',
  donation_checkout_title: 'Support the Harbour Trust',
  donation_options: [500, 1000],
  base_fee: 20,
  booking_fee: 2,
  booking_fee_includes_vat: false,
  booking_fee_vat: 0,
  booking_fee_cap: null,
};

export const pendingMarketing: NonNullable<Checkout['marketing_preferences']> = {
  ct_subscribed: false,
  event_subscribed: false,
  basket_organisers: [],
};

export const question: Checkout['before_payment_questions'][number] = {
  id: 1,
  ticket_id: 1,
  question: 'Dietary needs?',
  type: 'text',
  mandatory: '0',
  once_per_checkout: '0',
  osq_id: null,
  prepopulated_array: [],
};

export const afterSaleMessage: Checkout['after_sale_messages'][number] = {
  organiser_name: 'Holdfast Live',
  event_title: 'Harbour Lights',
  date: '6 June 2026',
  time: '7:00pm',
  message: 'Doors open at 6.',
};
