/**
 * More time on the clock (WCAG 2.2.1 Timing Adjustable). The sale's live hold keeps its stock and
 * its deadline moves on by the original checkout time; no stock is claimed again, so extending
 * never competes with other buyers' claims. The sale row is locked, so parallel requests are
 * counted one after another and the cap holds.
 */
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { buyerHolds, holds, sales } from '../db/schema.ts';
import { MAX_HOLD_EXTENSIONS } from '../../contract/index.ts';
import { Refusal } from './refusal.ts';
import { holdIsLive, lockSale, secondsRemaining } from './sales.ts';
import { moveSaleSeatsDeadline } from './seats.ts';
import type { SeatingProvider } from './seating/provider.ts';

export const NOT_HELD_MESSAGE = 'Your tickets are no longer held, so no more time can be added.';
export const NO_MORE_TIME_MESSAGE = 'No more time can be added to this reservation.';

export interface Extended {
  secondsRemaining: number;
  extensionsLeft: number;
}

export async function extendHold(
  db: Database,
  saleId: string,
  now: Date,
  checkoutTimeSeconds: number,
  seating: SeatingProvider | null = null,
): Promise<Extended> {
  return db.transaction(async (tx) => {
    const sale = await lockSale(tx, saleId);
    if (!sale.reference || !sale.holdDeadline || !holdIsLive(sale, now))
      throw new Refusal('hold-lost', NOT_HELD_MESSAGE);
    if (sale.holdExtensions >= MAX_HOLD_EXTENSIONS) throw new Refusal('limit-reached', NO_MORE_TIME_MESSAGE);
    const deadline = new Date(sale.holdDeadline.getTime() + checkoutTimeSeconds * 1000);
    await tx
      .update(sales)
      .set({ holdDeadline: deadline, holdExtensions: sql`${sales.holdExtensions} + 1` })
      .where(eq(sales.id, saleId));
    await tx.update(holds).set({ deadline }).where(eq(holds.saleId, saleId));
    await moveSaleSeatsDeadline(tx, saleId, deadline, { seating, now });
    // The sale's rows in its buyers' counts follow (not rows an earlier reservation ended).
    await tx
      .update(buyerHolds)
      .set({ deadline })
      .where(and(eq(buyerHolds.saleId, saleId), gt(buyerHolds.deadline, now)));
    return {
      secondsRemaining: secondsRemaining({ holdDeadline: deadline }, now),
      extensionsLeft: MAX_HOLD_EXTENSIONS - sale.holdExtensions - 1,
    };
  });
}
