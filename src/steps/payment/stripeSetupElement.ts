/**
 * Stripe's card form for a plan's SetupIntent, kept outside the charts the way the sandbox's card
 * fields are: the form writes its Stripe.js instance and Elements here once shown, and the actor
 * that confirms the SetupIntent reads them when the chart asks it to.
 */
import type { Stripe, StripeElements } from '@stripe/stripe-js';

export interface StripeSetupForm {
  stripe: Stripe;
  elements: StripeElements;
  /** The SetupIntent the form was made for. */
  clientSecret: string;
}

let form: StripeSetupForm | null = null;

export const stripeSetupElement = {
  get: (): StripeSetupForm | null => form,
  set: (next: StripeSetupForm | null) => {
    form = next;
  },
};
