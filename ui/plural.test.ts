import { describe, expect, it } from 'vitest';
import { itemCount } from './plural';

describe('itemCount', () => {
  it("adds an 's' unless the count is 1", () => {
    expect(itemCount(1)).toBe('1 item');
    expect(itemCount(0)).toBe('0 items');
    expect(itemCount(2)).toBe('2 items');
  });
});
