/**
 * Basket edits (spec 000 §4 "Quantity and basket changes", §5 "Basket"). Ticket quantities wait
 * for a quiet spell (quantityDebounce) and are then sent one line at a time; every other change
 * is sent at once. After each round the checkout is fetched afresh so the screens show the
 * server's prices. Failures are reported to the root as notices, which keeps one list of toasts.
 */
import { assertEvent, assign, sendParent, setup } from 'xstate';
import type { Checkout } from '../../contract';
import type { NoticeKind } from '../../contract/notice.ts';
import type { BasketEvent } from './basket.types.ts';
import { MESSAGES } from '../../contract/messages/checkout';
import { BASKET_FAILURES, maximumWarning, minimumWarning } from '../../contract/messages/basket';
import { providedByApp } from '../providedByApp';

export type BasketTag = 'updating';

export interface BasketContext {
  /** Quantities the buyer typed that the server does not hold yet, by ticket id. */
  pendingQty: Record<number, number>;
  /** Ticket ids whose pending quantity still has to be sent, in the order they changed. */
  unsentIds: number[];
  /** Ticket ids held back because they are under the line's minimum per customer. */
  blockedIds: number[];
  lineWarnings: Record<number, string>;
  codeResult: 'applied' | 'invalid' | null;
  /**
   * The refund protection the buyer just chose, shown at once while the server is told; null once
   * the checkout read afresh shows the server's, or after a failure rolls the choice back.
   */
  refundProtection: boolean | null;
}

function without<T>(record: Record<number, T>, id: number): Record<number, T> {
  const next = { ...record };
  delete next[id];
  return next;
}

/** A failed call is reported to the buyer; the basket is read afresh either way. */
const reportAndReload = (text: string) =>
  ({ target: '#basket.reloading', actions: { type: 'notify', params: { kind: 'error', text } } }) as const;

type Done = { readonly success: true };

export const basketMachine = setup({
  types: {
    context: {} as BasketContext,
    events: {} as BasketEvent,
    tags: {} as BasketTag,
    children: {} as {
      updateTicketQuantity: 'updateTicketQuantity';
      updateGiftVoucherQuantity: 'updateGiftVoucherQuantity';
      updateRefundProtection: 'updateRefundProtection';
      setCode: 'setCode';
      removeFromBasket: 'removeFromBasket';
      removeGiftVoucherFromBasket: 'removeGiftVoucherFromBasket';
      loadCheckout: 'loadCheckout';
    },
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide these actors.
  actors: {
    updateTicketQuantity: providedByApp.call<Done, { ticket_id: number; quantity: number }>('updateTicketQuantity'),
    updateGiftVoucherQuantity: providedByApp.call<Done, { gift_voucher_id: number; qty: number; value: number }>(
      'updateGiftVoucherQuantity',
    ),
    updateRefundProtection: providedByApp.call<Done, { refund_protection: boolean }>('updateRefundProtection'),
    setCode: providedByApp.call<{ code_applied: boolean }, { code: string }>('setCode'),
    removeFromBasket: providedByApp.call<Done, { ticket_id: number }>('removeFromBasket'),
    removeGiftVoucherFromBasket: providedByApp.call<Done, { gift_voucher_id: number; value: number }>(
      'removeGiftVoucherFromBasket',
    ),
    /** A fresh read of the checkout (not the cache), so the screens show the server's prices. */
    loadCheckout: providedByApp.call<Checkout, void>('loadCheckout'),
  },
  actions: {
    holdBelowMinimum: assign(({ context, event: e }) => {
      assertEvent(e, 'QUANTITY_CHANGED');
      return {
        pendingQty: { ...context.pendingQty, [e.ticketId]: Math.max(1, e.qty) },
        unsentIds: context.unsentIds.filter((id) => id !== e.ticketId),
        blockedIds: context.blockedIds.includes(e.ticketId) ? context.blockedIds : [...context.blockedIds, e.ticketId],
        lineWarnings: { ...context.lineWarnings, [e.ticketId]: minimumWarning(e.minPerCustomer) },
      };
    }),
    capAtMaximum: assign(({ context, event: e }) => {
      assertEvent(e, 'QUANTITY_CHANGED');
      return {
        pendingQty: { ...context.pendingQty, [e.ticketId]: e.maxCanReserve },
        unsentIds: [...context.unsentIds.filter((id) => id !== e.ticketId), e.ticketId],
        blockedIds: context.blockedIds.filter((id) => id !== e.ticketId),
        lineWarnings: { ...context.lineWarnings, [e.ticketId]: maximumWarning(e.maxCanReserve) },
      };
    }),
    queueQuantity: assign(({ context, event: e }) => {
      assertEvent(e, 'QUANTITY_CHANGED');
      return {
        pendingQty: { ...context.pendingQty, [e.ticketId]: Math.max(1, Math.trunc(e.qty)) },
        unsentIds: [...context.unsentIds.filter((id) => id !== e.ticketId), e.ticketId],
        blockedIds: context.blockedIds.filter((id) => id !== e.ticketId),
        lineWarnings: without(context.lineWarnings, e.ticketId),
      };
    }),
    markFirstSent: assign({ unsentIds: ({ context }) => context.unsentIds.slice(1) }),
    forgetRemovedTicket: assign(({ context, event }) => {
      assertEvent(event, 'TICKET_REMOVED');
      const id = event.ticketId;
      return {
        pendingQty: without(context.pendingQty, id),
        unsentIds: context.unsentIds.filter((x) => x !== id),
        blockedIds: context.blockedIds.filter((x) => x !== id),
        lineWarnings: without(context.lineWarnings, id),
      };
    }),
    /** After a fresh read only what still waits to be sent, or is held back, differs from the server. */
    settlePending: assign({
      refundProtection: null,
      pendingQty: ({ context }) =>
        Object.fromEntries(
          Object.entries(context.pendingQty).filter(
            ([id]) => context.unsentIds.includes(Number(id)) || context.blockedIds.includes(Number(id)),
          ),
        ),
    }),
    showChosenRefundProtection: assign(({ event }) => {
      assertEvent(event, 'REFUND_PROTECTION_CHOSEN');
      return { refundProtection: event.refundProtection };
    }),
    forgetChosenRefundProtection: assign({ refundProtection: null }),
    keepCodeResult: assign((_, params: { applied: boolean }) => ({
      codeResult: params.applied ? ('applied' as const) : ('invalid' as const),
    })),
    notify: sendParent((_, params: { kind: NoticeKind; text: string }) => ({
      type: 'NOTICE_RAISED' as const,
      kind: params.kind,
      text: params.text,
    })),
  },
  guards: {
    isBelowMinimum: ({ event }) => {
      assertEvent(event, 'QUANTITY_CHANGED');
      return event.minPerCustomer > 1 && event.qty < event.minPerCustomer;
    },
    isAboveMaximum: ({ event }) => {
      assertEvent(event, 'QUANTITY_CHANGED');
      return event.maxCanReserve > 0 && event.qty > event.maxCanReserve;
    },
    hasUnsentQuantities: ({ context }) => context.unsentIds.length > 0,
    hasMoreUnsentQuantities: ({ context }) => context.unsentIds.length > 1,
  },
  delays: {
    quantityDebounce: 2000,
  },
}).createMachine({
  id: 'basket',
  description: 'Sends the buyer’s basket changes: quantities after a quiet spell, everything else at once.',
  context: {
    pendingQty: {},
    unsentIds: [],
    blockedIds: [],
    lineWarnings: {},
    codeResult: null,
    refundProtection: null,
  },
  initial: 'editable',
  states: {
    editable: {
      initial: 'idle',
      states: {
        idle: {},
        debouncing: {
          description: 'Waits quantityDebounce after the last quantity change before sending.',
          after: {
            quantityDebounce: [
              { guard: 'hasUnsentQuantities', target: '#basket.updating.ticketQuantities' },
              // Stryker disable next-line ObjectLiteral,StringLiteral: debouncing with nothing to send and idle show the buyer the same screen.
              { target: 'idle', description: 'Every change was held back by a minimum.' },
            ],
          },
        },
      },
      on: {
        QUANTITY_CHANGED: [
          {
            guard: 'isBelowMinimum',
            actions: 'holdBelowMinimum',
            description: 'Not sent; reserving stays blocked until the quantity reaches the minimum.',
          },
          {
            guard: 'isAboveMaximum',
            target: '.debouncing',
            actions: 'capAtMaximum',
            description: 'Capped at max_can_reserve, and the capped quantity is sent.',
          },
          // Entering debouncing again (from itself too) restarts the quiet spell.
          { target: '.debouncing', actions: 'queueQuantity' },
        ],
        GIFT_VOUCHER_QUANTITY_CHANGED: { target: 'updating.giftVoucherQuantity' },
        TICKET_REMOVED: { target: 'updating.removingTicket', actions: 'forgetRemovedTicket' },
        GIFT_VOUCHER_REMOVED: { target: 'updating.removingGiftVoucher' },
        REFUND_PROTECTION_CHOSEN: {
          target: 'updating.refundProtection',
          actions: 'showChosenRefundProtection',
          description: 'The choice shows at once; a failure rolls it back.',
        },
        CODE_SUBMITTED: { target: 'updating.code' },
      },
    },
    updating: {
      tags: ['updating'],
      description: 'One change at a time is with the server; the quantity inputs are held.',
      initial: 'ticketQuantities',
      states: {
        ticketQuantities: {
          invoke: {
            src: 'updateTicketQuantity',
            id: 'updateTicketQuantity',
            input: ({ context }) => {
              const ticketId = context.unsentIds[0] ?? 0;
              return { ticket_id: ticketId, quantity: context.pendingQty[ticketId] ?? 1 };
            },
            onDone: [
              { guard: 'hasMoreUnsentQuantities', target: 'ticketQuantities', reenter: true, actions: 'markFirstSent' },
              { target: '#basket.reloading', actions: 'markFirstSent' },
            ],
            onError: {
              target: '#basket.reloading',
              actions: [
                'markFirstSent',
                { type: 'notify', params: { kind: 'error', text: BASKET_FAILURES.updateTicketQuantity } },
              ],
            },
          },
        },
        giftVoucherQuantity: {
          invoke: {
            src: 'updateGiftVoucherQuantity',
            id: 'updateGiftVoucherQuantity',
            input: ({ event }) => {
              assertEvent(event, 'GIFT_VOUCHER_QUANTITY_CHANGED');
              return {
                gift_voucher_id: event.giftVoucherId,
                qty: Math.max(1, Math.trunc(event.qty)),
                value: event.value,
              };
            },
            onDone: { target: '#basket.reloading' },
            onError: reportAndReload(BASKET_FAILURES.updateGiftVoucherQuantity),
          },
        },
        removingTicket: {
          invoke: {
            src: 'removeFromBasket',
            id: 'removeFromBasket',
            input: ({ event }) => {
              assertEvent(event, 'TICKET_REMOVED');
              return { ticket_id: event.ticketId };
            },
            onDone: { target: '#basket.reloading' },
            onError: reportAndReload(BASKET_FAILURES.removeFromBasket),
          },
        },
        removingGiftVoucher: {
          invoke: {
            src: 'removeGiftVoucherFromBasket',
            id: 'removeGiftVoucherFromBasket',
            input: ({ event }) => {
              assertEvent(event, 'GIFT_VOUCHER_REMOVED');
              return { gift_voucher_id: event.giftVoucherId, value: event.value };
            },
            onDone: { target: '#basket.reloading' },
            onError: reportAndReload(BASKET_FAILURES.removeGiftVoucherFromBasket),
          },
        },
        refundProtection: {
          invoke: {
            src: 'updateRefundProtection',
            id: 'updateRefundProtection',
            input: ({ event }) => {
              assertEvent(event, 'REFUND_PROTECTION_CHOSEN');
              return { refund_protection: event.refundProtection };
            },
            onDone: { target: '#basket.reloading' },
            onError: {
              target: '#basket.reloading',
              actions: [
                'forgetChosenRefundProtection',
                { type: 'notify', params: { kind: 'error', text: BASKET_FAILURES.updateRefundProtection } },
              ],
            },
          },
        },
        code: {
          invoke: {
            src: 'setCode',
            id: 'setCode',
            input: ({ event }) => {
              assertEvent(event, 'CODE_SUBMITTED');
              return { code: event.code };
            },
            onDone: {
              target: '#basket.reloading',
              actions: { type: 'keepCodeResult', params: ({ event }) => ({ applied: event.output.code_applied }) },
            },
            onError: reportAndReload(BASKET_FAILURES.setCode),
          },
        },
      },
    },
    reloading: {
      tags: ['updating'],
      description: 'A fresh read of the checkout, also after a failure, so the inputs show what the server holds.',
      invoke: {
        src: 'loadCheckout',
        id: 'loadCheckout',
        onDone: [
          {
            guard: 'hasUnsentQuantities',
            target: 'editable.debouncing',
            actions: 'settlePending',
            description: 'Quantities typed before a one-off change are still to be sent.',
          },
          { target: 'editable.idle', actions: 'settlePending' },
        ],
        onError: [
          {
            guard: 'hasUnsentQuantities',
            target: 'editable.debouncing',
            actions: [
              'settlePending',
              { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToGetCheckout } },
            ],
          },
          {
            target: 'editable.idle',
            actions: [
              'settlePending',
              { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToGetCheckout } },
            ],
          },
        ],
      },
    },
  },
});
