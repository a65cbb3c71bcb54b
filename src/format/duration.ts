import { plural } from '../../ui/plural';

const UNITS: ReadonlyArray<readonly [seconds: number, word: string]> = [
  [7 * 24 * 3600, 'week'],
  [24 * 3600, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
];

/**
 * A duration in words, largest unit first, zero parts left out: 599 is '9 minutes 59 seconds'.
 * Negative and fractional inputs are clamped to whole seconds not below 0.
 */
export function formatDuration(totalSeconds: number): string {
  let rest = Math.max(0, Math.floor(totalSeconds));
  if (rest === 0) return '0 seconds';
  const parts: string[] = [];
  for (const [size, word] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count} ${plural(count, word)}`);
    rest -= count * size;
  }
  return parts.join(' ');
}
