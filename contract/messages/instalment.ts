/** The payment plan's words: its failure (spec 001 §8) and the plan form's prompts, which the spec does not word. */
export const INSTALMENT_MESSAGES = {
  error: 'There was an error with your payment. Please try again.',
  chooseOption: 'Choose a payment plan',
  chooseCard: 'Choose a card for your payments',
  /** With Stripe keyed, a new card comes only through a SetupIntent the server checks with Stripe. */
  cardThroughStripe: 'A new card is saved with Stripe on this server. Please enter your card again.',
  /** A SetupIntent Stripe does not know, or one that has not saved a card. */
  cardNotSaved: 'Your card has not been saved. Please enter your card again.',
  /** A SetupIntent made for another buyer. */
  cardNotYours: 'This card was not saved for your account.',
  /** Without Stripe keys, a new card is saved by the sandbox's card form. */
  noStripeSetup: 'Cards are saved by the sandbox processor on this server',
  /** The first instalment was taken but the tickets could not be booked (taken meanwhile, or the code used up). */
  refunded: 'Your tickets could not be booked, so we have refunded your first payment in full. Please check your basket and try again.',
};

/** Spec 001 §2 Order completed, for a sale paid by a plan. */
export const PLAN_COMPLETED_MESSAGES = {
  title: 'Order Complete - Payment Schedule Setup',
  important: [
    'We have sent you an e-mail with your payment schedule.',
    'We will send you an SMS and an e-mail reminder before each payment is taken.',
    'You can update your payment method at any time in your account settings.',
    'Your tickets will be delivered to your ticket wallet after the final payment.',
  ],
};
