/**
 * The order form's quantity rules, as the basket has them: 0 means none; otherwise a quantity runs
 * from the line's minimum to what one order may hold.
 */

export interface Limits {
  min: number;
  max: number;
}

export const NOT_A_QUANTITY = 'Type a whole number of tickets, or 0 for none';
export const NOTHING_CHOSEN = 'Choose at least one ticket or gift voucher to add';

/** What is wrong with a typed quantity, in the basket's words ('' when nothing is). */
export function quantityProblem(quantity: number, limits: Limits, words: { tooFew: string; tooMany: string }): string {
  if (!Number.isInteger(quantity) || quantity < 0) return NOT_A_QUANTITY;
  if (quantity > 0 && quantity < limits.min) return words.tooFew;
  if (quantity > limits.max) return words.tooMany;
  return '';
}

/** − and +: from none straight to the minimum and back, never past the maximum. */
export function stepQuantity(current: number, direction: 1 | -1, limits: Limits): number {
  const quantity = Math.max(0, Math.floor(Number.isFinite(current) ? current : 0));
  const next = direction === 1 ? (quantity < limits.min ? limits.min : quantity + 1) : quantity <= limits.min ? 0 : quantity - 1;
  return Math.min(next, limits.max);
}

/** The note beside 'Add to basket' when the form is sent. */
export function orderFormNote(allValid: boolean, anyChosen: boolean): string {
  return allValid && !anyChosen ? NOTHING_CHOSEN : '';
}
