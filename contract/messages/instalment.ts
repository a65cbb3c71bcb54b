/** The payment plan's words: its failure (spec 001 §8) and the plan form's prompts, which the spec does not word. */
export const INSTALMENT_MESSAGES = {
  error: 'There was an error with your payment. Please try again.',
  chooseOption: 'Choose a payment plan',
  chooseCard: 'Choose a card for your payments',
};

/** Spec 001 §2 Order completed, for a sale paid by a plan. */
export const PLAN_COMPLETED_MESSAGES = {
  title: 'Order Complete - Payment Schedule Setup',
  important: [
    'We have sent you an e-mail with your payment schedule.',
    'We will send you an SMS and an e-mail reminder before each payment is taken.',
    'You can update your payment method at any time in your account settings.',
    'Your tickets will be delivered to your ticket wallet after the final payment. Fully paid tickets are already delivered.',
  ],
};
