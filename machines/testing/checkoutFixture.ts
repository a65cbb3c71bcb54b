/** A complete checkout object as the server sends it, for tests to adjust field by field. */
import type { Checkout } from '../../contract';
import type { TicketLine } from '../../contract';
import { emptyCheckout } from '../../contract/emptyCheckout';

export function makeCheckout(overrides: Partial<Checkout> = {}): Checkout {
  return {
    ...emptyCheckout(null),
    seconds_remaining: 600,
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
