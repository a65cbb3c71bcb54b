/**
 * Every job a server process runs besides answering requests, started from this one place with the
 * providers the app answers with (the same mailer, bank, card processors and seating provider):
 * the sweep (the sandbox bank's slow decisions, scheduled ticket transfers, expired holds, abandoned
 * sales, old rate-limit counts), the waiting room's demo on-sales and waiting-list offers, the
 * instalment plans' charges and the reconciliation of payments left open. Each runs in one process
 * at a time however many share the database (`turn`: db/jobLease.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import { purgeRateLimits } from './db/rateLimits.ts';
import { startInstalmentJob } from './domain/instalments/job.ts';
import { settleDueBankDecisions } from './domain/payment/bankTransfer.ts';
import { startReconcileJob } from './domain/payment/reconcile.ts';
import { purgeSales } from './domain/sales.ts';
import { sweepExpiredHolds } from './domain/stock.ts';
import { sendDueTransfers } from './domain/transfers.ts';
import { startWaitingRoom } from './domain/waitingRoom/start.ts';
import { instalmentJobDeps, type AppDeps } from './http/deps.ts';
import { processorLinks } from './providers/processorLinks.ts';

export interface JobOptions {
  /** Whether this process runs the jobs now; always when not given. */
  turn?: () => Promise<boolean>;
  log: FastifyBaseLogger;
}

/** Starts the jobs; the answer stops them all. */
export async function startJobs(deps: AppDeps, { turn = async () => true, log }: JobOptions): Promise<() => void> {
  const { db, config, clock } = deps;
  const stops: (() => void)[] = [];

  stops.push(
    await startWaitingRoom(
      db,
      config,
      deps.mailer,
      clock,
      (err) => log.error({ err }, 'waiting list offers failed'),
      turn,
    ),
  );

  if (config.instalmentJobIntervalMs !== null) {
    stops.push(
      startInstalmentJob(
        instalmentJobDeps(deps),
        clock,
        config.instalmentJobIntervalMs,
        (err) => log.error({ err }, 'instalment job failed'),
        turn,
      ),
    );
  }
  // Payments left open are asked about at their processor once a minute, with the sweeper's rhythm at most.
  const reconcileIntervalMs = Math.min(60_000, config.sweepIntervalMs * 2);
  stops.push(
    startReconcileJob(
      db,
      processorLinks(deps),
      deps.seating,
      clock,
      reconcileIntervalMs,
      (err) => log.error({ err }, 'payment reconciliation failed'),
      turn,
    ),
  );

  // Scheduled gifts are e-mailed by the sweeper at their delivery date and time.
  const transferMail = { mailer: deps.mailer, brandName: config.brandName };
  const bank = deps.bank.bank;
  const sweep = async (now: Date) => {
    // The sandbox bank's slow approvals arrive even when no buyer is watching.
    if (bank.name === 'sandbox_bank') await settleDueBankDecisions(db, bank, now, deps.seating);
    await sendDueTransfers(db, transferMail, now).then(
      (n) => n > 0 && log.info({ sent: n }, 'sent scheduled ticket transfers'),
      (err: unknown) => log.error({ err }, 'ticket transfer sweep failed'),
    );
    const released = await sweepExpiredHolds(db, now);
    if (released > 0) log.info({ released }, 'released expired holds');
    const purged = await purgeSales(db, now);
    if (config.rateLimitStore === 'database') await purgeRateLimits(db);
    if (purged > 0) log.info({ purged }, 'purged empty and abandoned sales');
  };
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    const now = clock();
    turn()
      .then((mine) => (mine ? sweep(now) : undefined))
      .catch((err: unknown) => log.error({ err }, 'hold sweep failed'))
      .finally(() => (sweeping = false));
  }, config.sweepIntervalMs);
  sweeper.unref();
  stops.push(() => clearInterval(sweeper));

  return () => {
    for (const stop of stops) stop();
  };
}
