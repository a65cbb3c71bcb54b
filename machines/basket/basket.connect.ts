/**
 * What the basket screen needs: the basket child's edits in flight, and what the screen may ask
 * of it. The spec's basket rules over that view are in contract/basketRules.ts.
 */
import type { SnapshotFrom } from 'xstate';
import type { GiftVoucherLine, TicketLine } from '../../contract';
import type { BasketEvent } from './basket.types.ts';
import type { basketMachine } from './basket.machine';
import { IDLE_BASKET, type BasketView } from '../../contract/basketRules.ts';

export function viewBasket(snapshot: SnapshotFrom<typeof basketMachine> | undefined): BasketView {
  if (!snapshot) return IDLE_BASKET;
  const isUpdating = snapshot.hasTag('updating');
  return {
    isUpdating,
    hasUnsavedChanges: isUpdating || snapshot.context.unsentIds.length > 0,
    pendingQty: snapshot.context.pendingQty,
    lineWarnings: snapshot.context.lineWarnings,
    minimumBlocked: snapshot.context.blockedIds.length > 0,
    codeResult: snapshot.context.codeResult,
    refundProtection: snapshot.context.refundProtection,
  };
}

type Send = ((event: BasketEvent) => void) | undefined;

/** The view plus what the basket screen may ask of it, so screens never build events from server fields. */
export function connectBasket(snapshot: SnapshotFrom<typeof basketMachine> | undefined, send: Send) {
  const view = viewBasket(snapshot);
  return {
    ...view,
    changeQuantity(line: Pick<TicketLine, 'ticket_id' | 'max_can_reserve' | 'min_per_customer'>, qty: number) {
      send?.({
        type: 'QUANTITY_CHANGED',
        ticketId: line.ticket_id,
        qty,
        maxCanReserve: line.max_can_reserve,
        minPerCustomer: line.min_per_customer,
      });
    },
    changeVoucherQuantity(line: Pick<GiftVoucherLine, 'id' | 'value'>, qty: number) {
      send?.({ type: 'GIFT_VOUCHER_QUANTITY_CHANGED', giftVoucherId: line.id, qty, value: line.value });
    },
    remove(line: Pick<TicketLine, 'ticket_id'>) {
      send?.({ type: 'TICKET_REMOVED', ticketId: line.ticket_id });
    },
    removeVoucher(line: Pick<GiftVoucherLine, 'id' | 'value'>) {
      send?.({ type: 'GIFT_VOUCHER_REMOVED', giftVoucherId: line.id, value: line.value });
    },
    setRefundProtection(yes: boolean) {
      send?.({ type: 'REFUND_PROTECTION_CHOSEN', refundProtection: yes });
    },
    applyCode(code: string) {
      send?.({ type: 'CODE_SUBMITTED', code });
    },
  };
}

export type BasketConnection = ReturnType<typeof connectBasket>;
export type { BasketView };
