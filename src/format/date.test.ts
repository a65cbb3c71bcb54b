import { describe, expect, it } from 'vitest';
import { formatDate, formatDateAtTime, formatTime } from './date';

// 19:30 UTC in winter is 19:30 in London; in summer London is an hour ahead.
const winterEvening = '2025-11-21T19:30:00Z';
const summerMorning = '2025-07-04T08:05:00Z';

describe('dates', () => {
  it('writes the day before the month, en-GB style', () => {
    expect(formatDate(winterEvening)).toBe('21 Nov 2025');
  });

  it('uses a 12-hour clock', () => {
    expect(formatTime(winterEvening)).toBe('7:30 pm');
    expect(formatTime(summerMorning)).toBe('9:05 am');
  });

  it("joins date and time with 'at'", () => {
    expect(formatDateAtTime(winterEvening)).toBe('21 Nov 2025 at 7:30 pm');
  });

  it('accepts another time zone', () => {
    expect(formatTime(winterEvening, 'America/New_York')).toBe('2:30 pm');
  });
});
