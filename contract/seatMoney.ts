/** The seat page's own way of writing money, apart from the checkout's formatter (contract/money.ts), which its first screen carries. */
import { activeIntlLocale } from '../i18n/runtime.ts';

/**
 * The seat page's total (spec 001 §2, §9): a pound sign, and two decimals unless the amount is a
 * whole number of pounds: '£50', '£32.50'.
 */
export function formatSeatTotal(minorUnits: number): string {
  const whole = minorUnits % 100 === 0;
  // Welsh writes money as UK English does (contract/money.ts).
  const locale = activeIntlLocale();
  return new Intl.NumberFormat(locale == 'cy' ? 'en-GB' : locale, {
    style: 'currency',
    currency: 'GBP',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(minorUnits / 100);
}
