import { describe, expect, it } from 'vitest';
import { formatClock } from './clock';

describe('formatClock', () => {
  it('shows minutes and two-digit seconds', () => {
    expect(formatClock(599)).toBe('9:59');
    expect(formatClock(600)).toBe('10:00');
    expect(formatClock(5)).toBe('0:05');
  });

  it('adds hours from an hour up', () => {
    expect(formatClock(3600 + 62)).toBe('1:01:02');
  });

  it('never goes below zero', () => {
    expect(formatClock(-3)).toBe('0:00');
  });

  it('drops fractions of a second', () => {
    expect(formatClock(59.9)).toBe('0:59');
  });
});
