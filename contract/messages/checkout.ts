/** The root checkout's texts, as spec 000 §4 and §6 quote them (each defined here once). */
export const MESSAGES = {
  unableToGetCheckout: 'Unable to get Checkout data. Please try again later',
  unknownReservationError: 'An unknown error occured. Please try again, or contact support.',
  /** A failed reserve request from the reserve step (reached with 'Reserve Basket', or resumed). */
  unableToReserve: 'Unable to reserve tickets. Please try again later',
  /** A failed reserve request from a button: the captcha step's 'Continue'. */
  unableToReserveFromButton: 'Unable to reserve ticket(s). Please try again later',
  unableToSaveStep: 'Unable to update the Basket state. Please try again later',
  unableToEditBasket: 'Unable to edit Basket. Please try again later',
  checkoutExpired: 'Your checkout time expired. If the tickets are still available, you can try to reserve them again.',
  captchaExpired: 'The captcha challenge has expired. Please complete the challenge again.',
};
