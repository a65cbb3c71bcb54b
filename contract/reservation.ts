/** Reserving the basket, with the captcha the server may ask for first. */
import { z } from 'zod/mini';
import { call, empty, formText } from './primitives.ts';

/** How many times one reservation's hold may be extended. */
export const MAX_HOLD_EXTENSIONS = 2;

export const reservationCalls = {
  reserveTickets: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/reserve_tickets/',
    encoding: 'form',
    request: z.object({ 'h-captcha-response': z.optional(formText(20_000)) }),
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
   * More time on the clock (ours, beside the spec's calls; WCAG 2.2.1 Timing Adjustable): the
   * live hold's deadline moves on by the original checkout time, without claiming stock again,
   * at most MAX_HOLD_EXTENSIONS times per reservation. A refusal is a 409 with `{ error }`.
   */
  extendHold: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/extend_hold/',
    encoding: 'form',
    request: empty,
    response: z.object({
      seconds_remaining: z.number().check(z.int(), z.minimum(0)),
      extensions_left: z.number().check(z.int(), z.minimum(0)),
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
} as const;
