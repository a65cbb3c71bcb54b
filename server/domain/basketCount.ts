/**
 * The basket count of the site header (spec 001 §9) for the pages the server draws: the tickets and
 * gift vouchers of the buyer's sale while it is a basket (not yet paid), as the checkout counts them.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { saleLines, sales, saleVouchers } from '../db/schema.ts';

export async function basketItemCount(db: Pick<Database, 'select'>, saleId: string | null): Promise<number> {
  if (!saleId) return 0;
  const [open] = await db
    .select({ id: sales.id })
    .from(sales)
    .where(and(eq(sales.id, saleId), isNull(sales.paidAt)));
  if (!open) return 0;
  const [[tickets], [vouchers]] = await Promise.all([
    db
      .select({ n: sql<number>`coalesce(sum(${saleLines.qty}), 0)::int` })
      .from(saleLines)
      .where(eq(saleLines.saleId, saleId)),
    db
      .select({ n: sql<number>`coalesce(sum(${saleVouchers.qty}), 0)::int` })
      .from(saleVouchers)
      .where(eq(saleVouchers.saleId, saleId)),
  ]);
  return Number(tickets?.n ?? 0) + Number(vouchers?.n ?? 0);
}
