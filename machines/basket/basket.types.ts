/** What the basket screen sends the basket child (systemId 'basket'), invoked while on the basket step. */
export type BasketEvent =
  /** The buyer typed a quantity. The line is passed so the rules can be checked against it. */
  | { type: 'QUANTITY_CHANGED'; ticketId: number; qty: number; maxCanReserve: number; minPerCustomer: number }
  | { type: 'GIFT_VOUCHER_QUANTITY_CHANGED'; giftVoucherId: number; qty: number; value: number }
  | { type: 'TICKET_REMOVED'; ticketId: number }
  | { type: 'GIFT_VOUCHER_REMOVED'; giftVoucherId: number; value: number }
  | { type: 'REFUND_PROTECTION_CHOSEN'; refundProtection: boolean }
  | { type: 'CODE_SUBMITTED'; code: string };
