/**
 * Reserving a basket: every line is claimed or none is. The basket is read and its rules checked
 * without locks; then a basket without seats is reserved by one statement, the database function
 * `reserve_sale` (server/db/functions/reserve_sale.sql), which under the sale's row lock checks the
 * basket is still the one read and does everything under the hot locks (the buyer's counts, the
 * pools in ascending id order with a lock timeout, the code's row, each claim) through
 * `reserve_claims`, so no amount is read in code and written back and the locks last one statement.
 * A basket with seats, or one that keeps changing under the reservation, is reserved in a
 * transaction that locks the sale first and then calls `reserve_claims` and holds the seats.
 */
import { eq, sql } from 'drizzle-orm';
import { rows, type Database, type Executor } from '../db/index.ts';
import { discountCodes, sales, type RequiredTicketGroup } from '../db/schema.ts';
import { requiredTicketsMessage } from '../../contract/messages/basket.ts';
import { isRefusal, Refusal } from './refusal.ts';
import {
  holdIsLive,
  lockSale,
  newSaleReference,
  PAID_SALE_MESSAGE,
  SALE_NOT_FOUND_MESSAGE,
  secondsRemaining,
} from './sales.ts';
import {
  reserveBasketAtOnce,
  reserveClaims,
  reserveSaleAtOnce,
  type ReserveAttempt,
  type ReserveClaims,
  type ReserveVerdict,
} from './stock.ts';
import { reserveSaleSeats } from './seats.ts';
import type { SeatingProvider } from './seating/provider.ts';
import {
  BUYER_LIMIT_MESSAGE,
  buyerKeys,
  DEFAULT_MAX_PER_ORDER,
  effectiveMaxPerOrder,
  maximumMessage,
  minimumMessage,
  refuseOverCapAlone,
  type Buyer,
} from './limits.ts';
import { t } from '../../i18n/runtime.ts';

export type ReserveResult =
  | { reserved: true; saleReference: string; freshReservation: boolean; checkoutTime: number }
  | { reserved: false; error: string; /** The sale is paid for: its basket is closed. */ closed?: true };

/**
 * A buyer's reservation attempt: reserved or refused as any reservation, or, nothing reserved, in
 * need of a solved captcha or of a turn in the queue of the date given.
 */
export type AttemptResult = ReserveResult | { reserved: false; captcha: true } | { reserved: false; queued: number };

/** How long a reservation waits for a busy pool before telling the buyer to try again. */
const LOCK_TIMEOUT = '5s';

/** The per-order and per-buyer limits a reservation holds to, and who is reserving. */
export interface ReserveLimits {
  maxPerOrder?: number;
  maxHeldPerBuyer?: number;
  buyer?: Buyer;
  /** The seating provider whose holds the sale's seats are under (seats.io when keyed); none: our own holds. */
  seating?: SeatingProvider | null;
}

interface BasketLine {
  ticketTypeId: number;
  name: string;
  qty: number;
  minPerCustomer: number;
  requiredTickets: RequiredTicketGroup[];
  typePool: number | null;
  datePool: number;
  dateId: number;
  maxCanReserve: number;
  eventMax: number | null;
}

export interface Basket {
  holdDeadline: Date | null;
  reference: string | null;
  paidAt: Date | null;
  userId: number | null;
  discountCodeId: number | null;
  vouchers: number;
  hasSeats: boolean;
  lines: BasketLine[];
}

/**
 * The sale and everything its reservation checks, in one read (no lock): the database function
 * `reservation_basket` (server/db/functions/reservation_basket.sql).
 */
export async function readBasket(db: Pick<Executor, 'execute'>, saleId: string): Promise<Basket | null> {
  const [row] = await rows<{ basket: BasketRow | string | null }>(
    db,
    sql`SELECT reservation_basket(${saleId}) AS basket`,
  );
  const found = typeof row?.basket === 'string' ? (JSON.parse(row.basket) as BasketRow) : row?.basket;
  if (!found) return null;
  const date = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    holdDeadline: date(found.hold_deadline),
    reference: found.reference,
    paidAt: date(found.paid_at),
    userId: found.user_id,
    discountCodeId: found.discount_code_id,
    vouchers: Number(found.vouchers),
    hasSeats: found.has_seats,
    lines: found.lines,
  };
}

interface BasketRow {
  hold_deadline: string | null;
  reference: string | null;
  paid_at: string | null;
  user_id: number | null;
  discount_code_id: number | null;
  vouchers: number;
  has_seats: boolean;
  lines: BasketLine[];
}

/** What `reserve_sale` compares with the basket under the sale's lock: its lines and how many voucher lines. */
function basketKey(basket: Basket): string {
  return `${basket.lines.map((l) => `${l.ticketTypeId}:${l.qty}`).join(',')}|v${basket.vouchers}`;
}

/** The spec's basket rules, refused before any lock. */
export function checkBasket(basket: Basket, limits: ReserveLimits): void {
  const { lines } = basket;
  // Vouchers alone make a basket worth reserving; they are counted only when there are no tickets.
  if (lines.length === 0 && basket.vouchers === 0) throw new Refusal('invalid-input', 'Your basket is empty');
  const tooFew = lines.find((l) => l.minPerCustomer > 1 && l.qty < l.minPerCustomer);
  if (tooFew) throw new Refusal('invalid-input', minimumMessage(tooFew.name, tooFew.minPerCustomer));
  const tooMany = lines.find((l) => l.qty > effectiveMaxPerOrder(l.maxCanReserve, l.eventMax, limits.maxPerOrder));
  if (tooMany)
    throw new Refusal(
      'invalid-input',
      maximumMessage(tooMany.name, effectiveMaxPerOrder(tooMany.maxCanReserve, tooMany.eventMax, limits.maxPerOrder)),
    );
  const inBasket = new Set(lines.map((l) => l.ticketTypeId));
  const missing = lines.flatMap((l) =>
    l.requiredTickets.filter((group) => !group.ids.some((id) => inBasket.has(id))).map((g) => g.title),
  );
  if (missing.length)
    throw new Refusal('invalid-input', `${requiredTicketsMessage()} ${[...new Set(missing)].join(', ')}`);
}

/** The claims of a basket (each line from its date's pool and its type's own pool, if any) and what the buyer asks of each date. */
function claimsOf(
  basket: Basket,
  saleId: string,
  now: Date,
  checkoutTimeSeconds: number,
  limits: ReserveLimits,
): ReserveClaims {
  const claims = basket.lines.flatMap((l) =>
    [l.datePool, ...(l.typePool ? [l.typePool] : [])].map((poolId) => ({ line: l, poolId })),
  );
  const buyer = limits.buyer ?? { userId: basket.userId, ip: null };
  const wanted = new Map<number, number>();
  for (const l of basket.lines) wanted.set(l.dateId, (wanted.get(l.dateId) ?? 0) + l.qty);
  if (limits.maxHeldPerBuyer !== undefined) refuseOverCapAlone(wanted, limits.maxHeldPerBuyer);
  return {
    saleId,
    now,
    deadline: new Date(now.getTime() + checkoutTimeSeconds * 1000),
    pools: claims.map((c) => c.poolId),
    claims: claims.map(({ line, poolId }) => ({ pool: poolId, type: line.ticketTypeId, qty: line.qty })),
    buyerKeys:
      limits.maxHeldPerBuyer === undefined ? [] : buyerKeys({ userId: buyer.userId ?? basket.userId, ip: buyer.ip }),
    wanted,
    cap: limits.maxHeldPerBuyer ?? null,
    codeId: basket.discountCodeId,
    reference: newSaleReference(),
    buyerIp: buyer.ip,
    userId: buyer.userId ?? basket.userId,
  };
}

/** A refused claim, in the buyer's words. */
async function refuse(
  db: Pick<Executor, 'select'>,
  verdict: ReserveVerdict,
  basket: Basket,
  limits: ReserveLimits,
): Promise<never> {
  if (verdict.refused === 'buyer-limit')
    throw new Refusal('limit-reached', BUYER_LIMIT_MESSAGE(limits.maxHeldPerBuyer!), { code: 'buyer-limit' });
  if (verdict.refused === 'code') {
    const [code] = await db
      .select({ code: discountCodes.code })
      .from(discountCodes)
      .where(eq(discountCodes.id, basket.discountCodeId!));
    throw new Refusal('code-used-up', t('page.reserve.codeUsedUp', { code: code?.code ?? '' }));
  }
  const unavailable = new Set(
    basket.lines.filter((l) => verdict.unavailable.includes(l.ticketTypeId)).map((l) => l.name),
  );
  throw new Refusal('sold-out', t('page.reserve.ticketsUnavailable', { tickets: [...unavailable].join(', ') }));
}

const refusedAny = (verdict: ReserveVerdict) => verdict.refused !== null || verdict.unavailable.length > 0;

/** How many times a basket that changed under the reservation is read again before the transaction takes over. */
const READS = 3;

export async function reserveSale(
  db: Database,
  saleId: string,
  now: Date,
  checkoutTimeSeconds: number,
  limits: ReserveLimits = {},
): Promise<ReserveResult> {
  const result = await reserveOrAsk(db, saleId, now, checkoutTimeSeconds, limits, null);
  if ('captcha' in result || 'queued' in result)
    throw new Error('a reservation without an attempt asks for no captcha and no turn');
  return result;
}

/**
 * A buyer's own reservation: in the reservation's own round trip and commit, a basket of a queued
 * date the request has no turn for is sent to its queue, and the address's attempt is counted and
 * recorded for the captcha's rule; one that needs a solved captcha without one reserves nothing.
 */
export function reserveAttempt(
  db: Database,
  saleId: string,
  now: Date,
  checkoutTimeSeconds: number,
  limits: ReserveLimits,
  attempt: ReserveAttempt,
): Promise<AttemptResult> {
  return reserveOrAsk(db, saleId, now, checkoutTimeSeconds, limits, attempt);
}

async function reserveOrAsk(
  db: Database,
  saleId: string,
  now: Date,
  checkoutTimeSeconds: number,
  limits: ReserveLimits,
  attempt: ReserveAttempt | null,
): Promise<AttemptResult> {
  try {
    // The usual basket (rules plainly met, no seats) is reserved in one round trip, read included.
    const reference = newSaleReference();
    const quick = await reserveBasketAtOnce(db, {
      saleId,
      now,
      deadline: new Date(now.getTime() + checkoutTimeSeconds * 1000),
      lockTimeout: LOCK_TIMEOUT,
      maxPerOrder: limits.maxPerOrder ?? DEFAULT_MAX_PER_ORDER,
      cap: limits.maxHeldPerBuyer ?? null,
      reference,
      buyerIp: limits.buyer?.ip ?? null,
      userId: limits.buyer?.userId ?? null,
      attempt,
    });
    if (quick.outcome === 'captcha') return { reserved: false, captcha: true };
    if (quick.outcome === 'queued') return { reserved: false, queued: quick.dateId };
    if (quick.outcome === 'reserved')
      return { reserved: true, saleReference: reference, freshReservation: true, checkoutTime: checkoutTimeSeconds };
    if (quick.outcome === 'held') {
      return {
        reserved: true,
        saleReference: quick.reference,
        freshReservation: false,
        checkoutTime: secondsRemaining({ holdDeadline: quick.deadline }, now),
      };
    }
    if (quick.outcome === 'refused') {
      const basket = await readBasket(db, saleId);
      if (basket) await refuse(db, quick.verdict, basket, limits);
    }
    // Otherwise ('check', or a refusal whose basket has gone): read the basket, word any refusal, reserve it the longer way.
    for (let read = 0; read < READS; read++) {
      const basket = await readBasket(db, saleId);
      if (!basket) return { reserved: false, error: 'Your basket is empty' };
      if (basket.paidAt) throw new Refusal('already-paid', PAID_SALE_MESSAGE);
      if (holdIsLive(basket, now) && basket.reference) {
        return {
          reserved: true,
          saleReference: basket.reference,
          freshReservation: false,
          checkoutTime: secondsRemaining(basket, now),
        };
      }
      checkBasket(basket, limits);
      if (basket.hasSeats) break;
      const claims = claimsOf(basket, saleId, now, checkoutTimeSeconds, limits);
      const result = await reserveSaleAtOnce(db, { ...claims, basket: basketKey(basket), lockTimeout: LOCK_TIMEOUT });
      if (result.outcome === 'reserved')
        return {
          reserved: true,
          saleReference: claims.reference,
          freshReservation: true,
          checkoutTime: checkoutTimeSeconds,
        };
      if (result.outcome === 'held') {
        return {
          reserved: true,
          saleReference: result.reference,
          freshReservation: false,
          checkoutTime: secondsRemaining({ holdDeadline: result.deadline }, now),
        };
      }
      if (result.outcome === 'refused') await refuse(db, result.verdict, basket, limits);
    }
    return await reserveInTransaction(db, saleId, now, checkoutTimeSeconds, limits);
  } catch (err) {
    if (isRefusal(err, 'already-paid')) return { reserved: false, error: err.message, closed: true };
    const message = refusalMessage(err);
    if (message === null) throw err;
    // The reply carries the refusal and the checkout shows it once, as a warning; it is not also
    // kept as the sale's reserving_error, which would show it a second time after the reload.
    // A used-up discount code comes off the basket with the refusal.
    if (isRefusal(err, 'code-used-up')) {
      await db.update(sales).set({ discountCodeId: null }).where(eq(sales.id, saleId));
    }
    return { reserved: false, error: message };
  }
}

/** The reservation of a basket with seats (or one that kept changing): the sale locked first, then the claims and the seats. */
async function reserveInTransaction(
  db: Database,
  saleId: string,
  now: Date,
  checkoutTimeSeconds: number,
  limits: ReserveLimits,
): Promise<ReserveResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
    await lockSale(tx, saleId);
    const basket = await readBasket(tx, saleId);
    if (!basket) throw new Refusal('not-found', SALE_NOT_FOUND_MESSAGE);
    if (basket.paidAt) throw new Refusal('already-paid', PAID_SALE_MESSAGE);
    if (holdIsLive(basket, now) && basket.reference) {
      return {
        reserved: true as const,
        saleReference: basket.reference,
        freshReservation: false,
        checkoutTime: secondsRemaining(basket, now),
      };
    }
    checkBasket(basket, limits);
    const claims = claimsOf(basket, saleId, now, checkoutTimeSeconds, limits);
    const verdict = await reserveClaims(tx, claims);
    if (refusedAny(verdict)) await refuse(tx, verdict, basket, limits);
    // The basket's seats are held for the sale under the same deadline, after the pools.
    const lostSeats = await reserveSaleSeats(tx, saleId, claims.deadline, now, limits.seating ?? null);
    if (lostSeats.length)
      throw new Refusal('sold-out', t('page.reserve.seatsUnavailable', { seats: lostSeats.join('; ') }));
    return {
      reserved: true as const,
      saleReference: claims.reference,
      freshReservation: true,
      checkoutTime: checkoutTimeSeconds,
    };
  });
}

function refusalMessage(err: unknown): string | null {
  if (err instanceof Refusal) return err.message;
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
