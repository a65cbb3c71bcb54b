/**
 * Dates as the buyer reads them: in the request's language (the active locale, i18n/runtime.ts)
 * and always in the event's time zone, UK time, whatever the server's zone. English writes the
 * clock with am and pm ('Sat, 16 Jan 2027, 5:30 pm'); other languages as they write it
 * ('Sad, 16 Ion 2027, 17:30').
 */
import { activeIntlLocale } from '../../i18n/runtime.ts';
import { SOURCE_LOCALE } from '../../i18n/locales.ts';

const EVENT_TIME_ZONE = 'Europe/London';
const NICE_DATE = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: EVENT_TIME_ZONE,
} as const satisfies Intl.DateTimeFormatOptions;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The active locale's formatter for `options`, made once per locale. */
function formatter(name: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = activeIntlLocale();
  const key = `${locale} ${name}`;
  let f = formatters.get(key);
  if (!f) {
    const clock = options.hour !== undefined && locale === SOURCE_LOCALE ? { hour12: true } : {};
    formatters.set(key, (f = new Intl.DateTimeFormat(locale, { ...options, ...clock })));
  }
  return f;
}

/** A deadline in the event's time zone (UK time, as every event's dates are shown), with the zone named: 'Tue, 1 Dec 2026, 7:00 pm GMT'. */
export function formatDeadline(d: Date): string {
  return formatter('deadline', { ...NICE_DATE, timeZoneName: 'short' }).format(d);
}

export function formatNiceDate(d: Date): string {
  return formatter('nice', NICE_DATE).format(d);
}

const ukDate = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: EVENT_TIME_ZONE,
});

/** dd/mm/yyyy, the shape of `uk_expiry_date`, the same in every language. */
export function formatUkDate(d: Date): string {
  return ukDate.format(d);
}

/** An event's day and its start time apart ('Fri, 18 Dec 2026', '8:00 pm'), as the organiser's messages show them. */
export function formatEventDayAndTime(d: Date): { date: string; time: string } {
  return {
    date: formatter('day', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: EVENT_TIME_ZONE,
    }).format(d),
    time: formatter('time', { hour: 'numeric', minute: '2-digit', timeZone: EVENT_TIME_ZONE }).format(d),
  };
}
