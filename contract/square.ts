/**
 * Paying through Square (spec 001 §4 Payment method state, §7 get_square_credentials and
 * pay-with-square): Square is the method whenever the organiser's provider is Square. The
 * card is taken by Square's Web Payments SDK when keyed, or by the sandbox card form, which
 * tokenises through our sandbox processor; pay-with-square charges the token.
 */
import { z } from 'zod/mini';
import { call, empty, formText, nullableString } from './primitives.ts';
import { billingAddressSchema } from './payment.ts';
import { sandboxCardRequest } from './instalment.ts';

/**
 * Where the browser loads Square's Web Payments library from (spec 001 §7), once
 * get_square_credentials has named one and only while `window.Square` is not yet there: the
 * server sends it on to the library for its environment (sandbox or production).
 */
export const SQUARE_SCRIPT_PATH = '/ajax/checkout/checkout/javascript-square/';

/** The application id get_square_credentials hands out when the sandbox takes the card. */
export const SQUARE_SANDBOX_APP_ID = 'holdfast-square-sandbox';

export const squareCalls = {
  getSquareCredentials: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/get_square_credentials/',
    encoding: 'form',
    request: empty,
    response: z.object({ app_id: z.string(), location_id: z.string(), checkout_js: z.string() }),
  }),
  /**
   * Charges the card token. `response.addressError` when the billing address cannot be used;
   * `response.message` when Square refused the card; `response.payment` when it is paid.
   */
  payWithSquare: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/pay-with-square/',
    encoding: 'form',
    request: z.object({ billing_address_data: billingAddressSchema, source_id: formText(300, 1) }),
    response: z.object({
      response: z.object({
        success: z.boolean(),
        addressError: z.optional(nullableString),
        message: z.optional(nullableString),
        payment: z.optional(z.nullable(z.object({ id: z.string(), status: z.string() }))),
      }),
    }),
  }),
  /** The sandbox's stand-in for Square's card tokenisation: a single-use card nonce. */
  tokeniseSandboxSquareCard: call({
    method: 'POST',
    path: '/sandbox/square/cards/',
    encoding: 'form',
    request: sandboxCardRequest,
    response: z.object({ token: z.string() }),
  }),
} as const;
