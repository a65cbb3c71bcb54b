/**
 * The checkout's steps as the specification names them, in the order a buyer meets them (spec 000
 * §4 "Step order", spec 001 §4 "Next-step rules"), a step that takes another's place right after
 * it: what the tests hold the step table (`steps.ts`) and the root chart to. The product reads the
 * table, never this list. A row of the table not named here is a step of the product's own: the
 * tests place it by its row (its flags, and when it applies), and pass through it when they follow
 * the specification's rules.
 */
import type { Step } from './steps.ts';

export const SPEC_STEPS = [
  'determining',
  'basket',
  'reserve',
  'captcha',
  'donation',
  'gift_aid',
  'login',
  'marketing_preferences',
  'delivery_address',
  'ticket_questions_before',
  'payment',
  'awaiting_truelayer',
  'deliver_tickets',
  'ticket_questions_after',
  'waiver',
  'after_sale_messages',
  'order_completed',
] as const satisfies readonly Step[];

/** A step the specification names. */
export function inSpec(step: string): boolean {
  return (SPEC_STEPS as readonly string[]).includes(step);
}
