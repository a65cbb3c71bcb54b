/**
 * Basket edits (spec 000 §4 "Quantity and basket changes", §5 "Basket"). Ticket quantities wait
 * for a quiet spell (quantityDebounce) and are then sent one line at a time; every other change
 * is sent at once. After each round the checkout is fetched afresh so the screens show the
 * server's prices. Failures are reported to the root as notices, which keeps one list of toasts.
 */
import { assign, fromPromise, sendParent, setup } from 'xstate';
import type { BasketEvent, Checkout, NoticeKind } from '../checkout/checkout.types';

export interface BasketContext {
  /** Quantities the buyer typed that the server does not hold yet, by ticket id. */
  pendingQty: Record<number, number>;
  /** Ticket ids whose pending quantity still has to be sent, in the order they changed. */
  unsentIds: number[];
  /** Ticket ids held back because they are under the line's minimum per customer. */
  blockedIds: number[];
  lineWarnings: Record<number, string>;
  codeResult: 'applied' | 'invalid' | null;
}

type QuantityChanged = Extract<BasketEvent, { type: 'QUANTITY_CHANGED' }>;

export const maximumWarning = (n: number) => `You can only reserve ${n} tickets of this type`;
export const minimumWarning = (n: number) => `You must purchase a minimum of ${n} tickets of this type`;

function without<T>(record: Record<number, T>, id: number): Record<number, T> {
  const next = { ...record };
  delete next[id];
  return next;
}

/** A failed call is reported to the buyer; the basket is read afresh either way. */
const reportAndReload = (text: string) =>
  ({ target: '#basket.reloading', actions: { type: 'notify', params: { kind: 'error', text } } }) as const;

const done = { success: true } as const;
type Done = typeof done;

export const basketMachine = setup({
  types: {
    context: {} as BasketContext,
    events: {} as BasketEvent,
  },
  actors: {
    updateTicketQuantity: fromPromise<Done, { ticket_id: number; quantity: number }>(() =>
      Promise.reject(new Error('updateTicketQuantity is provided by the app')),
    ),
    updateGiftVoucherQuantity: fromPromise<Done, { gift_voucher_id: number; qty: number; value: number }>(() =>
      Promise.reject(new Error('updateGiftVoucherQuantity is provided by the app')),
    ),
    updateRefundProtection: fromPromise<Done, { refund_protection: boolean }>(() =>
      Promise.reject(new Error('updateRefundProtection is provided by the app')),
    ),
    setCode: fromPromise<{ code_applied: boolean }, { code: string }>(() =>
      Promise.reject(new Error('setCode is provided by the app')),
    ),
    removeFromBasket: fromPromise<Done, { ticket_id: number }>(() =>
      Promise.reject(new Error('removeFromBasket is provided by the app')),
    ),
    removeGiftVoucherFromBasket: fromPromise<Done, { gift_voucher_id: number; value: number }>(() =>
      Promise.reject(new Error('removeGiftVoucherFromBasket is provided by the app')),
    ),
    /** A fresh read of the checkout (not the cache), so the screens show the server's prices. */
    loadCheckout: fromPromise<Checkout, void>(() => Promise.reject(new Error('loadCheckout is provided by the app'))),
  },
  actions: {
    holdBelowMinimum: assign(({ context, event }) => {
      const e = event as QuantityChanged;
      return {
        pendingQty: { ...context.pendingQty, [e.ticketId]: Math.max(1, e.qty) },
        unsentIds: context.unsentIds.filter((id) => id !== e.ticketId),
        blockedIds: context.blockedIds.includes(e.ticketId) ? context.blockedIds : [...context.blockedIds, e.ticketId],
        lineWarnings: { ...context.lineWarnings, [e.ticketId]: minimumWarning(e.minPerCustomer) },
      };
    }),
    capAtMaximum: assign(({ context, event }) => {
      const e = event as QuantityChanged;
      return {
        pendingQty: { ...context.pendingQty, [e.ticketId]: e.maxCanReserve },
        unsentIds: [...context.unsentIds.filter((id) => id !== e.ticketId), e.ticketId],
        blockedIds: context.blockedIds.filter((id) => id !== e.ticketId),
        lineWarnings: { ...context.lineWarnings, [e.ticketId]: maximumWarning(e.maxCanReserve) },
      };
    }),
    queueQuantity: assign(({ context, event }) => {
      const e = event as QuantityChanged;
      return {
        pendingQty: { ...context.pendingQty, [e.ticketId]: Math.max(1, Math.trunc(e.qty)) },
        unsentIds: [...context.unsentIds.filter((id) => id !== e.ticketId), e.ticketId],
        blockedIds: context.blockedIds.filter((id) => id !== e.ticketId),
        lineWarnings: without(context.lineWarnings, e.ticketId),
      };
    }),
    markFirstSent: assign({ unsentIds: ({ context }) => context.unsentIds.slice(1) }),
    forgetRemovedTicket: assign(({ context, event }) => {
      const id = event.type === 'TICKET_REMOVED' ? event.ticketId : -1;
      return {
        pendingQty: without(context.pendingQty, id),
        unsentIds: context.unsentIds.filter((x) => x !== id),
        blockedIds: context.blockedIds.filter((x) => x !== id),
        lineWarnings: without(context.lineWarnings, id),
      };
    }),
    /** After a fresh read only what still waits to be sent, or is held back, differs from the server. */
    settlePending: assign({
      pendingQty: ({ context }) =>
        Object.fromEntries(
          Object.entries(context.pendingQty).filter(
            ([id]) => context.unsentIds.includes(Number(id)) || context.blockedIds.includes(Number(id)),
          ),
        ),
    }),
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
      const e = event as QuantityChanged;
      return e.minPerCustomer > 1 && e.qty < e.minPerCustomer;
    },
    isAboveMaximum: ({ event }) => {
      const e = event as QuantityChanged;
      return e.maxCanReserve > 0 && e.qty > e.maxCanReserve;
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
  context: { pendingQty: {}, unsentIds: [], blockedIds: [], lineWarnings: {}, codeResult: null },
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
            reenter: true,
            actions: 'capAtMaximum',
            description: 'Capped at max_can_reserve, and the capped quantity is sent.',
          },
          { target: '.debouncing', reenter: true, actions: 'queueQuantity' },
        ],
        GIFT_VOUCHER_QUANTITY_CHANGED: { target: 'updating.giftVoucherQuantity' },
        TICKET_REMOVED: { target: 'updating.removingTicket', actions: 'forgetRemovedTicket' },
        GIFT_VOUCHER_REMOVED: { target: 'updating.removingGiftVoucher' },
        REFUND_PROTECTION_CHOSEN: { target: 'updating.refundProtection' },
        CODE_SUBMITTED: { target: 'updating.code' },
      },
    },
    updating: {
      description: 'One change at a time is with the server; the quantity inputs are disabled.',
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
                { type: 'notify', params: { kind: 'error', text: 'Unable to update Ticket quantity. Please try again later' } },
              ],
            },
          },
        },
        giftVoucherQuantity: {
          invoke: {
            src: 'updateGiftVoucherQuantity',
            id: 'updateGiftVoucherQuantity',
            input: ({ event }) => {
              const e = event as Extract<BasketEvent, { type: 'GIFT_VOUCHER_QUANTITY_CHANGED' }>;
              return { gift_voucher_id: e.giftVoucherId, qty: Math.max(1, Math.trunc(e.qty)), value: e.value };
            },
            onDone: { target: '#basket.reloading' },
            onError: reportAndReload('Unable to update Gift Voucher quantity. Please try again later'),
          },
        },
        removingTicket: {
          invoke: {
            src: 'removeFromBasket',
            id: 'removeFromBasket',
            input: ({ event }) => ({ ticket_id: (event as Extract<BasketEvent, { type: 'TICKET_REMOVED' }>).ticketId }),
            onDone: { target: '#basket.reloading' },
            onError: reportAndReload('Unable to remove the Ticket from the basket. Please try again later'),
          },
        },
        removingGiftVoucher: {
          invoke: {
            src: 'removeGiftVoucherFromBasket',
            id: 'removeGiftVoucherFromBasket',
            input: ({ event }) => {
              const e = event as Extract<BasketEvent, { type: 'GIFT_VOUCHER_REMOVED' }>;
              return { gift_voucher_id: e.giftVoucherId, value: e.value };
            },
            onDone: { target: '#basket.reloading' },
            onError: reportAndReload('Unable to remove the Gift Voucher from the basket. Please try again later'),
          },
        },
        refundProtection: {
          invoke: {
            src: 'updateRefundProtection',
            id: 'updateRefundProtection',
            input: ({ event }) => ({
              refund_protection: (event as Extract<BasketEvent, { type: 'REFUND_PROTECTION_CHOSEN' }>).refundProtection,
            }),
            onDone: { target: '#basket.reloading' },
            onError: reportAndReload('Unable to update Refund protection. Please try again later'),
          },
        },
        code: {
          invoke: {
            src: 'setCode',
            id: 'setCode',
            input: ({ event }) => ({ code: (event as Extract<BasketEvent, { type: 'CODE_SUBMITTED' }>).code }),
            onDone: {
              target: '#basket.reloading',
              actions: { type: 'keepCodeResult', params: ({ event }) => ({ applied: event.output.code_applied }) },
            },
            onError: reportAndReload('Unable to set the Code. Please try again later'),
          },
        },
      },
    },
    reloading: {
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
              { type: 'notify', params: { kind: 'error', text: 'Unable to get Checkout data. Please try again later' } },
            ],
          },
          {
            target: 'editable.idle',
            actions: [
              'settlePending',
              { type: 'notify', params: { kind: 'error', text: 'Unable to get Checkout data. Please try again later' } },
            ],
          },
        ],
      },
    },
  },
});
