/**
 * The delivery step's two ways: tickets issued to the buyer's account (BitTicket), or the wallet
 * e-mailed. A payment plan's sale gets its tickets once the plan is paid in full.
 */
import type { Database } from '../db/index.ts';
import type { Mailer } from '../mail/index.ts';
import { deliverPaidTickets } from './instalments/plans.ts';
import { issueTickets } from './tickets.ts';
import { deliverWallet } from './wallet.ts';

/** Issues the sale's tickets (a plan's fully paid ones); answers whether delivery is complete. */
export async function deliverToAccount(db: Database, saleId: string, now: Date): Promise<boolean> {
  const plan = await deliverPaidTickets(db, saleId, now);
  if (plan) return true;
  const issue = await issueTickets(db, saleId, now);
  return issue.issued;
}

/**
 * E-mails the buyer the wallet of the sale's tickets; answers whether delivery is complete. A plan
 * with nothing fully paid yet has no wallet to send: its schedule e-mail went instead. A mail
 * server that refuses or cannot be reached rejects, and the buyer may try again.
 */
export async function deliverToWallet(
  db: Database,
  mail: { mailer: Mailer; brandName: string },
  saleId: string,
  walletUrl: string,
  now: Date,
): Promise<boolean> {
  if (((await deliverPaidTickets(db, saleId, now))?.count ?? 1) === 0) return true;
  const delivery = await deliverWallet(db, mail, saleId, walletUrl, now);
  return delivery.delivered;
}
