/**
 * The spec's basket rule messages (spec 000 §5 "Basket"), defined once for the screens, the basket
 * chart and the server's refusals.
 */
export const REQUIRED_TICKETS_MESSAGE = 'You must also purchase the following tickets to continue the checkout.';
export const maximumWarning = (n: number) => `You can only reserve ${n} tickets of this type`;
export const minimumWarning = (n: number) => `You must purchase a minimum of ${n} tickets of this type`;
