/** Where the sale stands: its step, its hold's countdown, a payment in progress, and the messages its last basket change left. */
import type { Checkout, Step } from '../../../contract/index.ts';
import { holdIsLive, secondsRemaining, type Sale } from '../sales.ts';

/** A payment may be open only on the payment steps of a sale not yet paid (payment_started_at says whether one is). */
export function paymentMayBeOpen(sale: Pick<Sale, 'paidAt' | 'state'>): boolean {
  return sale.paidAt === null && (sale.state === 'payment' || sale.state === 'awaiting_truelayer');
}

/**
 * The step and its clocks. A paid sale's holds became sold stock: it stays on its step, with
 * nothing left to run out. A payment started in time keeps the sale on its step until `keptUntil`
 * (its holds' deadline plus the payment grace). Otherwise a sale whose hold has lapsed is back on
 * the basket.
 */
export function stepFields(
  sale: Pick<Sale, 'paidAt' | 'state' | 'reference' | 'holdDeadline'>,
  keptUntil: Date | null,
  now: Date,
): Pick<
  Checkout,
  | 'state'
  | 'sale_reference'
  | 'seconds_remaining'
  | 'payment_in_progress'
  | 'payment_seconds_remaining'
  | 'payment_complete'
> {
  const paid = sale.paidAt !== null;
  const live = holdIsLive(sale, now);
  const paying = keptUntil !== null;
  return {
    state: live || paid || paying ? (sale.state as Step) : 'basket',
    sale_reference: live || paid || paying ? sale.reference : null,
    seconds_remaining: live ? secondsRemaining(sale, now) : 0,
    payment_in_progress: paying,
    payment_seconds_remaining: keptUntil ? Math.max(1, Math.ceil((keptUntil.getTime() - now.getTime()) / 1000)) : 0,
    payment_complete: paid,
  };
}

/** What the sale's last basket change and reservation left for the buyer to read. */
export function basketMessages(
  sale: Pick<
    Sale,
    'basketErrors' | 'basketSuccess' | 'reservingError' | 'hadMismatchingCurrencies' | 'editBasketClicked'
  >,
): Pick<
  Checkout,
  'basket_errors' | 'basket_success' | 'reserving_error' | 'had_mismatching_currencies' | 'edit_basket_clicked'
> {
  return {
    basket_errors: sale.basketErrors,
    basket_success: sale.basketSuccess,
    reserving_error: sale.reservingError,
    had_mismatching_currencies: sale.hadMismatchingCurrencies,
    edit_basket_clicked: sale.editBasketClicked,
  };
}
