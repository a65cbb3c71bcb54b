/**
 * The one money formatter, used by the app and by the server's pages. Amounts travel in integer
 * minor units (pence, cents); the screen shows the currency's own decimals (two for pounds and
 * euros, as spec 000 §9 shows them), thousands separators and the currency prefix, as the active
 * locale writes them (i18n/runtime.ts: the page's, or on the server the request's).
 */
import { activeIntlLocale } from '../i18n/runtime.ts';

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * The locale money is written in: Welsh writes it as UK English does ('£1,234.56'), which some
 * browsers' Intl, lacking Welsh's money pattern, would write '£ 1,234.56'.
 */
const moneyLocale = (locale = activeIntlLocale()) => (locale == 'cy' ? 'en-GB' : locale);

function formatterFor(code: string): Intl.NumberFormat {
  const locale = moneyLocale();
  let formatter = formatters.get(locale + code);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: 'currency', currency: code });
    formatters.set(locale + code, formatter);
  }
  return formatter;
}

/** `formatMoney(123456, 'GBP')` is '£1,234.56'; a currency without minor units is not given any. */
export function formatMoney(minorUnits: number, currencyCode: string): string {
  const formatter = formatterFor(currencyCode);
  const digits = formatter.resolvedOptions().maximumFractionDigits ?? 2;
  return formatter.format(minorUnits / 10 ** digits);
}

/** The sign the formatter puts before amounts: '£' for GBP, '€' for EUR. */
export function currencySymbol(currencyCode: string): string {
  return (
    formatterFor(currencyCode)
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? currencyCode
  );
}
