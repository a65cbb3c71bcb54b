/**
 * Who is buying (spec 000 §2 "Account (login) step", §4 "Account modes", §5 "Account"): a one-time
 * code sent by e-mail signs the buyer in; a buyer without an account gives a full name.
 */
import { z } from 'zod/mini';
import { HOLD_LOST_ON_THE_WIRE } from './outcome.ts';
import { call, done, empty } from './primitives.ts';

/** Digits in a one-time code (spec 000 §9). */
export const ONE_TIME_CODE_LENGTH = 6;
/** How long a code works (spec 000 §9: valid for 15 minutes). */
export const ONE_TIME_CODE_LIFETIME_MS = 15 * 60 * 1000;

/**
 * The wire's words for a refused e-mail address or one-word name; the server answers them with
 * the account step's own words (contract/messages/account.ts).
 */
export const NOT_AN_EMAIL = 'must be an e-mail address';
export const NOT_A_FULL_NAME = 'must give a first and a last name';

/** A standard e-mail address: something@domain.tld, no spaces or control characters. */
export const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cs}]+@[^\s@\p{Cc}\p{Cs}]+\.[^\s@\p{Cc}\p{Cs}]+$/u;
export const MAX_EMAIL_LENGTH = 254;
export const MAX_FULL_NAME_LENGTH = 200;

export function isValidEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(email);
}

/** At least two space-separated parts: a first and a last name. */
export function isFullName(name: string): boolean {
  return name.trim().split(/\s+/).filter(Boolean).length >= 2;
}

/** What the code input keeps of what is typed or pasted: digits only, at most six. */
export function codeDigits(typed: string): string {
  return typed.replace(/\D/g, '').slice(0, ONE_TIME_CODE_LENGTH);
}

const emailField = z
  .string()
  .check(z.trim(), z.maxLength(MAX_EMAIL_LENGTH, NOT_AN_EMAIL), z.regex(EMAIL_PATTERN, NOT_AN_EMAIL));
const codeField = z.string().check(z.regex(/^\d{6}$/, `must be ${ONE_TIME_CODE_LENGTH} digits`));
const fullNameField = z.string().check(
  z.trim(),
  z.maxLength(MAX_FULL_NAME_LENGTH),
  z.refine((s) => !/[\p{Cc}\p{Cs}]/u.test(s), { message: 'must not contain control characters', abort: true }),
  z.refine(isFullName, NOT_A_FULL_NAME),
);

/**
 * A refused code check (spec 000 §7): `one_time_code` carries the message shown beside the
 * code; `reserving` (`HOLD_LOST_ON_THE_WIRE`: the hold is lost) carries the reservation's error, shown on the basket. `error` repeats the
 * text, as every refusal on our wire does.
 */
export const checkCodeRefusalSchema = z.union([
  z.object({ error: z.string(), type: z.literal('one_time_code'), message: z.string() }),
  z.object({ error: z.string(), type: z.literal(HOLD_LOST_ON_THE_WIRE), message: z.object({ error: z.string() }) }),
]);
export type CheckCodeRefusal = z.infer<typeof checkCodeRefusalSchema>;

export const accountCalls = {
  sendOneTimeCode: call({
    method: 'POST',
    path: '/ajax/user/user/send_one_time_code/',
    encoding: 'form',
    request: z.object({ email: emailField }),
    response: done,
  }),
  checkOneTimeCode: call({
    method: 'POST',
    path: '/ajax/user/user/check_one_time_code/',
    encoding: 'form',
    request: z.object({ email: emailField, code: codeField }),
    response: z.object({ has_account: z.boolean() }),
  }),
  saveGuestToSale: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/save_guest_to_sale/',
    encoding: 'form',
    request: z.object({ email: emailField, fullname: fullNameField }),
    response: done,
  }),
  logoutOfSale: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/logout_of_sale/',
    encoding: 'form',
    request: empty,
    response: done,
  }),
} as const;
