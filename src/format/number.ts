const wholeNumber = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });

/** Whole numbers with thousands separators: 12345 is '12,345'. */
export function formatWholeNumber(n: number): string {
  return wholeNumber.format(Math.round(n));
}
