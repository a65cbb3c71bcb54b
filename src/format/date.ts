/**
 * Dates in en-GB form with a 12-hour clock. Event times are shown in the venue's zone, which
 * for this marketplace is UK time unless a caller says otherwise.
 */
export type DateInput = Date | string | number;

const DEFAULT_ZONE = 'Europe/London';

function toDate(value: DateInput): Date {
  return value instanceof Date ? value : new Date(value);
}

/** '21 Nov 2025' */
export function formatDate(value: DateInput, timeZone = DEFAULT_ZONE): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone }).format(
    toDate(value),
  );
}

/** '7:30 pm' */
export function formatTime(value: DateInput, timeZone = DEFAULT_ZONE): string {
  return new Intl.DateTimeFormat('en-GB', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone }).format(
    toDate(value),
  );
}

/** '21 Nov 2025 at 7:30 pm' */
export function formatDateAtTime(value: DateInput, timeZone = DEFAULT_ZONE): string {
  return `${formatDate(value, timeZone)} at ${formatTime(value, timeZone)}`;
}
