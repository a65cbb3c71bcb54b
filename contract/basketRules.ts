/**
 * The spec's basket rules (spec 000 §5 "Basket") as a pure function of the checkout and the basket
 * chart's view, shared by the basket chart's screen in the app and the basket the server paints.
 */
import type { Checkout } from './checkout.ts';
import { minimumWarning, requiredTicketsMessage } from './messages/basket.ts';

/** What the basket holds for the site header's count (spec 001 §9): its tickets and gift vouchers. */
export function basketCount(checkout: Pick<Checkout, 'tickets' | 'gift_vouchers'> | undefined | null): number {
  if (!checkout) return 0;
  return checkout.tickets.reduce((n, t) => n + t.qty, 0) + checkout.gift_vouchers.reduce((n, v) => n + v.qty, 0);
}

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

/** The basket before any edit: what the server paints, and the chart's view before it runs. */
export const IDLE_BASKET: BasketView = {
  isUpdating: false,
  hasUnsavedChanges: false,
  pendingQty: {},
  lineWarnings: {},
  minimumBlocked: false,
  codeResult: null,
  refundProtection: null,
};

export interface BasketRules {
  missingRequiredTitles: string[];
  requiredMessage: string | null;
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
    requiredMessage: missingRequiredTitles.length > 0 ? requiredTicketsMessage() : null,
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
