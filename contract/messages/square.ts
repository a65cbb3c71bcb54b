/** Square's own failure (spec 001 §8); a refused payment is told in the payment step's words. */
import { messages } from '../../i18n/lazy.ts';

export const SQUARE_MESSAGES = messages({
  credentials: 'square.credentials',
});
