/**
 * The event's time zone for the console's times: the product's events are all in Europe/London
 * (server/domain/format.ts). An on-sale time is typed as a local date and time there, and shown so.
 */
export const EVENT_TIME_ZONE = 'Europe/London';

const parts = (d: Date, timeZone: string) => {
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const o = Object.fromEntries(f.formatToParts(d).map((p) => [p.type, p.value]));
  return {
    y: Number(o.year),
    mo: Number(o.month),
    d: Number(o.day),
    h: Number(o.hour),
    mi: Number(o.minute),
    s: Number(o.second),
  };
};

/** The zone's offset from UTC at `at`, in milliseconds. */
function offsetAt(at: Date, timeZone: string): number {
  const p = parts(at, timeZone);
  return Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) - Math.floor(at.getTime() / 1000) * 1000;
}

/** `YYYY-MM-DDTHH:MM` as a local time in the zone, as a moment; null when it is not such a time. */
export function fromZonedInput(value: string, timeZone = EVENT_TIME_ZONE): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  let at = asUtc - offsetAt(new Date(asUtc), timeZone);
  at = asUtc - offsetAt(new Date(at), timeZone);
  const back = parts(new Date(at), timeZone);
  if (back.d !== d || back.mo !== mo) return null;
  return new Date(at);
}

/** A moment as the form's `YYYY-MM-DDTHH:MM` in the zone. */
export function toZonedInput(at: Date, timeZone = EVENT_TIME_ZONE): string {
  const p = parts(at, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.y}-${two(p.mo)}-${two(p.d)}T${two(p.h)}:${two(p.mi)}`;
}

const shown = new Intl.DateTimeFormat('en-GB', {
  timeZone: EVENT_TIME_ZONE,
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'short',
});

/** A moment as people read it, in the event's zone with its abbreviation (GMT or BST). */
export function zoned(at: Date): string {
  return shown.format(at);
}
