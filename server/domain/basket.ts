/**
 * Basket edits. Each runs in one transaction with the sale locked, and releases any hold first:
 * editing the basket of a reserved sale destroys the reservation, as the checkout expects.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import {
  discountCodes,
  eventDates,
  events,
  giftVouchers,
  saleLines,
  saleVouchers,
  sales,
  ticketTypes,
} from '../db/schema.ts';
import { Refusal } from './refusal.ts';
import { clearMessages, createSaleIfMissing, lockOpenSale, releaseHold } from './sales.ts';
import { effectiveMaxPerOrder, maximumMessage, minimumMessage } from './limits.ts';
import { codeUseAvailable } from './codes.ts';
import { closeOpenPayments } from './payment/paidFor.ts';
import { formatMoney } from '../../contract/money.ts';
import { poolAvailability } from './stock.ts';
import { codeCovers } from './pricing.ts';
import { eventOf, linesWithEvents } from './saleLines.ts';
import { addSeatsToSale, releaseProviderSeats, removeSaleSeats, seatedTypes, type SeatChoice } from './seats.ts';
import type { SeatingProvider } from './seating/provider.ts';
import { t } from '../../i18n/runtime.ts';

export interface AddRequest {
  /** A seated ticket type's line comes with the seats the buyer holds, as many as its quantity. */
  tickets: { ticketTypeId: number; qty: number; seats?: SeatChoice[] | undefined }[];
  vouchers: { giftVoucherId: number; qty: number; value: number }[];
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** What the basket's paths need from the configuration and the request. */
export interface BasketOptions {
  /** The configured per-order default (MAX_PER_ORDER) for types and events without their own. */
  maxPerOrder?: number;
  /** The signed-in buyer, recorded on a sale this add creates. */
  userId?: number | null;
  /** The seating provider whose holds seats come under (seats.io when keyed); none: our own holds. */
  seating?: SeatingProvider | null;
}

/**
 * An add that would leave a line below its type's minimum or above its ceiling is refused as a
 * whole, before anything is written, with the basket's own wording and the ticket's name.
 */
function refuseOutsideLimits(
  requested: { ticketTypeId: number; qty: number }[],
  types: Map<
    number,
    { id: number; name: string; minPerCustomer: number; maxCanReserve: number; eventMax: number | null }
  >,
  existing: Map<number, number>,
  maxPerOrder: number | undefined,
): void {
  const totals = new Map<number, number>();
  for (const line of requested) totals.set(line.ticketTypeId, (totals.get(line.ticketTypeId) ?? 0) + line.qty);
  for (const [typeId, added] of totals) {
    const type = types.get(typeId)!;
    const already = existing.get(typeId) ?? 0;
    const qty = already + added;
    if (type.minPerCustomer > 1 && qty < type.minPerCustomer) {
      throw new Refusal('invalid-input', minimumMessage(type.name, type.minPerCustomer), {
        code: 'too-few',
        ticketTypeId: type.id,
      });
    }
    const ceiling = effectiveMaxPerOrder(type.maxCanReserve, type.eventMax, maxPerOrder);
    if (qty > ceiling) {
      const held = already > 0 ? ` (your basket already has ${already})` : '';
      throw new Refusal('invalid-input', `${maximumMessage(type.name, ceiling)}${held}`, {
        code: 'too-many',
        ticketTypeId: type.id,
      });
    }
  }
}

async function basketCurrency(tx: Tx, saleId: string): Promise<string | null> {
  const [row] = await tx
    .select({
      lines: sql<number>`(SELECT count(*) FROM sale_lines WHERE sale_id = ${saleId})::int`,
      vouchers: sql<number>`(SELECT count(*) FROM sale_vouchers WHERE sale_id = ${saleId})::int`,
      currency: sales.currency,
    })
    .from(sales)
    .where(eq(sales.id, saleId));
  return row && row.lines + row.vouchers > 0 ? row.currency : null;
}

async function resetCurrencyIfEmpty(tx: Tx, saleId: string): Promise<void> {
  if ((await basketCurrency(tx, saleId)) === null)
    await tx.update(sales).set({ currency: null }).where(eq(sales.id, saleId));
}

export async function addToBasket(
  db: Database,
  saleId: string,
  request: AddRequest,
  now: Date,
  opts: BasketOptions = {},
): Promise<void> {
  if (request.tickets.length === 0 && request.vouchers.length === 0) {
    throw new Refusal('invalid-input', 'Choose at least one ticket or gift voucher to add');
  }
  refuseVoucherLines(request.vouchers);
  await db.transaction(async (tx) => {
    // A sale is written only here, when something goes in it; a refusal rolls it back.
    await createSaleIfMissing(tx, saleId, opts.userId ?? null);
    await lockOpenSale(tx, saleId);
    await releaseHold(tx, saleId);
    let currency = await basketCurrency(tx, saleId);
    const errors: string[] = [];
    let mismatched = false;

    const typeIds = [...new Set(request.tickets.map((t) => t.ticketTypeId))];
    const types = typeIds.length
      ? await tx
          .select({
            id: ticketTypes.id,
            name: ticketTypes.name,
            maxCanReserve: ticketTypes.maxCanReserve,
            eventMax: events.maxPerOrder,
            minPerCustomer: ticketTypes.minPerCustomer,
            typePool: ticketTypes.poolId,
            datePool: eventDates.poolId,
            currency: events.currency,
            eventDateId: ticketTypes.eventDateId,
          })
          .from(ticketTypes)
          .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
          .innerJoin(events, eq(events.id, eventDates.eventId))
          .where(inArray(ticketTypes.id, typeIds))
      : [];
    const byId = new Map(types.map((t) => [t.id, t]));
    const missing = typeIds.filter((id) => !byId.has(id));
    if (missing.length) throw new Refusal('not-found', 'One of the tickets you chose is no longer on sale');
    const seated = await seatedTypes(tx, typeIds);
    for (const line of request.tickets) {
      const type = byId.get(line.ticketTypeId)!;
      const chosen = line.seats?.length ?? 0;
      if (seated.has(type.id) && chosen === 0)
        throw new Refusal('invalid-input', t('page.basket.chooseSeats', { name: type.name }));
      if (!seated.has(type.id) && chosen > 0)
        throw new Refusal('invalid-input', t('page.basket.notSeated', { name: type.name }));
      if (chosen > 0 && chosen !== line.qty)
        throw new Refusal('invalid-input', t('page.basket.seatQuantity', { name: type.name, chosen }));
    }

    const existing = new Map(
      (await tx.select().from(saleLines).where(eq(saleLines.saleId, saleId))).map((l) => [l.ticketTypeId, l.qty]),
    );
    refuseOutsideLimits(request.tickets, byId, existing, opts.maxPerOrder);

    const available = await poolAvailability(
      tx,
      types.flatMap((t) => [t.datePool, ...(t.typePool ? [t.typePool] : [])]),
      now,
    );

    for (const line of request.tickets) {
      const type = byId.get(line.ticketTypeId)!;
      if (currency !== null && type.currency !== currency) {
        mismatched = true;
        continue;
      }
      if (seated.has(type.id)) {
        // A seated line is as long as its seats: each one held by the buyer now.
        const qty = await addSeatsToSale(tx, {
          saleId,
          ticketTypeId: type.id,
          ticketName: type.name,
          eventDateId: type.eventDateId,
          seats: line.seats!,
          now,
          seating: opts.seating ?? null,
        });
        currency ??= type.currency;
        existing.set(type.id, qty);
        await tx
          .insert(saleLines)
          .values({ saleId, ticketTypeId: type.id, qty })
          .onConflictDoUpdate({ target: [saleLines.saleId, saleLines.ticketTypeId], set: { qty } });
        continue;
      }
      const left = Math.min(
        available.get(type.datePool) ?? 0,
        type.typePool ? (available.get(type.typePool) ?? 0) : Infinity,
      );
      if (left <= 0) {
        errors.push(`${type.name} is sold out`);
        continue;
      }
      let qty = (existing.get(type.id) ?? 0) + line.qty;
      if (qty > left) {
        qty = left;
        errors.push(`Only ${left} ${type.name} ${left === 1 ? 'ticket is' : 'tickets are'} left`);
      }
      currency ??= type.currency;
      existing.set(type.id, qty);
      await tx
        .insert(saleLines)
        .values({ saleId, ticketTypeId: type.id, qty })
        .onConflictDoUpdate({ target: [saleLines.saleId, saleLines.ticketTypeId], set: { qty } });
    }

    for (const v of request.vouchers) {
      const [voucher] = await tx.select().from(giftVouchers).where(eq(giftVouchers.id, v.giftVoucherId));
      if (!voucher) throw new Refusal('not-found', 'That gift voucher is no longer on sale');
      refuseVoucherValue(voucher, v.value);
      if (currency !== null && voucher.currency !== currency) {
        mismatched = true;
        continue;
      }
      currency ??= voucher.currency;
      await tx
        .insert(saleVouchers)
        .values({ saleId, giftVoucherId: voucher.id, value: v.value, qty: v.qty })
        .onConflictDoUpdate({
          target: [saleVouchers.saleId, saleVouchers.giftVoucherId, saleVouchers.value],
          set: { qty: sql`${saleVouchers.qty} + ${v.qty}` },
        });
    }
    await refuseVoucherBasket(tx, saleId);

    await clearMessages(tx, saleId);
    await tx
      .update(sales)
      .set({ currency, basketErrors: errors, hadMismatchingCurrencies: mismatched })
      .where(eq(sales.id, saleId));
  });
}

export const SEATED_QUANTITY_MESSAGE =
  'The number of seated tickets is the number of seats chosen: remove the line and choose your seats again to change it.';

export async function updateTicketQuantity(
  db: Database,
  saleId: string,
  ticketTypeId: number,
  quantity: number,
  opts: BasketOptions = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockOpenSale(tx, saleId);
    const [line] = await linesWithEvents(tx, saleId, ticketTypeId);
    if (!line) throw new Refusal('not-found', 'That ticket is not in your basket');
    if (!line.ticketType.canUpdateQuantity)
      throw new Refusal('conflict', 'The quantity of this ticket cannot be changed');
    if ((await seatedTypes(tx, [ticketTypeId])).size > 0) throw new Refusal('conflict', SEATED_QUANTITY_MESSAGE);
    // Above the maximum the quantity is reduced to it, as the basket does with the spec's warning.
    const qty = Math.min(
      quantity,
      effectiveMaxPerOrder(line.ticketType.maxCanReserve, eventOf(line).maxPerOrder, opts.maxPerOrder),
    );
    await releaseHold(tx, saleId);
    await clearMessages(tx, saleId);
    await tx.update(saleLines).set({ qty }).where(eq(saleLines.id, line.id));
  });
}

export async function removeFromBasket(
  db: Database,
  saleId: string,
  ticketTypeId: number,
  seating: SeatingProvider | null = null,
): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    await lockOpenSale(tx, saleId);
    const removed = await tx
      .delete(saleLines)
      .where(and(eq(saleLines.saleId, saleId), eq(saleLines.ticketTypeId, ticketTypeId)))
      .returning({ id: saleLines.id });
    if (removed.length === 0) throw new Refusal('not-found', 'That ticket is not in your basket');
    await releaseHold(tx, saleId);
    const seatsGone = await removeSaleSeats(tx, saleId, ticketTypeId);
    await clearMessages(tx, saleId);
    await resetCurrencyIfEmpty(tx, saleId);
    return seatsGone;
  });
  // Once out of the basket, seats seats.io holds for the buyer are given back there.
  await releaseProviderSeats(seating, removed);
}

export async function updateGiftVoucherQuantity(
  db: Database,
  saleId: string,
  giftVoucherId: number,
  value: number,
  qty: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockOpenSale(tx, saleId);
    if (qty > MAX_VOUCHER_QTY) throw new Refusal('invalid-input', voucherQtyMessage(), { code: 'voucher' });
    const updated = await tx
      .update(saleVouchers)
      .set({ qty })
      .where(
        and(
          eq(saleVouchers.saleId, saleId),
          eq(saleVouchers.giftVoucherId, giftVoucherId),
          eq(saleVouchers.value, value),
        ),
      )
      .returning({ id: saleVouchers.id });
    if (updated.length === 0) throw new Refusal('not-found', 'That gift voucher is not in your basket');
    await releaseHold(tx, saleId);
    await clearMessages(tx, saleId);
  });
}

export async function removeGiftVoucher(
  db: Database,
  saleId: string,
  giftVoucherId: number,
  value: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockOpenSale(tx, saleId);
    const removed = await tx
      .delete(saleVouchers)
      .where(
        and(
          eq(saleVouchers.saleId, saleId),
          eq(saleVouchers.giftVoucherId, giftVoucherId),
          eq(saleVouchers.value, value),
        ),
      )
      .returning({ id: saleVouchers.id });
    if (removed.length === 0) throw new Refusal('not-found', 'That gift voucher is not in your basket');
    await releaseHold(tx, saleId);
    await clearMessages(tx, saleId);
    await resetCurrencyIfEmpty(tx, saleId);
  });
}

/** Refund protection changes the price, not the stock, so a live hold is kept; an open payment for the old price is closed. */
export async function setRefundProtection(db: Database, saleId: string, on: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    const sale = await lockOpenSale(tx, saleId);
    if (sale.refundProtection === on) return;
    await closeOpenPayments(tx, saleId);
    await tx.update(sales).set({ refundProtection: on }).where(eq(sales.id, saleId));
  });
}

/**
 * Applies a discount code when it covers the basket and has a use free now. Applying takes no
 * use: the reservation claims one (codes.ts), and releasing the hold gives it back. Answers
 * whether the code now applies to the basket.
 */
export async function setCode(db: Database, saleId: string, rawCode: string, now: Date = new Date()): Promise<boolean> {
  const code = rawCode.trim().toUpperCase();
  if (!code) return false;
  return db.transaction(async (tx) => {
    const sale = await lockOpenSale(tx, saleId);
    const [found] = await tx.select().from(discountCodes).where(eq(discountCodes.code, code));
    if (!found) return false;
    if (sale.discountCodeId === found.id) return true;
    const basket = (await linesWithEvents(tx, saleId)).map(eventOf);
    if (!basket.some((event) => codeCovers(found, { eventId: event.id, organiserId: event.organiserId }))) return false;
    if (!(await codeUseAvailable(tx, found, saleId, now))) return false;
    await releaseHold(tx, saleId);
    await clearMessages(tx, saleId);
    await tx
      .update(sales)
      .set({ discountCodeId: found.id, basketSuccess: [`Discount code ${found.code} applied`] })
      .where(eq(sales.id, saleId));
    return true;
  });
}

/** Gift vouchers are sold at the values the organiser offers, a few lines and a few of each per basket. */
export const MAX_VOUCHER_LINES = 10;
export const MAX_VOUCHER_QTY = 20;
const voucherQtyMessage = () => t('page.basket.voucherQty', { max: MAX_VOUCHER_QTY });
const voucherLinesMessage = () => t('page.basket.voucherLines', { max: MAX_VOUCHER_LINES });

function refuseVoucherLines(vouchers: AddRequest['vouchers']): void {
  if (vouchers.length > MAX_VOUCHER_LINES)
    throw new Refusal('invalid-input', voucherLinesMessage(), {
      code: 'voucher',
    });
  if (vouchers.some((v) => v.qty > MAX_VOUCHER_QTY))
    throw new Refusal('invalid-input', voucherQtyMessage(), { code: 'voucher' });
}

function refuseVoucherValue(voucher: typeof giftVouchers.$inferSelect, value: number): void {
  if (!voucher.suggestedValues.includes(value) || value < voucher.minValue || value > voucher.maxValue) {
    const offered = voucher.suggestedValues.map((v) => formatMoney(v, voucher.currency)).join(', ');
    throw new Refusal('invalid-input', t('page.basket.voucherValues', { name: voucher.name, offered }), {
      code: 'voucher',
    });
  }
}

/** After an add, the basket's voucher lines and quantities as a whole must still be within the caps. */
async function refuseVoucherBasket(tx: Tx, saleId: string): Promise<void> {
  const [row] = await tx
    .select({ lines: sql<number>`count(*)::int`, most: sql<number>`coalesce(max(${saleVouchers.qty}), 0)::int` })
    .from(saleVouchers)
    .where(eq(saleVouchers.saleId, saleId));
  if (Number(row?.lines ?? 0) > MAX_VOUCHER_LINES)
    throw new Refusal('invalid-input', voucherLinesMessage(), {
      code: 'voucher',
    });
  if (Number(row?.most ?? 0) > MAX_VOUCHER_QTY)
    throw new Refusal('invalid-input', voucherQtyMessage(), { code: 'voucher' });
}
