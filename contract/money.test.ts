import { describe, expect, it } from 'vitest';
import { currencySymbol, formatMoney } from './money';
import { formatSeatTotal } from './seatMoney';

describe('formatMoney', () => {
  it('shows pence as pounds with two decimals and the currency prefix', () => {
    expect(formatMoney(1250, 'GBP')).toBe('£12.50');
    expect(formatMoney(5, 'GBP')).toBe('£0.05');
    expect(formatMoney(0, 'GBP')).toBe('£0.00');
  });

  it('separates thousands', () => {
    expect(formatMoney(123456789, 'GBP')).toBe('£1,234,567.89');
  });

  it('prefixes the currency of the basket', () => {
    expect(formatMoney(2000, 'EUR')).toBe('€20.00');
    expect(formatMoney(2000, 'USD')).toBe('US$20.00');
  });

  it('keeps the sign of a negative amount', () => {
    expect(formatMoney(-300, 'GBP')).toBe('-£3.00');
  });

  it('gives a currency without minor units no decimals', () => {
    expect(formatMoney(1500, 'JPY')).toBe('JP¥1,500');
  });
});

describe('currencySymbol', () => {
  it('is the sign the formatter uses', () => {
    expect(currencySymbol('GBP')).toBe('£');
    expect(currencySymbol('EUR')).toBe('€');
  });
});

describe('formatSeatTotal', () => {
  it('shows a pound sign, with two decimals only when the total is not whole', () => {
    expect(formatSeatTotal(5000)).toBe('£50');
    expect(formatSeatTotal(3250)).toBe('£32.50');
    expect(formatSeatTotal(6505)).toBe('£65.05');
    expect(formatSeatTotal(0)).toBe('£0');
    expect(formatSeatTotal(123400)).toBe('£1,234');
  });
});
