/**
 * Basket edits. Each runs in one transaction with the sale locked, and releases any hold first:
 * editing the basket of a reserved sale destroys the reservation, as the checkout expects.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/index.ts';
import { discountCodes, eventDates, events, giftVouchers, saleLines, saleVouchers, sales, ticketTypes } from '../db/schema.ts';
import { DomainError } from './errors.ts';
import { clearMessages, lockSale, releaseHold } from './sales.ts';
import { poolAvailability } from './stock.ts';
import { codeCovers } from './pricing.ts';

export interface AddRequest {
  tickets: { ticketTypeId: number; qty: number }[];
  vouchers: { giftVoucherId: number; qty: number; value: number }[];
}

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

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
  if ((await basketCurrency(tx, saleId)) === null) await tx.update(sales).set({ currency: null }).where(eq(sales.id, saleId));
}

export async function addToBasket(db: Database, saleId: string, request: AddRequest, now: Date): Promise<void> {
  if (request.tickets.length === 0 && request.vouchers.length === 0) {
    throw new DomainError(400, 'Choose at least one ticket or gift voucher to add');
  }
  await db.transaction(async (tx) => {
    await lockSale(tx, saleId);
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
            typePool: ticketTypes.poolId,
            datePool: eventDates.poolId,
            currency: events.currency,
          })
          .from(ticketTypes)
          .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
          .innerJoin(events, eq(events.id, eventDates.eventId))
          .where(inArray(ticketTypes.id, typeIds))
      : [];
    const byId = new Map(types.map((t) => [t.id, t]));
    const missing = typeIds.filter((id) => !byId.has(id));
    if (missing.length) throw new DomainError(404, 'One of the tickets you chose is no longer on sale');

    const available = await poolAvailability(
      tx,
      types.flatMap((t) => [t.datePool, ...(t.typePool ? [t.typePool] : [])]),
      now,
    );
    const existing = new Map(
      (await tx.select().from(saleLines).where(eq(saleLines.saleId, saleId))).map((l) => [l.ticketTypeId, l.qty]),
    );

    for (const line of request.tickets) {
      const type = byId.get(line.ticketTypeId)!;
      if (currency !== null && type.currency !== currency) {
        mismatched = true;
        continue;
      }
      const left = Math.min(available.get(type.datePool) ?? 0, type.typePool ? (available.get(type.typePool) ?? 0) : Infinity);
      if (left <= 0) {
        errors.push(`${type.name} is sold out`);
        continue;
      }
      let qty = (existing.get(type.id) ?? 0) + line.qty;
      if (type.maxCanReserve > 0 && qty > type.maxCanReserve) {
        qty = type.maxCanReserve;
        errors.push(`You can only reserve ${type.maxCanReserve} tickets of ${type.name}`);
      }
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
      if (!voucher) throw new DomainError(404, 'That gift voucher is no longer on sale');
      if (v.value < voucher.minValue || v.value > voucher.maxValue) {
        throw new DomainError(
          400,
          `${voucher.name} values range from ${voucher.minValue / 100} to ${voucher.maxValue / 100} ${voucher.currency}`,
        );
      }
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
          set: { qty: sql`least(${saleVouchers.qty} + ${v.qty}, 1000)` },
        });
    }

    await clearMessages(tx, saleId);
    await tx
      .update(sales)
      .set({ currency, basketErrors: errors, hadMismatchingCurrencies: mismatched })
      .where(eq(sales.id, saleId));
  });
}

export async function updateTicketQuantity(db: Database, saleId: string, ticketTypeId: number, quantity: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSale(tx, saleId);
    const [line] = await tx
      .select({ id: saleLines.id, canUpdate: ticketTypes.canUpdateQuantity, max: ticketTypes.maxCanReserve })
      .from(saleLines)
      .innerJoin(ticketTypes, eq(ticketTypes.id, saleLines.ticketTypeId))
      .where(and(eq(saleLines.saleId, saleId), eq(saleLines.ticketTypeId, ticketTypeId)));
    if (!line) throw new DomainError(404, 'That ticket is not in your basket');
    if (!line.canUpdate) throw new DomainError(409, 'The quantity of this ticket cannot be changed');
    const qty = line.max > 0 ? Math.min(quantity, line.max) : quantity;
    await releaseHold(tx, saleId);
    await clearMessages(tx, saleId);
    await tx.update(saleLines).set({ qty }).where(eq(saleLines.id, line.id));
  });
}

export async function removeFromBasket(db: Database, saleId: string, ticketTypeId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSale(tx, saleId);
    const removed = await tx
      .delete(saleLines)
      .where(and(eq(saleLines.saleId, saleId), eq(saleLines.ticketTypeId, ticketTypeId)))
      .returning({ id: saleLines.id });
    if (removed.length === 0) throw new DomainError(404, 'That ticket is not in your basket');
    await releaseHold(tx, saleId);
    await clearMessages(tx, saleId);
    await resetCurrencyIfEmpty(tx, saleId);
  });
}

export async function updateGiftVoucherQuantity(db: Database, saleId: string, giftVoucherId: number, value: number, qty: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSale(tx, saleId);
    const updated = await tx
      .update(saleVouchers)
      .set({ qty })
      .where(and(eq(saleVouchers.saleId, saleId), eq(saleVouchers.giftVoucherId, giftVoucherId), eq(saleVouchers.value, value)))
      .returning({ id: saleVouchers.id });
    if (updated.length === 0) throw new DomainError(404, 'That gift voucher is not in your basket');
    await releaseHold(tx, saleId);
    await clearMessages(tx, saleId);
  });
}

export async function removeGiftVoucher(db: Database, saleId: string, giftVoucherId: number, value: number): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSale(tx, saleId);
    const removed = await tx
      .delete(saleVouchers)
      .where(and(eq(saleVouchers.saleId, saleId), eq(saleVouchers.giftVoucherId, giftVoucherId), eq(saleVouchers.value, value)))
      .returning({ id: saleVouchers.id });
    if (removed.length === 0) throw new DomainError(404, 'That gift voucher is not in your basket');
    await releaseHold(tx, saleId);
    await clearMessages(tx, saleId);
    await resetCurrencyIfEmpty(tx, saleId);
  });
}

/** Refund protection changes the price, not the stock, so a live hold is kept. */
export async function setRefundProtection(db: Database, saleId: string, on: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    await lockSale(tx, saleId);
    await tx.update(sales).set({ refundProtection: on }).where(eq(sales.id, saleId));
  });
}

/**
 * Applies a discount code. A code's use is claimed when it is applied, by one conditional
 * UPDATE, so a usage limit holds however many buyers apply it at once; replacing a code gives
 * its use back. Answers whether the code now applies to the basket.
 */
export async function setCode(db: Database, saleId: string, rawCode: string): Promise<boolean> {
  const code = rawCode.trim().toUpperCase();
  if (!code) return false;
  return db.transaction(async (tx) => {
    const sale = await lockSale(tx, saleId);
    const [found] = await tx.select().from(discountCodes).where(eq(discountCodes.code, code));
    if (!found) return false;
    if (sale.discountCodeId === found.id) return true;
    const basket = await tx
      .select({ eventId: events.id, organiserId: events.organiserId })
      .from(saleLines)
      .innerJoin(ticketTypes, eq(ticketTypes.id, saleLines.ticketTypeId))
      .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
      .innerJoin(events, eq(events.id, eventDates.eventId))
      .where(eq(saleLines.saleId, saleId));
    if (!basket.some((line) => codeCovers(found, line))) return false;
    if (!(await claimCodeUse(tx, found.id))) return false;
    if (sale.discountCodeId !== null) await giveBackCodeUse(tx, sale.discountCodeId);
    await releaseHold(tx, saleId);
    await clearMessages(tx, saleId);
    await tx
      .update(sales)
      .set({ discountCodeId: found.id, basketSuccess: [`Discount code ${found.code} applied`] })
      .where(eq(sales.id, saleId));
    return true;
  });
}

async function claimCodeUse(tx: Pick<Executor, 'update'>, codeId: number): Promise<boolean> {
  const claimed = await tx
    .update(discountCodes)
    .set({ used: sql`${discountCodes.used} + 1` })
    .where(
      and(
        eq(discountCodes.id, codeId),
        sql`(${discountCodes.usageLimit} IS NULL OR ${discountCodes.used} < ${discountCodes.usageLimit})`,
      ),
    )
    .returning({ id: discountCodes.id });
  return claimed.length === 1;
}

async function giveBackCodeUse(tx: Pick<Executor, 'update'>, codeId: number): Promise<void> {
  await tx
    .update(discountCodes)
    .set({ used: sql`greatest(${discountCodes.used} - 1, 0)` })
    .where(eq(discountCodes.id, codeId));
}
