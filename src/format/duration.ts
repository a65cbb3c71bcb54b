import { t } from '../../i18n/runtime.ts';

const UNITS = [
  [7 * 24 * 3600, 'time.week'],
  [24 * 3600, 'time.day'],
  [3600, 'time.hour'],
  [60, 'time.minute'],
  [1, 'time.second'],
] as const;

/**
 * A duration in words, largest unit first, zero parts left out: 599 is '9 minutes 59 seconds'.
 * Negative and fractional inputs are clamped to whole seconds not below 0.
 */
export function formatDuration(totalSeconds: number): string {
  let rest = Math.max(0, Math.floor(totalSeconds));
  if (rest === 0) return t('time.second', { count: 0 });
  const parts: string[] = [];
  for (const [size, key] of UNITS) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(t(key, { count }));
    rest -= count * size;
  }
  return parts.join(' ');
}
