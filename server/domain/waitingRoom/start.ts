/** What a server process starts for the waiting room: demo mode's on-sales, and the waiting list's offers every few seconds. */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/index.ts';
import { mailerOf } from '../../providers/index.ts';
import { seedDemoOnSales } from './demo.ts';
import { startWaitingListJob } from './waitingList.ts';

export const WAITING_LIST_INTERVAL_MS = 3000;

export async function startWaitingRoom(db: Database, config: Config, clock: () => Date, onError: (err: unknown) => void): Promise<() => void> {
  if (config.demo) await seedDemoOnSales(db, clock());
  const mail = { mailer: mailerOf(config), brandName: config.brandName, publicUrl: config.publicUrl };
  return startWaitingListJob(db, mail, clock, config.checkoutTimeSeconds, WAITING_LIST_INTERVAL_MS, onError);
}
