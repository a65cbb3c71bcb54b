import { describe, expect, it } from 'vitest';
import { formatWholeNumber } from './number';

describe('formatWholeNumber', () => {
  it('separates thousands', () => {
    expect(formatWholeNumber(1234567)).toBe('1,234,567');
    expect(formatWholeNumber(999)).toBe('999');
  });

  it('rounds to a whole number', () => {
    expect(formatWholeNumber(1499.6)).toBe('1,500');
  });
});
