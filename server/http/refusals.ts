/** The status each kind of refusal is answered with, as `{ error }` or a step's own body. */
import type { Refusal, RefusalCode } from '../domain/refusal.ts';

export const REFUSAL_STATUS = {
  'invalid-input': 400,
  'wrong-code': 400,
  'sign-in-needed': 403,
  'not-found': 404,
  'hold-expired': 409,
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
