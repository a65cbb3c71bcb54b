/**
 * What a refusal means to the caller. Each code is answered with one status by the web layer
 * (server/http/refusals.ts); the domain itself knows nothing of HTTP.
 */
export type RefusalCode =
  /** A choice, quantity or field the rules refuse; the buyer can put it right and ask again. */
  | 'invalid-input'
  /** Contact, billing, card or recipient details that cannot be used as given. */
  | 'invalid-details'
  /** A one-time code that does not prove the address: wrong, expired, or tried too often. */
  | 'wrong-code'
  /** The visitor has to sign in, or prove their address, before this is theirs to do. */
  | 'sign-in-needed'
  /** What the call names does not exist, or is not served by this server. */
  | 'not-found'
  /** The sale holds no tickets any more: the buyer goes back to the basket. */
  | 'hold-lost'
  /** The sale is paid for, so its basket and payment are closed. */
  | 'already-paid'
  /** The call needs a sale that is paid for, and this one is not yet. */
  | 'not-paid'
  /** The sale has no buyer account yet. */
  | 'no-account'
  /** The address has an account the buyer has not proved is theirs. */
  | 'account-exists'
  /** Tickets or seats that are no longer to be had in the numbers chosen. */
  | 'sold-out'
  /** The sale's discount code has been used as many times as it can be. */
  | 'code-used-up'
  /** The buyer has used up an allowance: tickets held at once, extra time, feedback. */
  | 'limit-reached'
  /** The total has changed since the buyer was shown it. */
  | 'basket-changed'
  /** The checkout does not offer the way of paying asked for. */
  | 'not-offered'
  /** The sale or order is not in a state that allows this change. */
  | 'conflict'
  /** A service the step needs could not be reached; the same request may work later. */
  | 'try-again'
  /** An e-mail could not be sent just now. */
  | 'not-sent'
  /** Too many of these have been asked for from this address or network for now. */
  | 'too-many-requests';

/** Which of the pages' known notices (server/http/notices.ts) stands for a refusal, and about which ticket type. */
export interface RefusalNotice {
  code: 'too-many' | 'too-few' | 'buyer-limit' | 'voucher' | 'not-on-sale';
  ticketTypeId?: number;
}

/** A refusal a buyer can read, in the spec's words; nothing was changed. */
export class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly notice?: RefusalNotice,
  ) {
    super(message);
  }
}

export function isRefusal(err: unknown, code?: RefusalCode): err is Refusal {
  return err instanceof Refusal && (code === undefined || err.code === code);
}
