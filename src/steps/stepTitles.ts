import { STEPS, type Step } from '../../contract/steps';

/** The steps after the reservation, each still a plain screen with a heading and 'Continue'. */
export type LaterStep = Exclude<Step, 'determining' | 'basket' | 'captcha' | 'reserve'>;

export const LATER_STEP_TITLES: Record<LaterStep, string> = {
  login: 'Sign in',
  marketing_preferences: 'Keep updated',
  donation: 'Donation',
  gift_aid: 'Gift Aid',
  delivery_address: 'Delivery address',
  ticket_questions_before: 'Ticket questions',
  payment: 'Payment',
  deliver_tickets: 'Delivering tickets',
  awaiting_truelayer: 'Waiting for your bank',
  ticket_questions_after: 'Ticket questions',
  after_sale_messages: 'Messages from the organiser',
  waiver: 'Activity terms and conditions',
  order_completed: 'Order complete',
};

/** Until payment is taken the buyer may still go back and change the basket. */
const EDITABLE_STEPS: ReadonlySet<Step> = new Set(STEPS.slice(STEPS.indexOf('login'), STEPS.indexOf('payment') + 1));

export function canEditBasketOn(step: LaterStep): boolean {
  return EDITABLE_STEPS.has(step);
}
