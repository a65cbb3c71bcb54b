/**
 * What the basket screen needs: the basket child's edits in flight, and the spec's basket rules
 * (spec 000 §5 "Basket") as a pure function of the checkout.
 */
import type { SnapshotFrom } from 'xstate';
import type { Checkout } from '../checkout/checkout.types';
import type { basketMachine } from './basket.machine';

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
    };
  }
  const isUpdating = snapshot.matches('updating') || snapshot.matches('reloading');
  return {
    isUpdating,
    hasUnsavedChanges: isUpdating || snapshot.context.unsentIds.length > 0,
    pendingQty: snapshot.context.pendingQty,
    lineWarnings: snapshot.context.lineWarnings,
    minimumBlocked: snapshot.context.blockedIds.length > 0,
    codeResult: snapshot.context.codeResult,
  };
}

export const REQUIRED_TICKETS_MESSAGE = 'You must also purchase the following tickets to continue the checkout.';

export interface BasketRules {
  missingRequiredTitles: string[];
  requiredMessage: typeof REQUIRED_TICKETS_MESSAGE | null;
  showLoginHint: boolean;
  timeslotWarnings: string[];
  canReserve: boolean;
  itemCount: number;
}

type BasketState = Pick<BasketView, 'isUpdating' | 'minimumBlocked'> & Partial<Pick<BasketView, 'hasUnsavedChanges'>>;

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

  const itemCount =
    checkout.tickets.reduce((sum, line) => sum + line.qty, 0) +
    checkout.gift_vouchers.reduce((sum, line) => sum + line.qty, 0);

  return {
    missingRequiredTitles,
    requiredMessage: missingRequiredTitles.length > 0 ? REQUIRED_TICKETS_MESSAGE : null,
    showLoginHint: missingRequiredTitles.length > 0 && !isSignedIn,
    timeslotWarnings,
    canReserve:
      itemCount > 0 &&
      !basket.isUpdating &&
      !basket.hasUnsavedChanges &&
      !basket.minimumBlocked &&
      missingRequiredTitles.length === 0,
    itemCount,
  };
}
