/** Filling the basket: lines added from an event page, quantities, codes, refund protection, removal. */
import { z } from 'zod/mini';
import { call, done, formBool, formId, formMoney, formQty, formQtyOrNone, formText } from './primitives.ts';

const addLineSchema = z.object({
  /** Ticket type id. */
  ticket: formId,
  vz_id: z.optional(formText(64)),
  has_offer: z.optional(formBool),
  /** 0: a line of the order form left at none, which is not added. */
  qty: formQtyOrNone,
  seats: z.optional(
    z
      .array(
        z.object({
          section: formText(32),
          row: formText(32),
          number: formText(32),
          hold_token: z.optional(formText(128)),
        }),
      )
      .check(z.maxLength(100)),
  ),
});

const addGiftVoucherSchema = z.object({ id: formId, qty: formQtyOrNone, value: formMoney });

const lineKey = formText(64);
const MAX_LINES = 50;
const fewLines = z.refine<Record<string, unknown>>((lines) => Object.keys(lines).length <= MAX_LINES, {
  message: `At most ${MAX_LINES} lines can be added at once`,
});

export const basketCalls = {
  addToBasket: call({
    method: 'POST',
    path: '/do/checkout/add/',
    encoding: 'form',
    request: z.object({
      parent_event_id: z.optional(z.union([z.literal(''), z.literal('null'), formId])),
      /** Keyed `eventId|eventDateId|ticketType|0`. */
      ticket: z.optional(z.record(lineKey, addLineSchema).check(fewLines)),
      /** Gift vouchers are products too, keyed by voucher id. */
      gift_voucher: z.optional(z.record(lineKey, addGiftVoucherSchema).check(fewLines)),
    }),
    response: z.object({ success: z.literal(true), redirect: z.string() }),
  }),
  updateTicketQuantity: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/update_ticket_quantity/',
    encoding: 'form',
    request: z.object({ ticket_id: formId, quantity: formQty }),
    response: done,
  }),
  updateGiftVoucherQuantity: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/update_gift_voucher_quantity/',
    encoding: 'form',
    request: z.object({ gift_voucher_id: formId, qty: formQty, value: formMoney }),
    response: done,
  }),
  updateRefundProtection: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/update_refund_protection/',
    encoding: 'form',
    request: z.object({ refund_protection: formBool }),
    response: done,
  }),
  setCode: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/set_code/',
    encoding: 'form',
    request: z.object({ code: formText(64, 1) }),
    response: z.object({ code_applied: z.boolean() }),
  }),
  removeFromBasket: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/remove_from_basket/',
    encoding: 'form',
    request: z.object({ ticket_id: formId }),
    response: done,
  }),
  removeGiftVoucherFromBasket: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/remove_gift_voucher_from_basket/',
    encoding: 'form',
    request: z.object({ gift_voucher_id: formId, value: formMoney }),
    response: done,
  }),
} as const;
