/** What the instalment chart exchanges with the payment chart and the app. */
import type { NewPaymentMethod, RequestOf } from '../../contract';

/** The plan the buyer chose on the payment form. */
export interface PlanChoice {
  /** An option of payment_plan_schedule_options (never '1'), or null while none is chosen. */
  option: string | null;
  /** A saved card's payment_method_id, 'new' for a new card, or null while none is chosen. */
  card: string | null;
  /** The new card becomes the default payment method (spec 001 §9: on by default). */
  makeDefault: boolean;
}

export const NEW_CARD = 'new';

export interface InstalmentInput {
  option: string;
  contactNumber: string;
  card: string;
  makeDefault: boolean;
}

/** The card the processor saved for later (Stripe's SetupIntent, or the sandbox's card form). */
export type SavedCard = Omit<NewPaymentMethod, 'make_default_payment_method'>;

export type PayWithInstalmentRequest = RequestOf<'payWithInstalment'>;

export type InstalmentOutcome =
  | { type: 'paid' }
  | { type: 'failed'; message: string }
  /** The hold is gone: the basket shows the reason. */
  | { type: 'reserving'; message: string };
