/** What the transfer screen shows, and the events it may send. */
import type { SnapshotFrom } from 'xstate';
import type { SendGift } from '../../contract';
import {
  canAddRow,
  canIncrease,
  isScheduledGift,
  rowProblems,
  rowsOf,
  rowsToSend,
  type RowField,
  type RowProblems,
} from './transferRows';
import { TRANSFER_MESSAGES } from '../../contract/messages/transfers';
import type { RowAddress, TransfersEvent, transfersMachine } from './transfers.machine';

export interface TransferRowView {
  key: number;
  index: number;
  qty: number;
  canIncrease: boolean;
  canDecrease: boolean;
  /** Every row but the first has a remove button. */
  removable: boolean;
  isGift: boolean;
  sendGift: SendGift;
  /** Delivery date and time are asked for a gift sent on schedule. */
  scheduled: boolean;
  name: string;
  email: string;
  deliveryDate: string;
  deliveryTime: string;
  message: string;
  /** Shown on the row pointed out by the last submit, as long as they apply. */
  problems: RowProblems;
}

export interface TransferSectionView {
  ticketId: number;
  /** 'event name - ticket name'. */
  title: string;
  /** How many of this ticket the order has. */
  qty: number;
  open: boolean;
  canAddRow: boolean;
  rows: TransferRowView[];
}

export interface TransfersView {
  sections: TransferSectionView[];
  /** Send tickets is enabled once some row has a quantity, and while nothing is being sent. */
  canSend: boolean;
  sendingTickets: boolean;
  ticketsSent: boolean;
  canTransferTickets: boolean;
  problem: string | null;
  /** 'Your tickets have been transferred', once sent. */
  success: string | null;
}

const NO_PROBLEMS: RowProblems = { name: null, email: null, date: null, time: null };

export function viewTransfers(snapshot: SnapshotFrom<typeof transfersMachine>): TransfersView {
  const c = snapshot.context;
  const sending = snapshot.hasTag('sending');
  const sent = snapshot.status === 'done';
  return {
    sections: c.tickets.map((ticket) => ({
      ticketId: ticket.ticket_id,
      title: `${ticket.event_name} - ${ticket.ticket_name}`,
      qty: ticket.qty,
      open: c.open.includes(ticket.ticket_id),
      canAddRow: canAddRow(c.rows, ticket),
      rows: rowsOf(c.rows, ticket.ticket_id).map((row, index) => ({
        key: row.key,
        index,
        qty: row.qty,
        canIncrease: canIncrease(c.rows, ticket),
        canDecrease: row.qty > 0,
        removable: index > 0,
        isGift: row.is_gift,
        sendGift: row.send_gift,
        scheduled: isScheduledGift(row),
        name: row.name,
        email: row.email,
        deliveryDate: row.delivery_date,
        deliveryTime: row.delivery_time,
        message: row.message,
        problems: c.pointedOut === row.key ? rowProblems(row, c.today) : NO_PROBLEMS,
      })),
    })),
    canSend: !sending && !sent && rowsToSend(c.rows).length > 0,
    sendingTickets: sending,
    ticketsSent: sent,
    canTransferTickets: c.canTransferTickets,
    problem: c.problem,
    success: sent ? TRANSFER_MESSAGES.transferred : null,
  };
}

export function transfersSenders(send: (event: TransfersEvent) => void) {
  return {
    toggleSection: (ticketId: number) => send({ type: 'SECTION_TOGGLED', ticketId }),
    increase: (row: RowAddress) => send({ type: 'QTY_INCREASED', ...row }),
    decrease: (row: RowAddress) => send({ type: 'QTY_DECREASED', ...row }),
    addRow: (ticketId: number) => send({ type: 'ROW_ADDED', ticketId }),
    removeRow: (row: RowAddress) => send({ type: 'ROW_REMOVED', ...row }),
    toggleGift: (row: RowAddress) => send({ type: 'GIFT_TOGGLED', ...row }),
    chooseDelivery: (row: RowAddress, choice: SendGift) => send({ type: 'DELIVERY_CHOSEN', ...row, choice }),
    change: (row: RowAddress, field: RowField, value: string) => send({ type: 'FIELD_CHANGED', ...row, field, value }),
    sendTickets: () => send({ type: 'SEND_CLICKED' }),
  };
}
