/**
 * The order form's quantity rules, as the basket has them: 0 means none; otherwise a quantity runs
 * from the line's minimum to what one order may hold. The words are the page's, in its language
 * (the event page writes them into the form's and each input's data attributes).
 */

export interface Limits {
  min: number;
  max: number;
}

/** What the form says of a line out of its range, and of a quantity that is not one. */
export interface QuantityWords {
  tooFew: string;
  tooMany: string;
  notAQuantity: string;
}

/** What is wrong with a typed quantity, in the basket's words ('' when nothing is). */
export function quantityProblem(quantity: number, limits: Limits, words: QuantityWords): string {
  if (!Number.isInteger(quantity) || quantity < 0) return words.notAQuantity;
  if (quantity > 0 && quantity < limits.min) return words.tooFew;
  if (quantity > limits.max) return words.tooMany;
  return '';
}

/** − and +: from none straight to the minimum and back, never past the maximum. */
export function stepQuantity(current: number, direction: 1 | -1, limits: Limits): number {
  const quantity = Math.max(0, Math.floor(Number.isFinite(current) ? current : 0));
  const next =
    direction === 1 ? (quantity < limits.min ? limits.min : quantity + 1) : quantity <= limits.min ? 0 : quantity - 1;
  return Math.min(next, limits.max);
}

/** The note beside 'Add to basket' when the form is sent: `nothingChosen` when every line is valid and none is chosen. */
export function orderFormNote(allValid: boolean, anyChosen: boolean, nothingChosen: string): string {
  return allValid && !anyChosen ? nothingChosen : '';
}
