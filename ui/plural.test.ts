import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it("adds an 's' unless the count is 1", () => {
    expect(plural(1, 'ticket')).toBe('ticket');
    expect(plural(0, 'ticket')).toBe('tickets');
    expect(plural(2, 'ticket')).toBe('tickets');
  });
});
