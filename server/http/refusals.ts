/** The status each kind of refusal is answered with, as `{ error }` or a step's own body. */
import type { FastifyReply } from 'fastify';
import { HOLD_LOST_ON_THE_WIRE } from '../../contract/outcome.ts';
import type { Refusal, RefusalCode } from '../domain/refusal.ts';

export const REFUSAL_STATUS = {
  'invalid-input': 400,
  'wrong-code': 400,
  'sign-in-needed': 403,
  'not-found': 404,
  'hold-lost': 409,
  'already-paid': 409,
  'not-paid': 409,
  'no-account': 409,
  'account-exists': 409,
  'sold-out': 409,
  'code-used-up': 409,
  'limit-reached': 409,
  'basket-changed': 409,
  'not-offered': 409,
  conflict: 409,
  'try-again': 409,
  'invalid-details': 422,
  'not-sent': 422,
  'too-many-requests': 429,
} as const satisfies Record<RefusalCode, number>;

export function refusalStatus(refusal: Refusal): number {
  return REFUSAL_STATUS[refusal.code];
}

/**
 * The body of a `hold-lost` refusal, for the steps that send the buyer back to the basket with its
 * words: the wire's word for a lost hold is the specification's (`HOLD_LOST_ON_THE_WIRE`).
 */
export function holdLostBody(refusal: Refusal): { error: string; type: typeof HOLD_LOST_ON_THE_WIRE } {
  return { error: refusal.message, type: HOLD_LOST_ON_THE_WIRE };
}

/** Answers a `hold-lost` refusal with its status and body. */
export function replyHoldLost(reply: FastifyReply, refusal: Refusal) {
  return reply.status(refusalStatus(refusal)).send(holdLostBody(refusal));
}
