/**
 * The wallet e-mail (spec 001 §4 Delivery, deliver_to_wallet): the buyer gets the sale's tickets by
 * e-mail, through the outbox (and SMTP when configured), once per sale. A row in
 * `wallet_deliveries` claims the sending; when the mail cannot be delivered the claim is given
 * back, so the buyer's retry sends it.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { sales, users, walletDeliveries } from '../db/schema.ts';
import { Refusal } from './refusal.ts';
import { NOT_PAID_MESSAGE, ticketsOfSale } from './tickets.ts';
import { sendMail, walletMail, type Mailer } from '../mail/index.ts';
import { writtenForBuyer } from './accountLanguage.ts';

export type WalletDelivery =
  { delivered: true; alreadySent: boolean } | { delivered: false; reason: 'no-tickets' | 'no-buyer' };

export async function deliverWallet(
  db: Database,
  mail: { mailer: Mailer; brandName: string },
  saleId: string,
  walletUrl: string,
  now: Date,
): Promise<WalletDelivery> {
  const [sale] = await db
    .select({ paidAt: sales.paidAt, userId: sales.userId, reference: sales.reference, buyerEmail: sales.buyerEmail })
    .from(sales)
    .where(eq(sales.id, saleId));
  if (!sale) throw new Refusal('not-found', 'Your basket could not be found. Please add your tickets again.');
  if (!sale.paidAt) throw new Refusal('not-paid', NOT_PAID_MESSAGE);
  // The account's address, or an express buyer's address not proven yet (the tickets go there all the same).
  const [buyer] =
    sale.userId !== null
      ? await db.select({ email: users.email }).from(users).where(eq(users.id, sale.userId))
      : sale.buyerEmail !== null
        ? [{ email: sale.buyerEmail }]
        : [];
  if (!buyer) return { delivered: false, reason: 'no-buyer' };
  const list = await ticketsOfSale(db, saleId);
  if (list.length === 0) return { delivered: false, reason: 'no-tickets' };

  const claimed = await db
    .insert(walletDeliveries)
    .values({ saleId, recipient: buyer.email, sentAt: now })
    .onConflictDoNothing()
    .returning({ saleId: walletDeliveries.saleId });
  if (claimed.length === 0) return { delivered: true, alreadySent: true };
  try {
    // In the buyer's request, its language; from a job (a plan's final instalment), the buyer's own.
    const content = await writtenForBuyer(db, { email: buyer.email }, () =>
      walletMail(mail.brandName, { saleReference: sale.reference, tickets: list, walletUrl }),
    );
    await sendMail(db, mail.mailer, mail.brandName, { to: buyer.email, ...content }, now);
  } catch (err) {
    await db.delete(walletDeliveries).where(eq(walletDeliveries.saleId, saleId));
    throw err;
  }
  return { delivered: true, alreadySent: false };
}

/** The sale's e-mail and reference for the order-completed screen (get_simple_info). */
export async function simpleInfo(
  db: Database,
  saleId: string | null,
): Promise<{ sale_email: string | null; sale_reference: string | null }> {
  if (!saleId) return { sale_email: null, sale_reference: null };
  const [row] = await db
    .select({
      reference: sales.reference,
      email: users.email,
      buyerEmail: sales.buyerEmail,
      verifiedEmail: sales.verifiedEmail,
    })
    .from(sales)
    .leftJoin(users, eq(users.id, sales.userId))
    .where(eq(sales.id, saleId));
  if (!row) return { sale_email: null, sale_reference: null };
  return { sale_email: row.email ?? row.buyerEmail ?? row.verifiedEmail, sale_reference: row.reference };
}
