/** What the instalment chart exchanges with the payment chart and the app. */
import type { NewPaymentMethod, RequestOf, ResponseOf } from '../../contract';
import type { HoldLost } from '../../contract/outcome';

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

/** How a new card is saved, as create_setup_intent answers: with Stripe keyed, the SetupIntent's client secret. */
export type CardSetup = ResponseOf<'createPlanSetupIntent'>;

/** A SetupIntent Stripe.js is to confirm with the card in Stripe's form. */
export interface StripeSetup {
  public_key: string;
  client_secret: string;
}

/** Stripe.js's confirmation: the card saved on the SetupIntent, or the form's fields not yet complete (the form marks them). */
export type SetupConfirmation = { status: 'saved'; setupIntentId: string } | { status: 'incomplete' };

export type InstalmentEvent =
  /** The buyer pays with the card typed into Stripe's form. */
  | { type: 'CARD_SUBMITTED' }
  /** Stripe's form could not be loaded or shown. */
  | { type: 'CARD_FORM_FAILED' };

export type InstalmentOutcome =
  | { kind: 'paid' }
  | { kind: 'failed'; message: string }
  /** The hold is gone: the basket shows the reason. */
  | HoldLost;
