/**
 * Transfer tickets (spec 001 §2 Transfer tickets, §4 Transfers, §5 Transfer row): a collapsible
 * section per ticket type (seated tickets left out) with its rows; each row a quantity, a gift
 * choice with its schedule, a recipient and a message. Send tickets skips rows at quantity 0; the
 * first invalid row opens its section and shows its messages, and nothing is sent. set_transfers
 * sends the rest; success ends the chart (tickets_sent, can_transfer_tickets false), a failure
 * shows its text and the buyer may send again.
 */
import { assertEvent, assign, setup } from 'xstate';
import { ADDED_ROW_QTY, type CalendarDate, type RequestOf, type ResponseOf, type SendGift } from '../../contract';
import {
  canAddRow,
  canIncrease,
  fieldValue,
  firstRows,
  isValidRow,
  newRow,
  rowsOf,
  rowsToSend,
  wireRows,
  type Row,
  type RowField,
  type TransferTicket,
} from './transferRows';
import { TRANSFER_MESSAGES } from '../../contract/messages/transfers';
import { providedByApp } from '../providedByApp';

/** A row is addressed by its ticket and its position among that ticket's rows (0 is the first). */
export interface RowAddress {
  ticketId: number;
  index: number;
}

export type TransfersEvent =
  | { type: 'SECTION_TOGGLED'; ticketId: number }
  | ({ type: 'QTY_INCREASED' } & RowAddress)
  | ({ type: 'QTY_DECREASED' } & RowAddress)
  | { type: 'ROW_ADDED'; ticketId: number }
  | ({ type: 'ROW_REMOVED' } & RowAddress)
  | ({ type: 'GIFT_TOGGLED' } & RowAddress)
  | ({ type: 'DELIVERY_CHOSEN'; choice: SendGift } & RowAddress)
  | ({ type: 'FIELD_CHANGED'; field: RowField; value: string } & RowAddress)
  | { type: 'SEND_CLICKED' };

export interface TransfersInput {
  /** The order's tickets that can be transferred (no seated ones): see `transferableTickets`. */
  tickets: TransferTicket[];
  /** Today in the UK: a scheduled gift's date may not be earlier. */
  today: CalendarDate;
}

export type TransfersOutput = { kind: 'transferred' };

export interface TransfersContext {
  tickets: TransferTicket[];
  today: CalendarDate;
  rows: Row[];
  nextKey: number;
  /** Ticket ids whose sections are open; all start collapsed. */
  open: number[];
  /** The row whose messages are shown (the first invalid one on the last submit). */
  pointedOut: number | null;
  /** can_transfer_tickets: false once the tickets are sent. */
  canTransferTickets: boolean;
  /** The failed send, in the words the buyer is shown. */
  problem: string | null;
}

/** The row an event addresses, if there is one. */
export function rowAt(context: Pick<TransfersContext, 'rows'>, address: RowAddress): Row | undefined {
  return rowsOf(context.rows, address.ticketId)[address.index];
}

const ticketOf = (context: TransfersContext, ticketId: number) => context.tickets.find((t) => t.ticket_id === ticketId);

type AddressedEvent = Extract<TransfersEvent, RowAddress>;

function updateRow(context: TransfersContext, address: RowAddress, change: (row: Row) => Partial<Row>): Row[] {
  const target = rowAt(context, address);
  return context.rows.map((r) => (r === target ? { ...r, ...change(r) } : r));
}

export const transfersMachine = setup({
  types: {
    context: {} as TransfersContext,
    events: {} as TransfersEvent,
    input: {} as TransfersInput,
    output: {} as TransfersOutput,
    children: {} as { setTransfers: 'setTransfers' },
    tags: {} as 'sending',
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide this actor.
  actors: {
    /** Rejects with an Error whose message is the text to show. */
    setTransfers: providedByApp.call<ResponseOf<'setTransfers'>, RequestOf<'setTransfers'>>('setTransfers'),
  },
  actions: {
    toggleSection: assign(({ context, event }) => {
      assertEvent(event, 'SECTION_TOGGLED');
      return {
        open: context.open.includes(event.ticketId)
          ? context.open.filter((id) => id !== event.ticketId)
          : [...context.open, event.ticketId],
      };
    }),
    increaseQty: assign(({ context, event }) => {
      assertEvent(event, 'QTY_INCREASED');
      return { rows: updateRow(context, event, (r) => ({ qty: r.qty + 1 })) };
    }),
    decreaseQty: assign(({ context, event }) => {
      assertEvent(event, 'QTY_DECREASED');
      return { rows: updateRow(context, event, (r) => ({ qty: r.qty - 1 })) };
    }),
    addRow: assign(({ context, event }) => {
      assertEvent(event, 'ROW_ADDED');
      return {
        rows: [...context.rows, newRow(context.nextKey, event.ticketId, ADDED_ROW_QTY)],
        nextKey: context.nextKey + 1,
      };
    }),
    removeRow: assign(({ context, event }) => {
      assertEvent(event, 'ROW_REMOVED');
      const gone = rowAt(context, event)!;
      return {
        rows: context.rows.filter((r) => r !== gone),
        pointedOut: context.pointedOut === gone.key ? null : context.pointedOut,
      };
    }),
    toggleGift: assign(({ context, event }) => {
      assertEvent(event, 'GIFT_TOGGLED');
      return { rows: updateRow(context, event, (r) => ({ is_gift: !r.is_gift })) };
    }),
    chooseDelivery: assign(({ context, event }) => {
      assertEvent(event, 'DELIVERY_CHOSEN');
      return { rows: updateRow(context, event, () => ({ send_gift: event.choice })) };
    }),
    changeField: assign(({ context, event }) => {
      assertEvent(event, 'FIELD_CHANGED');
      return { rows: updateRow(context, event, () => ({ [event.field]: fieldValue(event.field, event.value) })) };
    }),
    pointOutFirstInvalid: assign(({ context }) => {
      const first = rowsToSend(context.rows).find((r) => !isValidRow(r, context.today))!;
      return {
        pointedOut: first.key,
        open: context.open.includes(first.ticket_id) ? context.open : [...context.open, first.ticket_id],
      };
    }),
    clearProblem: assign({ problem: null, pointedOut: null }),
    markSent: assign({ canTransferTickets: false }),
    showSendFailure: assign((_, params: { error: unknown }) => ({
      problem:
        params.error instanceof Error && params.error.message ? params.error.message : TRANSFER_MESSAGES.unableToSend,
    })),
  },
  guards: {
    isATicket: ({ context, event }) => {
      assertEvent(event, ['SECTION_TOGGLED', 'ROW_ADDED']);
      return ticketOf(context, event.ticketId) !== undefined;
    },
    canIncrease: ({ context, event }) => {
      assertEvent(event, 'QTY_INCREASED');
      const ticket = ticketOf(context, event.ticketId);
      return rowAt(context, event) !== undefined && ticket !== undefined && canIncrease(context.rows, ticket);
    },
    /** A row's quantity cannot go below 0. */
    canDecrease: ({ context, event }) => {
      assertEvent(event, 'QTY_DECREASED');
      return (rowAt(context, event)?.qty ?? 0) > 0;
    },
    canAddRow: ({ context, event }) => {
      assertEvent(event, 'ROW_ADDED');
      const ticket = ticketOf(context, event.ticketId);
      return ticket !== undefined && canAddRow(context.rows, ticket);
    },
    /** Every row but the first of its ticket has a remove button. */
    isRemovable: ({ context, event }) => {
      assertEvent(event, 'ROW_REMOVED');
      return event.index > 0 && rowAt(context, event) !== undefined;
    },
    rowExists: ({ context, event }) => rowAt(context, event as AddressedEvent) !== undefined,
    isDeliveryChoice: ({ context, event }) => {
      assertEvent(event, 'DELIVERY_CHOSEN');
      return rowAt(context, event) !== undefined && (event.choice === 'Schedule' || event.choice === 'Send now');
    },
    nothingToSend: ({ context }) => rowsToSend(context.rows).length === 0,
    someRowIsInvalid: ({ context }) => rowsToSend(context.rows).some((r) => !isValidRow(r, context.today)),
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: no target names the transfers chart by its id.
  id: 'transfers',
  description: 'Transfer tickets: rows per ticket type, validated on submit and sent with set_transfers.',
  context: ({ input }) => ({
    tickets: input.tickets,
    today: input.today,
    rows: firstRows(input.tickets),
    nextKey: input.tickets.length + 1,
    open: [],
    pointedOut: null,
    canTransferTickets: true,
    problem: null,
  }),
  output: { kind: 'transferred' },
  initial: 'editing',
  states: {
    editing: {
      on: {
        SECTION_TOGGLED: { guard: 'isATicket', actions: 'toggleSection' },
        QTY_INCREASED: {
          guard: 'canIncrease',
          actions: 'increaseQty',
          description: 'Capped by what the ticket has left to add.',
        },
        QTY_DECREASED: { guard: 'canDecrease', actions: 'decreaseQty' },
        ROW_ADDED: { guard: 'canAddRow', actions: 'addRow', description: 'A new row starts at quantity 1.' },
        ROW_REMOVED: { guard: 'isRemovable', actions: 'removeRow' },
        GIFT_TOGGLED: { guard: 'rowExists', actions: 'toggleGift' },
        DELIVERY_CHOSEN: { guard: 'isDeliveryChoice', actions: 'chooseDelivery' },
        FIELD_CHANGED: { guard: 'rowExists', actions: 'changeField' },
        SEND_CLICKED: [
          { guard: 'nothingToSend', description: 'Send tickets is disabled while every row is at quantity 0.' },
          {
            guard: 'someRowIsInvalid',
            actions: 'pointOutFirstInvalid',
            description: 'The first invalid row opens its section and shows its messages; nothing is sent.',
          },
          { target: 'sending', actions: 'clearProblem' },
        ],
      },
    },
    sending: {
      tags: ['sending'],
      description: 'sending_tickets: set_transfers is in flight.',
      invoke: {
        src: 'setTransfers',
        id: 'setTransfers',
        input: ({ context }) => ({ transfers: wireRows(context.rows) }),
        onDone: { target: 'sent', actions: 'markSent' },
        onError: {
          target: 'editing',
          actions: { type: 'showSendFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    sent: { type: 'final', description: 'tickets_sent: can_transfer_tickets is now false.' },
  },
});
