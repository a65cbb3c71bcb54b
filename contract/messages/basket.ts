/** The basket rules' messages (spec 000 §5 "Basket"), shown beside a line or above the basket. */
export const REQUIRED_TICKETS_MESSAGE = 'You must also purchase the following tickets to continue the checkout.';
export const maximumWarning = (n: number) => `You can only reserve ${n} tickets of this type`;
export const minimumWarning = (n: number) => `You must purchase a minimum of ${n} tickets of this type`;

/** The spec's notifications when a basket call fails (spec 000 §8), by the call that failed. */
export const BASKET_FAILURES = {
  updateTicketQuantity: 'Unable to update Ticket quantity. Please try again later',
  updateGiftVoucherQuantity: 'Unable to update Gift Voucher quantity. Please try again later',
  updateRefundProtection: 'Unable to update Refund protection. Please try again later',
  setCode: 'Unable to set the Code. Please try again later',
  removeFromBasket: 'Unable to remove the Ticket from the basket. Please try again later',
  removeGiftVoucherFromBasket: 'Unable to remove the Gift Voucher from the basket. Please try again later',
};
