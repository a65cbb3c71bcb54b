/** Dates as the UK buyer reads them, always in UK time whatever the server's zone. */
const NICE_DATE = {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
  timeZone: 'Europe/London',
} as const satisfies Intl.DateTimeFormatOptions;
const niceDate = new Intl.DateTimeFormat('en-GB', NICE_DATE);
const deadline = new Intl.DateTimeFormat('en-GB', { ...NICE_DATE, timeZoneName: 'short' });

/** A deadline in the event's time zone (UK time, as every event's dates are shown), with the zone named: 'Tue, 1 Dec 2026, 7:00 pm GMT'. */
export function formatDeadline(d: Date): string {
  return deadline.format(d);
}
const ukDate = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/London' });

export function formatNiceDate(d: Date): string {
  return niceDate.format(d);
}

/** dd/mm/yyyy, the shape of `uk_expiry_date`. */
export function formatUkDate(d: Date): string {
  return ukDate.format(d);
}

const eventDay = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' });
const eventTime = new Intl.DateTimeFormat('en-GB', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: 'Europe/London' });

/** An event's day and its start time apart ('Fri, 18 Dec 2026', '8:00 pm'), as the organiser's messages show them. */
export function formatEventDayAndTime(d: Date): { date: string; time: string } {
  return { date: eventDay.format(d), time: eventTime.format(d) };
}
