/** The delivery screen's messages and the support code shown with a delivery that did not complete (spec 001 §8). */
export const DELIVERY_MESSAGES = {
  unableToDeliverToBitTicket: 'Unable to deliver to BitTicket. Please try again later',
  unableToDeliverToWallet: 'Unable to deliver to Wallet. Please try again later',
  deliveryFailed: 'Delivery failed. Please contact support',
};

export const DELIVERY_FAILED_CODE = 2961;

/** The order-completed screen that follows delivery (spec 001 §2 Order completed). */
export const ORDER_COMPLETED_MESSAGES = {
  reference: (saleReference: string) => `Your reference is ${saleReference}`,
  complete: 'Order complete! Your tickets are on their way.',
  walletSent: (email: string) => `A copy of your ticket wallet has been sent to ${email}`,
};
