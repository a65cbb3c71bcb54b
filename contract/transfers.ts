/**
 * Transferring or gifting tickets after the sale (spec 001 §2 Transfer tickets, §3 Transfer row,
 * §5 Transfer row, §7 set_transfers, §9): the rows the buyer sends, the date and time format, and
 * the recipient's acceptance link. Its words are the transfers chart's
 * (contract/messages/transfers.ts).
 */
import { z } from 'zod/mini';
import { EMAIL_PATTERN, MAX_EMAIL_LENGTH, NOT_AN_EMAIL } from './account.ts';
import { call, done, formBool, formId, formQty, formText } from './primitives.ts';

/** Spec 001 §9: the first row of each ticket starts at 0, rows added later at 1; 'Schedule' by default. */
export const FIRST_ROW_QTY = 0;
export const ADDED_ROW_QTY = 1;
export const SEND_GIFT_CHOICES = ['Schedule', 'Send now'] as const;
export type SendGift = (typeof SEND_GIFT_CHOICES)[number];
export const DEFAULT_SEND_GIFT: SendGift = 'Schedule';

/** Spec 001 §9: the delivery date travels as dd/MM/yyyy; the time as 24-hour HH:mm. */
export const TRANSFER_DATE_FORMAT = 'dd/MM/yyyy';
const DATE_PATTERN = /^(\d{2})\/(\d{2})\/(\d{4})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Scheduled gifts are delivered at the date and time as read in the UK, where the product sells. */
export const TRANSFER_TIME_ZONE = 'Europe/London';

export const MAX_TRANSFER_ROWS = 50;
export const MAX_TRANSFER_NAME = 200;
export const MAX_TRANSFER_MESSAGE = 1000;

/** A calendar date as numbers. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** A real calendar date written dd/MM/yyyy, or null (31/02/2027 is not one). */
export function parseTransferDate(text: string): CalendarDate | null {
  const m = DATE_PATTERN.exec(text);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (year < 2000 || probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day)
    return null;
  return { year, month, day };
}

export function formatTransferDate(date: CalendarDate): string {
  return `${String(date.day).padStart(2, '0')}/${String(date.month).padStart(2, '0')}/${date.year}`;
}

export function isTransferTime(text: string): boolean {
  return TIME_PATTERN.test(text);
}

/** Orders two calendar dates: negative when `a` comes first. */
export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** The calendar date at `now` in the UK. */
export function ukToday(now: Date): CalendarDate {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: TRANSFER_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

/** The instant a UK wall-clock date and time stands for (British summer time included). */
export function ukInstant(date: CalendarDate, time: string): Date {
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  // The UK is UTC or UTC+1: take the offset in force at that moment (read twice around a change).
  const offsetAt = (ms: number) => {
    const shown = new Intl.DateTimeFormat('en-GB', {
      timeZone: TRANSFER_TIME_ZONE,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).formatToParts(new Date(ms));
    const get = (type: string) => Number(shown.find((p) => p.type === type)!.value);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute')) - ms;
  };
  const first = asUtc - offsetAt(asUtc);
  return new Date(asUtc - offsetAt(first));
}

/** Spec 001 §3 Transfer row, as set_transfers carries it. */
export const transferRowSchema = z
  .object({
    /** The ticket type (the checkout's ticket line `ticket_id`). */
    ticket_id: formId,
    name: z.string().check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(MAX_TRANSFER_NAME),
      z.refine((s) => !/[\p{Cc}\p{Cs}]/u.test(s), { message: 'must not contain control characters' }),
    ),
    email: z
      .string()
      .check(
        z.trim(),
        z.toLowerCase(),
        z.maxLength(MAX_EMAIL_LENGTH, NOT_AN_EMAIL),
        z.regex(EMAIL_PATTERN, NOT_AN_EMAIL),
      ),
    qty: formQty,
    is_gift: z._default(formBool, false),
    send_gift: z._default(z.enum(SEND_GIFT_CHOICES), DEFAULT_SEND_GIFT),
    delivery_date: z._default(
      z.string().check(
        z.refine((s) => s === '' || parseTransferDate(s) !== null, {
          message: `must be a date written ${TRANSFER_DATE_FORMAT}`,
        }),
      ),
      '',
    ),
    delivery_time: z._default(
      z.string().check(z.refine((s) => s === '' || isTransferTime(s), { message: 'must be a time written HH:mm' })),
      '',
    ),
    message: z._default(formText(MAX_TRANSFER_MESSAGE), ''),
  })
  .check(
    z.refine(
      (row) => !(row.is_gift && row.send_gift === 'Schedule') || (row.delivery_date !== '' && row.delivery_time !== ''),
      {
        message: 'a scheduled gift needs a delivery date and time',
      },
    ),
  );
export type TransferRow = z.infer<typeof transferRowSchema>;
export type TransferRowInput = z.input<typeof transferRowSchema>;

const tokenField = z.string().check(z.regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be a transfer link'));

/** Where the recipient accepts: the link in their e-mail. */
export const ACCEPT_TRANSFER_PATH = '/transfers/accept/{token}/';

export const transferCalls = {
  setTransfers: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/set_transfers/',
    encoding: 'form',
    request: z.object({
      transfers: z
        .array(transferRowSchema)
        .check(z.minLength(1, 'must list at least one ticket to send'), z.maxLength(MAX_TRANSFER_ROWS)),
    }),
    response: done,
  }),
} as const;

/** The recipient's side: what was sent to them, and accepting it (a browser gets pages; anything else JSON). */
export const transferAcceptCalls = {
  getTransferOffer: call({
    method: 'GET',
    path: ACCEPT_TRANSFER_PATH,
    encoding: 'none',
    request: z.object({ token: tokenField }),
    response: z.object({
      from: z.string(),
      tickets: z.array(z.object({ event_name: z.string(), ticket_name: z.string(), qty: z.number() })),
      message: z.string(),
      accepted: z.boolean(),
    }),
  }),
  acceptTransfer: call({
    method: 'POST',
    path: ACCEPT_TRANSFER_PATH,
    encoding: 'form',
    request: z.object({ token: tokenField }),
    response: z.object({ accepted: z.literal(true), wallet: z.string() }),
  }),
} as const;
