/**
 * A payment is for one basket. When a payment is made, what it pays for is written beside it: the
 * basket's contents as one canonical string (ticket lines and seats, gift vouchers, discount code,
 * refund protection, the donation of the reservation, currency), the sale's reference and the total.
 * Settlement compares the same string read again under the sale's lock: a payment books only the
 * basket it paid for. A basket edit with a payment open closes that payment in the edit's own
 * transaction, so it can no longer be paid; money that still arrives for it is refunded.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/index.ts';
import { payments, saleDonations, saleLines, saleSeats, saleVouchers, sales, type PaidFor } from '../../db/schema.ts';

export type { PaidFor };

/** The statuses of a payment the buyer can still complete. */
export const OPEN_STATUSES = ['requires_payment_method', 'requires_action'] as const;

export const REPLACED_MESSAGE = 'This payment was replaced by a new one for the changed basket.';

/**
 * The basket's contents as one canonical string. `reference` names the reservation whose donation
 * counts (a donation belongs to the reservation it was given in).
 */
export async function basketContents(
  tx: Pick<Executor, 'select'>,
  saleId: string,
  reference: string | null,
): Promise<string> {
  const [sale] = await tx
    .select({ code: sales.discountCodeId, protection: sales.refundProtection, currency: sales.currency })
    .from(sales)
    .where(eq(sales.id, saleId));
  if (!sale) return '';
  const lines = await tx
    .select({ type: saleLines.ticketTypeId, qty: saleLines.qty })
    .from(saleLines)
    .where(eq(saleLines.saleId, saleId));
  const seats = await tx
    .select({ type: saleSeats.ticketTypeId, seat: saleSeats.seatId })
    .from(saleSeats)
    .where(eq(saleSeats.saleId, saleId));
  const vouchers = await tx
    .select({ id: saleVouchers.giftVoucherId, value: saleVouchers.value, qty: saleVouchers.qty })
    .from(saleVouchers)
    .where(eq(saleVouchers.saleId, saleId));
  const [donation] = reference
    ? await tx
        .select({ amount: saleDonations.amount, fee: saleDonations.fee, charity: saleDonations.charityId })
        .from(saleDonations)
        .where(and(eq(saleDonations.saleId, saleId), eq(saleDonations.saleReference, reference)))
    : [];
  const byNumbers = (a: number[], b: number[]) => a.reduce((d, x, i) => d || x - b[i]!, 0);
  return JSON.stringify({
    lines: lines.map((l) => [l.type, l.qty]).sort(byNumbers),
    seats: seats.map((s) => [s.type, s.seat]).sort(byNumbers),
    vouchers: vouchers.map((v) => [v.id, v.value, v.qty]).sort(byNumbers),
    code: sale.code,
    protection: sale.protection,
    donation: donation ? [donation.charity, donation.amount, donation.fee] : null,
    currency: sale.currency,
  });
}

/** What a payment of `total` made now pays for (call under the sale's lock). */
export async function paidForNow(
  tx: Pick<Executor, 'select'>,
  saleId: string,
  reference: string | null,
  total: number,
): Promise<PaidFor> {
  return { basket: await basketContents(tx, saleId, reference), reference, total };
}

/** Whether the basket under the sale's lock is still the one the payment paid for. */
export async function stillPaysFor(
  tx: Pick<Executor, 'select'>,
  saleId: string,
  paidFor: PaidFor | null,
): Promise<boolean> {
  if (!paidFor) return false;
  return (await basketContents(tx, saleId, paidFor.reference)) === paidFor.basket;
}

/**
 * Closes the sale's open payments: a basket edit changed what they were for. Call inside the edit's
 * transaction, with the sale locked. The reconciliation job cancels them at their processor at once
 * (`check_after` in the past); money that arrives for one anyway is refunded at settlement.
 */
export async function closeOpenPayments(tx: Pick<Executor, 'update'>, saleId: string): Promise<void> {
  await tx
    .update(payments)
    .set({ status: 'failed', failureMessage: REPLACED_MESSAGE, settledAt: sql`now()`, checkAfter: new Date(0) })
    .where(and(eq(payments.saleId, saleId), inArray(payments.status, [...OPEN_STATUSES])));
}
