/**
 * The checkout's steps, in the specification's order. Plain values with no schema library, so the
 * entry script can name steps without loading the wire contract's schemas.
 */
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
