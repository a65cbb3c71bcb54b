/**
 * Discount-code uses follow the life of stock holds. A use counts while its sale holds stock (its
 * hold deadline is ahead, or a payment begun in time keeps its holds through the grace) or has paid (`used`, moved only by a completed payment); applying a
 * code to a basket takes nothing. So a use is given back the instant its sale's hold is
 * released: the sale destroyed or emptied, an edit to the basket, or the deadline passing, with
 * no counter to decrement and so nothing released twice.
 *
 * The claim is made when the sale reserves, under the code's row lock (in the database function
 * `reserve_claims`, server/db/functions/reserve_claims.sql), so a usage limit holds however many
 * buyers reserve with one code at once. Its count is bounded by the limit itself.
 */
import { and, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/index.ts';
import { sales } from '../db/schema.ts';

/** Uses a code has now: paid ones plus sales other than `exceptSale` holding stock with it. */
async function usesNow(
  tx: Pick<Executor, 'select'>,
  codeId: number,
  now: Date,
  exceptSale: string | null,
): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(sales)
    .where(
      and(
        eq(sales.discountCodeId, codeId),
        isNull(sales.paidAt),
        or(
          gt(sales.holdDeadline, now),
          sql`EXISTS (SELECT 1 FROM holds h WHERE h.sale_id = ${sales.id} AND h.deadline > ${now.toISOString()}::timestamptz)`,
        ),
        exceptSale ? ne(sales.id, exceptSale) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

/** Whether a use is free now (advisory, when the code is applied: the claim at reservation is what counts). */
export async function codeUseAvailable(
  tx: Pick<Executor, 'select'>,
  code: { id: number; usageLimit: number | null; used: number },
  saleId: string,
  now: Date,
): Promise<boolean> {
  if (code.usageLimit === null) return true;
  return code.used + (await usesNow(tx, code.id, now, saleId)) < code.usageLimit;
}
