/** The word for a count: 'ticket' for 1, 'tickets' for anything else (0 included). */
export function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}
