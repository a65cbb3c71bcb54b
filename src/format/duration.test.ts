import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration';

describe('formatDuration', () => {
  it('writes minutes and seconds', () => {
    expect(formatDuration(599)).toBe('9 minutes 59 seconds');
  });

  it('uses the singular for one of a unit', () => {
    expect(formatDuration(61)).toBe('1 minute 1 second');
  });

  it('leaves out zero parts', () => {
    expect(formatDuration(3600)).toBe('1 hour');
    expect(formatDuration(7200 + 5)).toBe('2 hours 5 seconds');
  });

  it('counts weeks and days', () => {
    expect(formatDuration(8 * 24 * 3600 + 3 * 3600)).toBe('1 week 1 day 3 hours');
  });

  it('never goes below zero', () => {
    expect(formatDuration(0)).toBe('0 seconds');
    expect(formatDuration(-4)).toBe('0 seconds');
  });
});
