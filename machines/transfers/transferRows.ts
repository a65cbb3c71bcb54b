/**
 * The rules of transfer rows (spec 001 §3 Transfer row, §4 Transfers, §5 Transfer row, §9), pure:
 * which tickets can be transferred, the quantity caps, what makes a row valid, and the rows as
 * set_transfers carries them.
 */
import {
  ADDED_ROW_QTY,
  compareDates,
  DEFAULT_SEND_GIFT,
  FIRST_ROW_QTY,
  MAX_TRANSFER_MESSAGE,
  MAX_TRANSFER_NAME,
  parseTransferDate,
  type CalendarDate,
  type Checkout,
  type SendGift,
  type TicketLine,
  type TransferRowInput,
} from '../../contract';
import { TRANSFER_MESSAGES } from '../../contract/messages/transfers';

/** What a section needs of a ticket line. */
export type TransferTicket = Pick<TicketLine, 'ticket_id' | 'event_name' | 'ticket_name' | 'qty'>;

export interface Row {
  /** Unique in the form, for the screen's lists; events address rows by ticket and position. */
  key: number;
  ticket_id: number;
  name: string;
  email: string;
  qty: number;
  is_gift: boolean;
  send_gift: SendGift;
  /** dd/MM/yyyy, or '' when not chosen. */
  delivery_date: string;
  /** HH:mm, or ''. */
  delivery_time: string;
  message: string;
}

export type RowField = 'name' | 'email' | 'delivery_date' | 'delivery_time' | 'message';

type TransferSource = Pick<Checkout, 'tickets' | 'payment_complete' | 'payment_plan_remaining'>;

/** Spec 001 §4: tickets with seats cannot be transferred. */
export function transferableTickets(checkout: Pick<Checkout, 'tickets'>): TransferTicket[] {
  return checkout.tickets
    .filter((t) => t.seats.length === 0 && t.qty > 0)
    .map(({ ticket_id, event_name, ticket_name, qty }) => ({ ticket_id, event_name, ticket_name, qty }));
}

/**
 * Whether the order's tickets may be transferred at all: paid, delivered to the wallet (a payment
 * plan's are not until its last payment) and holding tickets. The order-completed tile shows then.
 */
export function canTransfer(checkout: TransferSource | null | undefined): boolean {
  return (
    !!checkout && checkout.payment_complete && checkout.payment_plan_remaining === null && checkout.tickets.length > 0
  );
}

/** The transfer tile (spec 001 §2 Order completed): shown only if transfer is allowed, disabled when every ticket is seated. */
export function transferTile(checkout: TransferSource | null | undefined): { shown: boolean; disabled: boolean } {
  const shown = canTransfer(checkout);
  return { shown, disabled: shown && transferableTickets(checkout!).length === 0 };
}

export function newRow(key: number, ticketId: number, qty: number): Row {
  return {
    key,
    ticket_id: ticketId,
    name: '',
    email: '',
    qty,
    is_gift: false,
    send_gift: DEFAULT_SEND_GIFT,
    delivery_date: '',
    delivery_time: '',
    message: '',
  };
}

/** One row per ticket type at the start, at quantity 0 (spec 001 §9). */
export function firstRows(tickets: TransferTicket[]): Row[] {
  return tickets.map((t, i) => newRow(i + 1, t.ticket_id, FIRST_ROW_QTY));
}

export const rowsOf = (rows: Row[], ticketId: number) => rows.filter((r) => r.ticket_id === ticketId);
export const totalOf = (rows: Row[], ticketId: number) => rowsOf(rows, ticketId).reduce((sum, r) => sum + r.qty, 0);

/** The quantity stepper's plus: the ticket's rows together may not pass its purchased quantity. */
export function canIncrease(rows: Row[], ticket: TransferTicket): boolean {
  return totalOf(rows, ticket.ticket_id) < ticket.qty;
}

/**
 * The plus that adds a row: refused when the row count already exceeds the ticket's quantity, or
 * when a new row (at quantity 1) would take the rows past it.
 */
export function canAddRow(rows: Row[], ticket: TransferTicket): boolean {
  return (
    rowsOf(rows, ticket.ticket_id).length <= ticket.qty && totalOf(rows, ticket.ticket_id) + ADDED_ROW_QTY <= ticket.qty
  );
}

export const isScheduledGift = (row: Pick<Row, 'is_gift' | 'send_gift'>) => row.is_gift && row.send_gift === 'Schedule';

export interface RowProblems {
  name: string | null;
  email: string | null;
  date: string | null;
  time: string | null;
}

/** What keeps a row from being sent (spec 001 §5), in the spec's words; all null for a valid row. */
export function rowProblems(row: Row, today: CalendarDate): RowProblems {
  const problems: RowProblems = {
    name: row.name.trim() === '' ? TRANSFER_MESSAGES.enterName : null,
    email: row.email.trim() === '' ? TRANSFER_MESSAGES.enterEmail : null,
    date: null,
    time: null,
  };
  if (isScheduledGift(row)) {
    const date = parseTransferDate(row.delivery_date);
    problems.date =
      date === null ? TRANSFER_MESSAGES.enterDate : compareDates(date, today) < 0 ? TRANSFER_MESSAGES.pastDate : null;
    problems.time = row.delivery_time === '' ? TRANSFER_MESSAGES.enterTime : null;
  }
  return problems;
}

export function isValidRow(row: Row, today: CalendarDate): boolean {
  return row.qty !== 0 && Object.values(rowProblems(row, today)).every((p) => p === null);
}

/** Rows with quantity 0 are skipped on submit. */
export const rowsToSend = (rows: Row[]) => rows.filter((r) => r.qty > 0);

/** The set_transfers rows: trimmed, the schedule only for a scheduled gift, the message only for a gift. */
export function wireRows(rows: Row[]): TransferRowInput[] {
  return rowsToSend(rows).map((r) => ({
    ticket_id: r.ticket_id,
    name: r.name.trim(),
    email: r.email.trim(),
    qty: r.qty,
    is_gift: r.is_gift,
    send_gift: r.send_gift,
    delivery_date: isScheduledGift(r) ? r.delivery_date : '',
    delivery_time: isScheduledGift(r) ? r.delivery_time : '',
    message: r.is_gift ? r.message.trim() : '',
  }));
}

/** What a field keeps of what is typed: names and messages are cut at their limits. */
export function fieldValue(field: RowField, value: string): string {
  if (field === 'name') return value.slice(0, MAX_TRANSFER_NAME);
  if (field === 'message') return value.slice(0, MAX_TRANSFER_MESSAGE);
  return value;
}

/** The date input's yyyy-mm-dd as the spec's dd/MM/yyyy, and back. */
export function fromDateInput(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}

export function toDateInput(text: string): string {
  const d = parseTransferDate(text);
  return d ? `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}` : '';
}
