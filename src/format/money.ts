/**
 * The one money formatter of the app. Amounts travel in integer minor units (pence, cents);
 * the screen shows two decimals, thousands separators and the currency prefix (spec 000 §9).
 */
const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(code: string): Intl.NumberFormat {
  let formatter = formatters.get(code);
  if (!formatter) {
    formatter = new Intl.NumberFormat('en-GB', {
      style: 'currency',
      currency: code,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(code, formatter);
  }
  return formatter;
}

/** `formatMoney(123456, 'GBP')` is '£1,234.56'. */
export function formatMoney(minorUnits: number, currencyCode: string): string {
  return formatterFor(currencyCode).format(minorUnits / 100);
}
