/**
 * The refusal table: what each kind of refusal (server/domain/refusal.ts) is answered with, its
 * status and, where a step's contract names the kind on the wire, that word (`type`). Routes answer
 * a refusal from here (`replyRefusal`, `refusalBody`) rather than writing its body themselves; the
 * body is `{ error }`, with `type` for a step whose contract reads it. A refusal the domain writes in
 * English is answered in the request's language where the catalogue has it (`inActiveLanguage`).
 */
import type { FastifyReply } from 'fastify';
import { inActiveLanguage } from '../../i18n/catalogues.ts';
import { HOLD_LOST_ON_THE_WIRE } from '../../contract/outcome.ts';
import type { Refusal, RefusalCode } from '../domain/refusal.ts';

export const REFUSALS = {
  'invalid-input': { status: 400 },
  // The code check's field shows it beside the code.
  'wrong-code': { status: 400, type: 'one_time_code' },
  // The step offers the code sign-in for the address.
  'sign-in-needed': { status: 403, type: 'sign_in' },
  'not-found': { status: 404 },
  // The steps that send the buyer back to the basket read the specification's word for it.
  'hold-lost': { status: 409, type: HOLD_LOST_ON_THE_WIRE },
  'already-paid': { status: 409 },
  'not-paid': { status: 409 },
  'no-account': { status: 409 },
  'account-exists': { status: 409, type: 'sign_in' },
  'sold-out': { status: 409 },
  'code-used-up': { status: 409 },
  'limit-reached': { status: 409 },
  'basket-changed': { status: 409 },
  'not-offered': { status: 409 },
  conflict: { status: 409 },
  'try-again': { status: 409 },
  'invalid-details': { status: 422 },
  'not-sent': { status: 422 },
  'too-many-requests': { status: 429 },
} as const satisfies Record<RefusalCode, { status: number; type?: string }>;

type Refusals = typeof REFUSALS;

/** The status of each kind of refusal. */
export const REFUSAL_STATUS = Object.fromEntries(
  Object.entries(REFUSALS).map(([code, { status }]) => [code, status]),
) as { [C in RefusalCode]: Refusals[C]['status'] };

export function refusalStatus(refusal: Refusal): number {
  return REFUSALS[refusal.code].status;
}

/**
 * A refusal's body: its words, and, for a step whose contract reads it (`named`), the kind's word
 * from the table. Every other call is answered `{ error }`.
 */
export function refusalBody(refusal: Refusal, named = false): { error: string; type?: string } {
  const entry = REFUSALS[refusal.code];
  const error = inActiveLanguage(refusal.message);
  return named && 'type' in entry ? { error, type: entry.type } : { error };
}

/** Answers a refusal with its status and body (see refusalBody). */
export function replyRefusal(reply: FastifyReply, refusal: Refusal, named = false) {
  return reply.status(refusalStatus(refusal)).send(refusalBody(refusal, named));
}

/** The body of a `hold-lost` refusal for the steps that send the buyer back to the basket with its words. */
export function holdLostBody(refusal: Refusal): { error: string; type: typeof HOLD_LOST_ON_THE_WIRE } {
  return { error: inActiveLanguage(refusal.message), type: REFUSALS['hold-lost'].type };
}

/** Answers a `hold-lost` refusal with its status and the body that sends the buyer back to the basket. */
export function replyHoldLost(reply: FastifyReply, refusal: Refusal) {
  return replyRefusal(reply, refusal, true);
}
