/**
 * Reserving a basket: every line is claimed in one transaction or none is. Pools are locked in
 * ascending id order with a lock timeout, then each claim is one conditional INSERT that
 * counts sold plus live holds, so no amount is read in code and written back.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { discountCodes, eventDates, events, saleLines, saleVouchers, sales, ticketTypes } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { holdIsLive, lockSale, newSaleReference, secondsRemaining } from './sales.ts';
import { claimHold, lockPools, poolsHeldBy, releaseSaleHolds } from './stock.ts';
import { effectiveMaxPerOrder, maximumMessage, refuseOverBuyerCap, type Buyer } from './limits.ts';
import { claimCodeUse } from './codes.ts';
import { reserveSaleSeats } from './seats.ts';

export type ReserveResult =
  | { reserved: true; saleReference: string; freshReservation: boolean; checkoutTime: number }
  | { reserved: false; error: string };

/** How long a reservation waits for a busy pool before telling the buyer to try again. */
const LOCK_TIMEOUT = '5s';

class Refused extends Error {
  constructor(
    message: string,
    /** The sale's discount code is used up: it comes off the basket with the refusal. */
    readonly dropCode = false,
  ) {
    super(message);
  }
}

/** The per-order and per-buyer limits a reservation holds to, and who is reserving. */
export interface ReserveLimits {
  maxPerOrder?: number;
  maxHeldPerBuyer?: number;
  buyer?: Buyer;
}

export const REQUIRED_TICKETS_MESSAGE = 'You must also purchase the following tickets to continue the checkout.';

export async function reserveSale(db: Database, saleId: string, now: Date, checkoutTimeSeconds: number, limits: ReserveLimits = {}): Promise<ReserveResult> {
  try {
    const result = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
      const sale = await lockSale(tx, saleId);
      if (holdIsLive(sale, now) && sale.reference) {
        return { reserved: true as const, saleReference: sale.reference, freshReservation: false, checkoutTime: secondsRemaining(sale, now) };
      }
      const previousPools = await poolsHeldBy(tx, saleId);

      const lines = await tx
        .select({
          ticketTypeId: ticketTypes.id,
          name: ticketTypes.name,
          qty: saleLines.qty,
          minPerCustomer: ticketTypes.minPerCustomer,
          requiredTickets: ticketTypes.requiredTickets,
          typePool: ticketTypes.poolId,
          datePool: eventDates.poolId,
          dateId: eventDates.id,
          maxCanReserve: ticketTypes.maxCanReserve,
          eventMax: events.maxPerOrder,
        })
        .from(saleLines)
        .innerJoin(ticketTypes, eq(ticketTypes.id, saleLines.ticketTypeId))
        .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
        .innerJoin(events, eq(events.id, eventDates.eventId))
        .where(eq(saleLines.saleId, saleId))
        .orderBy(ticketTypes.id);
      const [vouchers] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(saleVouchers)
        .where(eq(saleVouchers.saleId, saleId));
      if (lines.length === 0 && (vouchers?.n ?? 0) === 0) throw new Refused('Your basket is empty');

      const tooFew = lines.find((l) => l.minPerCustomer > 1 && l.qty < l.minPerCustomer);
      if (tooFew) throw new Refused(`${tooFew.name}: You must purchase a minimum of ${tooFew.minPerCustomer} tickets of this type`);
      const tooMany = lines.find((l) => l.qty > effectiveMaxPerOrder(l.maxCanReserve, l.eventMax, limits.maxPerOrder));
      if (tooMany) throw new Refused(maximumMessage(tooMany.name, effectiveMaxPerOrder(tooMany.maxCanReserve, tooMany.eventMax, limits.maxPerOrder)));
      const inBasket = new Set(lines.map((l) => l.ticketTypeId));
      const missing = lines.flatMap((l) => l.requiredTickets.filter((group) => !group.ids.some((id) => inBasket.has(id))).map((g) => g.title));
      if (missing.length) throw new Refused(`${REQUIRED_TICKETS_MESSAGE} ${[...new Set(missing)].join(', ')}`);

      const claims = lines.flatMap((l) => [l.datePool, ...(l.typePool ? [l.typePool] : [])].map((poolId) => ({ line: l, poolId })));
      const deadline = new Date(now.getTime() + checkoutTimeSeconds * 1000);
      const reference = newSaleReference();
      // Written before the pools are locked, so the hot locks are held for the claims alone;
      // a refusal below rolls it back with everything else.
      const buyer = limits.buyer ?? { userId: sale.userId, ip: null };
      await tx
        .update(sales)
        .set({ reference, holdDeadline: deadline, holdExtensions: 0, reservingError: null, buyerIp: buyer.ip, userId: buyer.userId ?? sale.userId })
        .where(eq(sales.id, saleId));
      if (limits.maxHeldPerBuyer !== undefined) {
        const wanted = new Map<number, number>();
        for (const l of lines) wanted.set(l.dateId, (wanted.get(l.dateId) ?? 0) + l.qty);
        await refuseOverBuyerCap(tx, { saleId, buyer: { userId: buyer.userId ?? sale.userId, ip: buyer.ip }, cap: limits.maxHeldPerBuyer, now, wanted });
      }
      // The pools of the sale's earlier holds and of its claims are locked together, ascending,
      // and before the discount code's row: every path takes pools before a code (a sale's update
      // checks its code's key), so none deadlock.
      await lockPools(tx, [...previousPools, ...claims.map((c) => c.poolId)]);
      if (previousPools.length > 0) await releaseSaleHolds(tx, saleId, { poolsLocked: true });
      if (sale.discountCodeId !== null && !(await claimCodeUse(tx, { codeId: sale.discountCodeId, saleId, now }))) {
        const [code] = await tx.select({ code: discountCodes.code }).from(discountCodes).where(eq(discountCodes.id, sale.discountCodeId));
        throw new Refused(`Discount code ${code?.code ?? ''} has been used as many times as it can be and was taken off your basket. Check the total and reserve again.`, true);
      }
      const unavailable = new Set<string>();
      for (const { line, poolId } of claims) {
        const held = await claimHold(tx, { saleId, poolId, ticketTypeId: line.ticketTypeId, qty: line.qty, deadline, now });
        if (!held) unavailable.add(line.name);
      }
      if (unavailable.size) {
        throw new Refused(`Sorry, these tickets are no longer available in the numbers you chose: ${[...unavailable].join(', ')}`);
      }
      // The basket's seats are held for the sale under the same deadline, after the pools.
      const lostSeats = await reserveSaleSeats(tx, saleId, deadline, now);
      if (lostSeats.length) throw new Refused(`Sorry, these seats are no longer available: ${lostSeats.join('; ')}. Please choose your seats again.`);
      return { reserved: true as const, saleReference: reference, freshReservation: true, checkoutTime: checkoutTimeSeconds };
    });
    return result;
  } catch (err) {
    const message = refusalMessage(err);
    if (message === null) throw err;
    // The reply carries the refusal and the checkout shows it once, as a warning; it is not also
    // kept as the sale's reserving_error, which would show it a second time after the reload.
    if (err instanceof Refused && err.dropCode) {
      await db.update(sales).set({ discountCodeId: null }).where(eq(sales.id, saleId));
    }
    return { reserved: false, error: message };
  }
}

function refusalMessage(err: unknown): string | null {
  if (err instanceof Refused) return err.message;
  if (err instanceof DomainError) return err.message;
  const code = pgCode(err);
  // lock_not_available, deadlock_detected, serialization_failure: the pool was too busy.
  if (code === '55P03' || code === '40P01' || code === '40001') {
    return 'So many people are reserving these tickets right now that we could not hold yours. Please try again.';
  }
  return null;
}

function pgCode(err: unknown): string | undefined {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
