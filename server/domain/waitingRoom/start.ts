/**
 * What a server process starts for the waiting room: demo mode's on-sales, and the waiting list's
 * offers every few seconds for stock freed by no buyer's request (a refund, a hold left to expire);
 * every route that takes stock makes the list's offers first itself.
 */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import type { Mailer } from '../../mail/index.ts';
import { seedDemoOnSales } from './demo.ts';
import { startWaitingListJob, type WaitingListMail } from './waitingList.ts';

export const WAITING_LIST_INTERVAL_MS = 3000;

export async function startWaitingRoom(
  db: Database,
  config: Config,
  mailer: Mailer,
  clock: () => Date,
  onError: (err: unknown) => void,
  turn: () => Promise<boolean> = async () => true,
): Promise<() => void> {
  if (config.demo) await seedDemoOnSales(db, clock());
  return startWaitingListJob(db, waitingListMailOf(config, mailer), clock, WAITING_LIST_INTERVAL_MS, onError, turn);
}

/** What the waiting list's offers and e-mails need: the process's mailer and the configuration's names. */
export function waitingListMailOf(config: Config, mailer: Mailer): WaitingListMail {
  return {
    mailer,
    brandName: config.brandName,
    publicUrl: config.publicUrl,
    secret: config.sessionSecret,
    maxPerOrder: config.maxPerOrder,
  };
}
