import { describe, expect, it } from 'vitest';
import { orderFormNote, quantityProblem, stepQuantity } from './quantityRules';

const NOT_A_QUANTITY = 'Type a whole number of tickets, or 0 for none';
const NOTHING_CHOSEN = 'Choose at least one ticket or gift voucher to add';
const words = {
  tooFew: 'You must purchase a minimum of 2 tickets of this type',
  tooMany: 'You can buy at most 10 of these',
  notAQuantity: NOT_A_QUANTITY,
};
const pairs = { min: 2, max: 10 };

describe('the order form’s quantity rules', () => {
  it('takes none, or a whole number from the minimum to the maximum', () => {
    expect(quantityProblem(0, pairs, words)).toBe('');
    expect(quantityProblem(2, pairs, words)).toBe('');
    expect(quantityProblem(10, pairs, words)).toBe('');
    expect(quantityProblem(1, pairs, words)).toBe(words.tooFew);
    expect(quantityProblem(11, pairs, words)).toBe(words.tooMany);
    expect(quantityProblem(-1, pairs, words)).toBe(NOT_A_QUANTITY);
    expect(quantityProblem(1.5, pairs, words)).toBe(NOT_A_QUANTITY);
    expect(quantityProblem(Number.NaN, pairs, words)).toBe(NOT_A_QUANTITY);
  });

  it('steps from none straight to the minimum and back, never past the maximum', () => {
    expect(stepQuantity(0, 1, pairs)).toBe(2);
    expect(stepQuantity(2, 1, pairs)).toBe(3);
    expect(stepQuantity(10, 1, pairs)).toBe(10);
    expect(stepQuantity(3, -1, pairs)).toBe(2);
    expect(stepQuantity(2, -1, pairs)).toBe(0);
    expect(stepQuantity(0, -1, pairs)).toBe(0);
    // A typed value out of range or not a number starts from what it rounds to.
    expect(stepQuantity(Number.NaN, 1, pairs)).toBe(2);
    expect(stepQuantity(40, -1, pairs)).toBe(10);
    expect(stepQuantity(4.7, 1, pairs)).toBe(5);
  });

  it('asks for a choice only when every line is valid and none is chosen', () => {
    expect(orderFormNote(true, false, NOTHING_CHOSEN)).toBe(NOTHING_CHOSEN);
    expect(orderFormNote(true, true, NOTHING_CHOSEN)).toBe('');
    expect(orderFormNote(false, false, NOTHING_CHOSEN)).toBe('');
  });
});
