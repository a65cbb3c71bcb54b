/** Square's own failure (spec 001 §8); a refused payment is told in the payment step's words. */
export const SQUARE_MESSAGES = {
  credentials: 'Unable to get Square credentials. Please try again later',
};
