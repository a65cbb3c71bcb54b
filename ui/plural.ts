/** The word for a count: 'ticket' for 1, 'tickets' for anything else (0 included). */
export function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

/** What the site header's basket count says to a screen reader: '1 item', '3 items'. */
export function itemCount(n: number): string {
  return `${n} ${plural(n, 'item')}`;
}
