/** The bank-transfer waiting screen's words (spec 001 §2 Bank transfer waiting, §4 Bank transfer status, §8). */
export const BANK_TRANSFER_MESSAGES = {
  cancelled: 'You cancelled the payment in the bank portal.',
  unableToGetStatus: 'Unable to get Truelayer status. Please try again later',
  expired:
    'Your payment was unsuccessful and the checkout time expired. If the tickets are still available, you can try to reserve them again',
  afterThree: 'Waiting for a response from your bank',
  afterSix: 'Awaiting confirmation of payment',
  afterNine: "It's taking longer than usual for confirmation of your payment.",
  tryDifferentMethod: 'Try a different payment method',
  /* Not worded by the spec: the first wait, the stop at 60, the success and the default failure. */
  waiting: 'Checking with your bank',
  notYetConfirmed:
    'Your payment is not confirmed yet. If your bank confirms it, your tickets will be delivered to your ticket wallet and sent to you by e-mail.',
  succeeded: 'Payment received',
  failed: 'Your bank did not complete the payment.',
};
