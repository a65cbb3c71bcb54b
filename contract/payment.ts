/**
 * Paying (spec 001 §2 Payment, §4 Payment method state, §5, §7, §9): the calls of the payment
 * step, the contact-number and express rules, and which methods a basket is offered. Shared by the
 * screen, the payment machine and the server, so each rule is written once. The step's words are
 * the payment chart's (contract/messages/payment.ts).
 */
import { z } from 'zod/mini';
import { call, done, empty, formBool, formText, nullableString } from './primitives.ts';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from './account.ts';
import type { Checkout } from './checkout.ts';

/** The payment method state of spec 001 §4. */
export const PAYMENT_METHODS = ['none', 'truelayer', 'stripe', 'square', 'instalment'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type ChosenMethod = Exclude<PaymentMethod, 'none'>;

/** Card only below 2000 in major units when the currency is GBP (spec 001 §9), in minor units. */
export const CARD_LIMIT_GBP = 200_000;

type OfferFacts = Pick<Checkout, 'basket_total' | 'currency' | 'sagepay_or_stripe' | 'payment_plan_schedule_options'>;

/**
 * The methods a basket is offered (spec 001 §9), in the order the screen lists them: bank transfer
 * for GBP or EUR when the provider is not Stripe; card below 2000 or in another currency (Square's
 * card when the organiser's provider is Square); a plan when schedule options exist. `built` keeps
 * only the methods this build can take, so a new method slots in by being added there.
 */
export function offeredMethods(checkout: OfferFacts, built: readonly ChosenMethod[]): ChosenMethod[] {
  const code = checkout.currency.code.toUpperCase();
  const provider = checkout.sagepay_or_stripe?.toLowerCase() ?? null;
  const methods: ChosenMethod[] = [];
  if ((code === 'GBP' || code === 'EUR') && provider !== 'stripe') methods.push('truelayer');
  if (checkout.basket_total < CARD_LIMIT_GBP || code !== 'GBP')
    methods.push(provider === 'square' ? 'square' : 'stripe');
  if (Object.keys(checkout.payment_plan_schedule_options).filter((k) => k !== '1').length > 0)
    methods.push('instalment');
  return methods.filter((m) => built.includes(m));
}

/** Auto-selected when only one method is offered and there is no plan; Square whenever the provider is Square (spec 001 §4). */
export function autoMethod(checkout: OfferFacts, built: readonly ChosenMethod[]): PaymentMethod {
  const offered = offeredMethods(checkout, built);
  if (offered.includes('square') && checkout.sagepay_or_stripe?.toLowerCase() === 'square') return 'square';
  const hasPlan = Object.keys(checkout.payment_plan_schedule_options).some((k) => k !== '1');
  return offered.length === 1 && !hasPlan ? offered[0]! : 'none';
}

/** The organiser whose missing payment integration blocks the basket (spec 001 §2), or null. */
export function saasBlockingOrganiser(checkout: Pick<Checkout, 'organisers' | 'opoa'>): string | null {
  if (checkout.opoa?.provider) return null;
  return checkout.organisers.find((o) => o.is_saas)?.name ?? null;
}

/**
 * Spec 001 §5: optional +country code, optional area in brackets, then at least 9 digits, spaces,
 * dots or hyphens, with at least 9 digits in that trailing part (§9).
 */
export const PHONE_PATTERN = /^(\+\d{1,4}[\s.-]?)?(\(\d{1,6}\)[\s.-]?)?([\d\s.-]{9,})$/;

export function isValidPhone(phone: string): boolean {
  const match = PHONE_PATTERN.exec(phone.trim());
  return match !== null && (match[3]!.match(/\d/g)?.length ?? 0) >= 9;
}

export function isValidExpressEmail(email: string): boolean {
  const trimmed = email.trim();
  return trimmed.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(trimmed);
}

/** The buyer's address for billing as the screen collects it; postcode is the one field billing requires. */
export interface BillingAddress {
  first_name: string;
  last_name: string;
  address_1: string;
  address_2: string;
  town: string;
  postcode: string;
  state: string;
  country_code: string;
}

export const EMPTY_BILLING_ADDRESS: BillingAddress = {
  first_name: '',
  last_name: '',
  address_1: '',
  address_2: '',
  town: '',
  postcode: '',
  state: '',
  country_code: 'GB',
};

const addressField = (max: number) => z.optional(formText(max));

/**
 * The billing address as sent: the address form's `address` object (a saved address id, or 'new'
 * with the fields and the country's id), or the fields with an ISO `country_code` (Square's
 * billing_address_data, set_account_details).
 */
export const billingAddressSchema = z.object({
  selected_user_address_id: z.optional(
    z.union([z.literal('new'), z.string().check(z.regex(/^[1-9]\d{0,9}$/, 'must be a saved address id or new'))]),
  ),
  country: addressField(8),
  first_name: addressField(100),
  last_name: addressField(100),
  address_1: addressField(200),
  address_2: addressField(200),
  town: addressField(100),
  postcode: addressField(16),
  state: addressField(100),
  country_code: addressField(3),
});

const contactNumber = z.optional(formText(40));

export const paymentCalls = {
  /** The card provider's key and the client secret of a payment for this sale and attempt. */
  getStripeToken: call({
    method: 'POST',
    path: '/ajax/checkout/stripe/get_token/',
    encoding: 'form',
    request: empty,
    response: z.object({ public_key: z.string(), client_secret: z.string() }),
  }),
  /**
   * The provider's message for the sale's last failed payment, or a late payment's outcome; null
   * when none. With it, the billing address the form starts from (see billingPrefill).
   */
  getPaymentError: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/get_payment_error/',
    encoding: 'form',
    request: empty,
    response: z.object({
      payment_error: nullableString,
      billing_address: z.optional(
        z.object({
          first_name: z.string(),
          last_name: z.string(),
          address_1: z.string(),
          address_2: z.string(),
          town: z.string(),
          postcode: z.string(),
          state: z.string(),
          country_code: z.string(),
          /** The address form's id of the country. */
          country: z.optional(z.string()),
          /** The saved address the buyer chose, when they chose one. */
          selected_user_address_id: z.optional(z.string()),
        }),
      ),
    }),
  }),
  setAccountDetails: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/set_account_details/',
    encoding: 'form',
    request: z.object({
      fullname: formText(200),
      email: formText(MAX_EMAIL_LENGTH),
      address: z.optional(billingAddressSchema),
      contact_number: contactNumber,
      organiser_subscribed_marketing: z.optional(z.record(z.string(), formBool)),
      ct_subscribed: z.optional(formBool),
    }),
    response: done,
  }),
  setBillingAddress: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/set_billing_address/',
    encoding: 'form',
    request: z.object({ address: billingAddressSchema, contact_number: contactNumber }),
    response: z.object({
      first_name: z.string(),
      last_name: z.string(),
      town: z.string(),
      address_1: z.string(),
      address_2: z.string(),
      postcode: z.string(),
      state: z.string(),
      country_code: z.string(),
      id: z.number(),
    }),
  }),
  getOpoaUsers: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/get_opoa_users/',
    encoding: 'form',
    request: empty,
    response: z.object({
      opoa_users: z.array(z.object({ id: z.number(), full_name: z.string() })),
      full_name: z.string(),
    }),
  }),
  claimFreeTickets: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/claim_free_tickets/',
    encoding: 'form',
    request: z.object({ email: z.optional(formText(MAX_EMAIL_LENGTH)) }),
    response: done,
  }),
} as const;

/**
 * The sandbox card processor's test cards (its own page lists them): any other number that passes
 * the Luhn check is approved too.
 */
export const SANDBOX_CARDS = {
  success: '4242424242424242',
  decline: '4000000000000002',
  insufficientFunds: '4000000000009995',
  challenge: '4000000000003220',
} as const;

/** The public key the server hands out when the sandbox processor takes the card. */
export const SANDBOX_PUBLIC_KEY_PREFIX = 'pk_sandbox_';
