/**
 * The wire contract's building blocks: the step names, form-field scalars and the shape of a call.
 *
 * Paths, methods and field names are the specification's. Money is integer minor units
 * (pence, cents) everywhere on our wire; the browser formats it through one Intl formatter.
 * Form bodies are application/x-www-form-urlencoded with nested keys in bracket notation
 * (`ticket[12|34|56|0][qty]=2`), so every scalar arrives as a string: request schemas coerce.
 */
import { z } from 'zod/mini';
import { STEPS } from './steps.ts';

export { STEPS, type Step } from './steps.ts';
export const stepSchema = z.enum(STEPS);

/** The site key the server hands out when the self-hosted proof-of-work captcha is in use. */
export const LOCAL_CAPTCHA_SITEKEY = 'local-altcha';

/* ---------- building blocks ---------- */

export const MAX_ID = 2_147_483_647;
export const MAX_QTY = 1000;
export const MAX_MONEY = 100_000_000; // one million in major units

/**
 * A whole number sent in a form field: plain decimal digits only (no sign, spaces, exponent,
 * hex or fraction), or an integer in a JSON body. The message names the real range.
 */
function wholeNumber(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.pipe(
    z.pipe(
      z.union([z.string().check(z.regex(/^\d{1,10}$/, message)), z.number().check(z.int(message))], { error: message }),
      z.transform((v: string | number) => Number(v)),
    ),
    z.number().check(z.minimum(min, message), z.maximum(max, message)),
  );
}

/** A database id sent in a form field. */
export const formId = wholeNumber(1, MAX_ID);
/** A ticket or voucher quantity sent in a form field. The spec's quantity input has a minimum of 1. */
export const formQty = wholeNumber(1, MAX_QTY);
/** A line's quantity on the event page's order form, where 0 means none (a form sent without its script sends every line). */
export const formQtyOrNone = wholeNumber(0, MAX_QTY);
/** An amount of money in minor units sent in a form field. */
export const formMoney = wholeNumber(0, MAX_MONEY);
/** A boolean sent in a form field: true/false, 1/0, yes/no, on/off. */
export const formBool = z.stringbool();

/** Control characters (NUL included) and lone surrogates: never part of a name, code, e-mail or token. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;
export const CONTROL_CHARACTER_MESSAGE = 'must not contain control characters';

/** Free text sent in a form field, at most `max` characters, without control characters. */
export function formText(max: number, min = 0) {
  return z.string().check(
    z.minLength(min),
    z.maxLength(max),
    z.refine((s) => !UNPRINTABLE.test(s), { message: CONTROL_CHARACTER_MESSAGE, abort: true }),
  );
}

export const id = z.number().check(z.int());
export const money = z.number().check(z.int());
export const nullableString = z.nullable(z.string());

/** Every 4xx and 5xx reply carries a message a person can read. */
export const errorReplySchema = z.object({ error: z.string() });
export type ErrorReply = z.infer<typeof errorReplySchema>;

export const done = z.object({ success: z.literal(true) });
export const empty = z.object({});

/* ---------- the calls ---------- */

export type Encoding = 'none' | 'form' | 'json';

export interface Call<Req extends z.ZodMiniType = z.ZodMiniType, Res extends z.ZodMiniType = z.ZodMiniType> {
  method: 'GET' | 'POST';
  path: string;
  /** How the request travels: a GET's query, or a POST's form-urlencoded or JSON body. */
  encoding: Encoding;
  request: Req;
  response: Res;
}

export function call<Req extends z.ZodMiniType, Res extends z.ZodMiniType>(c: Call<Req, Res>): Call<Req, Res> {
  return c;
}
