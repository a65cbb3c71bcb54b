/** What the payment machine exchanges with the app and with its parent. */
import type { AddressStart, ChosenMethod, PaymentMethod } from '../../contract';
import type { HoldLost } from '../../contract/outcome';
import type { AddressGivenEvent } from '../address/address.machine';
import type { PlanChoice } from '../instalment/instalment.types';

/**
 * What the payment step needs to know about the sale, worked out by the app from the checkout
 * object and get_payment_error (see `paymentSituation`), so the chart keeps no copy of the checkout.
 */
export interface PaymentSituation {
  /** payment_complete: nothing is left to pay. */
  paid: boolean;
  /** The SaaS organiser without a payment provider, whose basket cannot be paid; else null. */
  blockedBy: string | null;
  /** A zero total: the tickets are claimed, not paid for. */
  free: boolean;
  /** Express (guest) buyers give their name and e-mail here. */
  express: boolean;
  /** has_require_phone_number. */
  phoneRequired: boolean;
  /** The methods offered, in screen order (spec 001 §9), among those this build takes. */
  offered: ChosenMethod[];
  /** The method chosen for the buyer (spec 001 §4), or 'none'. */
  autoMethod: PaymentMethod;
  /** Express marketing boxes: one per basket organiser with its sign-up message. */
  marketingOrganisers: { id: number; message: string }[];
  /** The e-mail the sale knows (init_guest_email), prefilled in express mode. */
  email: string;
  /** The provider's message for the last payment that failed, or a late payment's outcome. */
  paymentError: string | null;
  /** The payment plan options offered (never '1'); empty without a plan. */
  planOptions: string[];
  /**
   * Where the billing address form starts: the address last sent for this sale (kept after a
   * declined card), else the delivery address or the account's name; empty when absent.
   */
  billingStart?: AddressStart;
  /**
   * The signed-in buyer's full name (get_opoa_users' full_name), which the express account form
   * starts from; empty or absent when no one is signed in.
   */
  fullName?: string;
  /**
   * The team of the organiser whose own account takes this payment (get_opoa_users' opoa_users),
   * named only to one of them signed in: their box office; empty or absent for anyone else.
   */
  opoaTeam?: string[];
}

export interface PaymentForm {
  fullName: string;
  email: string;
  contactNumber: string;
  /** Express marketing boxes by organiser id, and the community newsletter. */
  organisers: Record<string, boolean>;
  newsletter: boolean;
  /** The payment plan chosen, when paying by instalments. */
  plan: PlanChoice;
}

export type FormField = 'fullName' | 'email' | 'contactNumber';

export type PaymentProblemField = 'fullName' | 'email' | 'contactNumber' | 'method' | 'planOption' | 'planCard';

/** What the card provider's confirmation ended with, when it ends in the page (no redirect). */
export type CardResult = { status: 'succeeded' } | { status: 'failed'; message: string | null };

export type PaymentOutcome =
  /** The sale is paid (or its free tickets claimed): the root goes on to delivery. */
  | { kind: 'paid' }
  /** The server no longer holds the tickets: the basket shows the reason. */
  | HoldLost;

export type PaymentEvent =
  | { type: 'FIELD_CHANGED'; field: FormField; value: string }
  /** The buyer left a field (blur): what they typed is checked now, not only on Pay. */
  | { type: 'FIELD_LEFT'; field: FormField }
  | { type: 'ORGANISER_TOGGLED'; organiserId: number }
  | { type: 'NEWSLETTER_TOGGLED' }
  | { type: 'METHOD_CHOSEN'; method: ChosenMethod }
  | { type: 'PAY_CLICKED' }
  | { type: 'RETRY_CLICKED' }
  | { type: 'PLAN_OPTION_CHOSEN'; option: string }
  | { type: 'PLAN_CARD_CHOSEN'; card: string }
  | { type: 'PLAN_DEFAULT_TOGGLED' }
  /** The sign-in an existing account's e-mail asks for: the code typed, checked, sent again, or another e-mail used. */
  | { type: 'CODE_CHANGED'; value: string }
  | { type: 'VERIFY_CLICKED' }
  | { type: 'RESEND_CLICKED' }
  | { type: 'SIGN_IN_CANCELLED' }
  /** The billing address form (the address chart, this chart's child) found the address valid on Pay. */
  | AddressGivenEvent;

/** The code sign-in an existing account's e-mail asks for, on the payment step itself. */
export interface PaymentSignIn {
  email: string;
  /** Digits only, at most 6. */
  code: string;
  /** A refused code or a failed send, in the server's words. */
  error: string | null;
}
