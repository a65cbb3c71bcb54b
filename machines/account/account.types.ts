/** What the account machine exchanges with the app and with its parent. */
import type { HoldLost } from '../../contract/outcome';

/** A signed-in buyer as the account step shows them. */
export interface AccountUser {
  email: string;
  full_name: string;
}

/** How the step ended, for the root chart. */
export type AccountOutcome =
  /** The code matched an existing account: the buyer is signed in and the user refreshed. */
  | { kind: 'signed_in' }
  /** A new buyer's name was saved to the sale. */
  | { kind: 'guest_saved' }
  /** The signed-in buyer confirmed the account. */
  | { kind: 'confirmed' }
  /** The server says the reservation is gone: shown on the basket. */
  | HoldLost;

export type AccountEvent =
  | { type: 'EMAIL_CHANGED'; value: string }
  | { type: 'EMAIL_SUBMITTED' }
  | { type: 'CODE_CHANGED'; value: string }
  | { type: 'CODE_CLEARED' }
  | { type: 'VERIFY_CLICKED' }
  | { type: 'RESEND_CLICKED' }
  | { type: 'CHANGE_EMAIL_CLICKED' }
  | { type: 'NAME_CHANGED'; value: string }
  | { type: 'NAME_SUBMITTED' }
  | { type: 'CONTINUE_CLICKED' }
  | { type: 'SIGN_OUT_CLICKED' };
