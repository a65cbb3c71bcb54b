/**
 * Reserving a basket: every line is claimed in one transaction or none is. The sale is locked and
 * read, then everything under the hot locks (the buyer's counts, the pools in ascending id order
 * with a lock timeout, the code's row, each claim) is one call of the database function
 * `reserve_claims` (migration 0013), so no amount is read in code and written back and the
 * locks are held for one round trip and the commit.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { discountCodes, eventDates, events, saleLines, saleVouchers, sales, ticketTypes } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { holdIsLive, lockSale, newSaleReference, secondsRemaining } from './sales.ts';
import { reserveClaims } from './stock.ts';
import { reserveSaleSeats } from './seats.ts';
import { BUYER_LIMIT_MESSAGE, buyerKeys, effectiveMaxPerOrder, maximumMessage, refuseOverCapAlone, type Buyer } from './limits.ts';

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
      // Vouchers alone make a basket worth reserving; they are counted only when there are no tickets.
      if (lines.length === 0) {
        const [vouchers] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(saleVouchers)
          .where(eq(saleVouchers.saleId, saleId));
        if ((vouchers?.n ?? 0) === 0) throw new Refused('Your basket is empty');
      }

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
      const buyer = limits.buyer ?? { userId: sale.userId, ip: null };
      const wanted = new Map<number, number>();
      for (const l of lines) wanted.set(l.dateId, (wanted.get(l.dateId) ?? 0) + l.qty);
      if (limits.maxHeldPerBuyer !== undefined) refuseOverCapAlone(wanted, limits.maxHeldPerBuyer);
      // The sale's new reference and buyer, the buyer's counts, the pools (the sale's earlier ones
      // and its claims', ascending), the code's row and every claim: one call, so the hot locks last
      // one round trip and the commit.
      const verdict = await reserveClaims(tx, {
        saleId,
        now,
        deadline,
        pools: claims.map((c) => c.poolId),
        claims: claims.map(({ line, poolId }) => ({ pool: poolId, type: line.ticketTypeId, qty: line.qty })),
        buyerKeys: limits.maxHeldPerBuyer === undefined ? [] : buyerKeys({ userId: buyer.userId ?? sale.userId, ip: buyer.ip }),
        wanted,
        cap: limits.maxHeldPerBuyer ?? null,
        codeId: sale.discountCodeId,
        reference,
        buyerIp: buyer.ip,
        userId: buyer.userId ?? sale.userId,
      });
      if (verdict.refused === 'buyer-limit') throw new DomainError(409, BUYER_LIMIT_MESSAGE(limits.maxHeldPerBuyer!), { code: 'buyer-limit' });
      if (verdict.refused === 'code') {
        const [code] = await tx.select({ code: discountCodes.code }).from(discountCodes).where(eq(discountCodes.id, sale.discountCodeId!));
        throw new Refused(`Discount code ${code?.code ?? ''} has been used as many times as it can be and was taken off your basket. Check the total and reserve again.`, true);
      }
      const unavailable = new Set(lines.filter((l) => verdict.unavailable.includes(l.ticketTypeId)).map((l) => l.name));
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
