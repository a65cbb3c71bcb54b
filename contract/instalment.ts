/**
 * Paying by instalments (spec 001 §2 Payment, §3 Saved payment method, §4 Instalment result
 * statuses, §5, §7 pay_with_instalment, §9): the call, the buyer's saved cards, the sandbox
 * processor's card tokenisation, and which options a basket offers. The plan's words are the
 * instalment chart's (contract/messages/instalment.ts).
 */
import { z } from 'zod/mini';
import { call, empty, formBool, formText, nullableString } from './primitives.ts';
import type { Checkout } from './checkout.ts';

/** The pay-in-full option, never offered as a plan (spec 001 §9). */
export const PAY_IN_FULL_OPTION = '1';
/** Plans are set up in pounds only (spec 001 §9). */
export const PLAN_CURRENCY = 'gbp';

/** The plan options the screen offers, in option order, without option '1'. */
export function planOptions(checkout: Pick<Checkout, 'payment_plan_schedule_options'>) {
  return Object.entries(checkout.payment_plan_schedule_options)
    .filter(([option]) => option !== PAY_IN_FULL_OPTION)
    .sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b))
    .map(([option, plan]) => ({ option, ...plan }));
}

export const savedPaymentMethodSchema = z.object({
  payment_method_id: z.string(),
  card_type: z.string(),
  last4digits: z.string(),
  /** MM/YY. */
  expiry: z.string(),
  is_default: z.boolean(),
});
export type SavedPaymentMethod = z.infer<typeof savedPaymentMethodSchema>;

/** A card the processor has just saved for later use, as its card form hands it over. */
export const newPaymentMethodSchema = z.object({
  id: formText(100, 1),
  brand: formText(40),
  last4: z.string().check(z.regex(/^\d{4}$/, 'must be the last four digits')),
  month: z.pipe(
    z.union([z.string().check(z.regex(/^\d{1,2}$/)), z.number()]),
    z.transform((v: string | number) => Number(v)),
  ),
  year: z.pipe(
    z.union([z.string().check(z.regex(/^\d{4}$/)), z.number()]),
    z.transform((v: string | number) => Number(v)),
  ),
  funding: formText(20),
  make_default_payment_method: z._default(formBool, true),
});
export type NewPaymentMethod = z.input<typeof newPaymentMethodSchema>;

export const INSTALMENT_STATUSES = ['success', 'redirect_to_url', 'unsuccessful'] as const;

/** The sandbox processor's card form, which saves a card the way Stripe's SetupIntent does. */
export const sandboxCardRequest = z.object({ number: formText(40), expiry: formText(10), cvc: formText(6) });

export const instalmentCalls = {
  payWithInstalment: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/pay_with_instalment/',
    encoding: 'form',
    request: z.object({
      instalment_option: formText(10, 1),
      contact_number: formText(40),
      selected_payment_method_id: z.optional(formText(100)),
      new_payment_method: z.optional(newPaymentMethodSchema),
      /** Ours (the spec is silent): with Stripe keyed, the new card is the one this SetupIntent saved; the server asks Stripe. */
      setup_intent: z.optional(
        z.object({ id: formText(100, 1), make_default_payment_method: z._default(formBool, true) }),
      ),
    }),
    response: z.object({ status: z.enum(INSTALMENT_STATUSES), url: z.optional(nullableString) }),
  }),
  /**
   * Ours (the spec shows none): how a new plan card is saved. With Stripe keyed, a SetupIntent for
   * the buyer's Stripe customer, whose client secret Stripe.js confirms with the card; otherwise the
   * sandbox's publishable key and no secret (the sandbox's card form saves it).
   */
  createPlanSetupIntent: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/create_setup_intent/',
    encoding: 'form',
    request: empty,
    response: z.object({ public_key: z.string(), client_secret: nullableString }),
  }),
  /** The signed-in buyer's saved cards (spec 001 §3); the call's path is ours, the spec shows none. */
  getSavedPaymentMethods: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/get_saved_payment_methods/',
    encoding: 'form',
    request: empty,
    /** `public_key` names the form a new card is typed into: the sandbox's, or Stripe's (see cardUi). */
    response: z.object({ payment_methods: z.array(savedPaymentMethodSchema), public_key: z.string() }),
  }),
  /** The sandbox processor saves a card for off-session use (Stripe's SetupIntent when keyed). */
  saveSandboxCard: call({
    method: 'POST',
    path: '/sandbox/payment_methods/',
    encoding: 'form',
    request: sandboxCardRequest,
    response: z.object({
      id: z.string(),
      brand: z.string(),
      last4: z.string(),
      month: z.number(),
      year: z.number(),
      funding: z.string(),
    }),
  }),
} as const;
