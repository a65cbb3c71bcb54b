/** The root checkout's texts, as spec 000 §4 and §6 quote them (each defined once, in the catalogue). */
import { messages } from '../../i18n/lazy.ts';

export const MESSAGES = messages({
  unableToGetCheckout: 'checkout.unableToGetCheckout',
  unknownReservationError: 'checkout.unknownReservationError',
  /** A failed reserve request from the reserve step (reached with 'Reserve Basket', or resumed). */
  unableToReserve: 'checkout.unableToReserve',
  /** A failed reserve request from a button: the captcha step's 'Continue'. */
  unableToReserveFromButton: 'checkout.unableToReserveFromButton',
  unableToSaveStep: 'checkout.unableToSaveStep',
  unableToEditBasket: 'checkout.unableToEditBasket',
  checkoutExpired: 'checkout.checkoutExpired',
  captchaExpired: 'checkout.captchaExpired',
});
