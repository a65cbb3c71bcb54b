/**
 * The next-step rules of the checkout (spec 000 §4 "Step order", spec 001 §4 "Next-step rules"),
 * as one pure function of the step being left and the checkout the server just returned.
 */
import type { Checkout, Step } from './checkout.types';

/** After the buyer is known: marketing preferences, then the address, then the early questions. */
function afterLogin(checkout: Checkout): Step {
  return checkout.marketing_preferences !== null ? 'marketing_preferences' : afterMarketing(checkout);
}

function afterMarketing(checkout: Checkout): Step {
  return checkout.require_delivery_address ? 'delivery_address' : afterAddress(checkout);
}

function afterAddress(checkout: Checkout): Step {
  return checkout.before_payment_questions.length > 0 ? 'ticket_questions_before' : 'payment';
}

function afterDelivery(checkout: Checkout): Step {
  return checkout.after_payment_questions.length > 0 ? 'ticket_questions_after' : afterQuestions(checkout);
}

function afterQuestions(checkout: Checkout): Step {
  return checkout.has_waivers ? 'waiver' : afterWaiver(checkout);
}

function afterWaiver(checkout: Checkout): Step {
  return checkout.after_sale_messages.length > 0 ? 'after_sale_messages' : 'order_completed';
}

export function nextStep(from: Step, checkout: Checkout): Step {
  switch (from) {
    case 'determining':
      // The server remembers where the buyer was; an unknown position starts at the basket.
      return checkout.state === 'determining' ? 'basket' : checkout.state;
    case 'basket':
      return 'reserve';
    case 'captcha':
    case 'reserve':
      if (checkout.charity !== null) return 'donation';
      return checkout.express ? 'payment' : 'login';
    case 'donation':
      return checkout.donation_amount > 0 ? 'gift_aid' : 'login';
    case 'gift_aid':
      return 'login';
    case 'login':
      return afterLogin(checkout);
    case 'marketing_preferences':
      return afterMarketing(checkout);
    case 'delivery_address':
      return afterAddress(checkout);
    case 'ticket_questions_before':
      return 'payment';
    case 'payment':
    case 'awaiting_truelayer':
      return 'deliver_tickets';
    case 'deliver_tickets':
      return afterDelivery(checkout);
    case 'ticket_questions_after':
      return afterQuestions(checkout);
    case 'waiver':
      return afterWaiver(checkout);
    case 'after_sale_messages':
    case 'order_completed':
      return 'order_completed';
  }
}

/**
 * Every step a rule can lead to from each step the buyer completes with STEP_COMPLETED. The
 * root machine draws one guarded edge per entry, so the chart shows each rule; a unit test
 * proves `nextStep` never leaves these lists.
 */
export const NEXT_STEP_TARGETS = {
  login: ['marketing_preferences', 'delivery_address', 'ticket_questions_before', 'payment'],
  marketing_preferences: ['delivery_address', 'ticket_questions_before', 'payment'],
  donation: ['gift_aid', 'login'],
  gift_aid: ['login'],
  delivery_address: ['ticket_questions_before', 'payment'],
  ticket_questions_before: ['payment'],
  payment: ['deliver_tickets'],
  awaiting_truelayer: ['deliver_tickets'],
  deliver_tickets: ['ticket_questions_after', 'waiver', 'after_sale_messages', 'order_completed'],
  ticket_questions_after: ['waiver', 'after_sale_messages', 'order_completed'],
  waiver: ['after_sale_messages', 'order_completed'],
  after_sale_messages: ['order_completed'],
} as const satisfies Partial<Record<Step, readonly Step[]>>;

export type AdvancingStep = keyof typeof NEXT_STEP_TARGETS;

/** Where a reservation (from the reserve or captcha step) can lead. */
export const AFTER_RESERVATION = ['donation', 'payment', 'login'] as const satisfies readonly Step[];
