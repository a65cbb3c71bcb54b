/**
 * What the basket screen needs: the basket child's edits in flight, and the spec's basket rules
 * (spec 000 §5 "Basket") as a pure function of the checkout.
 */
import type { SnapshotFrom } from 'xstate';
import type { GiftVoucherLine, TicketLine } from '../../contract';
import type { Checkout } from '../../contract';
import type { BasketEvent } from './basket.types.ts';
import type { basketMachine } from './basket.machine';
import { minimumWarning, REQUIRED_TICKETS_MESSAGE } from '../../contract/messages/basket';

export interface BasketView {
  /** A change is with the server or the checkout is being re-read: quantity inputs are disabled. */
  isUpdating: boolean;
  /** Quantities typed but not yet on the server (waiting for the debounce, or below a minimum). */
  hasUnsavedChanges: boolean;
  /** What each quantity input shows instead of the server's qty, by ticket id. */
  pendingQty: Record<number, number>;
  lineWarnings: Record<number, string>;
  minimumBlocked: boolean;
  codeResult: 'applied' | 'invalid' | null;
  /** The refund protection the buyer chose, shown before the server confirms it; null: the server's. */
  refundProtection: boolean | null;
}

export function viewBasket(snapshot: SnapshotFrom<typeof basketMachine> | undefined): BasketView {
  if (!snapshot) {
    return {
      isUpdating: false,
      hasUnsavedChanges: false,
      pendingQty: {},
      lineWarnings: {},
      minimumBlocked: false,
      codeResult: null,
      refundProtection: null,
    };
  }
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

export interface BasketRules {
  missingRequiredTitles: string[];
  requiredMessage: typeof REQUIRED_TICKETS_MESSAGE | null;
  showLoginHint: boolean;
  timeslotWarnings: string[];
  /**
   * The warning under each ticket line, by ticket id: the basket's own (a capped or held-back
   * quantity), else the minimum per customer whenever the line is below it, however it got there.
   */
  lineWarnings: Record<number, string>;
  /** Some line is below its minimum per customer: reserving is blocked. */
  belowMinimum: boolean;
  canReserve: boolean;
  itemCount: number;
}

type BasketState = Pick<BasketView, 'isUpdating' | 'minimumBlocked'> &
  Partial<Pick<BasketView, 'hasUnsavedChanges' | 'pendingQty' | 'lineWarnings'>>;

export function basketRules(
  checkout: Pick<Checkout, 'tickets' | 'gift_vouchers' | 'events'>,
  basket: BasketState,
  isSignedIn: boolean,
): BasketRules {
  const ticketIdsInBasket = new Set(checkout.tickets.map((line) => line.ticket_id));
  const missing = new Set<string>();
  for (const line of checkout.tickets) {
    for (const group of line.required_tickets) {
      if (!group.ids.some((id) => ticketIdsInBasket.has(id))) missing.add(group.title);
    }
  }
  const missingRequiredTitles = [...missing];

  const timeslotWarnings: string[] = [];
  for (const event of checkout.events) {
    const message = event.warn_customers_about_different_timeslots_message;
    if (!message) continue;
    const dates = new Set(checkout.tickets.filter((line) => line.event_id === event.id).map((line) => line.date_id));
    if (dates.size > 1 && !timeslotWarnings.includes(message)) timeslotWarnings.push(message);
  }

  const lineWarnings: Record<number, string> = { ...basket.lineWarnings };
  let belowMinimum = basket.minimumBlocked;
  for (const line of checkout.tickets) {
    const qty = basket.pendingQty?.[line.ticket_id] ?? line.qty;
    if (line.min_per_customer > 1 && qty < line.min_per_customer) {
      belowMinimum = true;
      lineWarnings[line.ticket_id] ??= minimumWarning(line.min_per_customer);
    }
  }

  const itemCount =
    checkout.tickets.reduce((sum, line) => sum + line.qty, 0) +
    checkout.gift_vouchers.reduce((sum, line) => sum + line.qty, 0);

  return {
    missingRequiredTitles,
    requiredMessage: missingRequiredTitles.length > 0 ? REQUIRED_TICKETS_MESSAGE : null,
    showLoginHint: missingRequiredTitles.length > 0 && !isSignedIn,
    timeslotWarnings,
    lineWarnings,
    belowMinimum,
    canReserve:
      itemCount > 0 &&
      !basket.isUpdating &&
      !basket.hasUnsavedChanges &&
      !belowMinimum &&
      missingRequiredTitles.length === 0,
    itemCount,
  };
}
