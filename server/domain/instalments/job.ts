/**
 * The instalment job: on each run, as of the clock it is given,
 * - e-mails a reminder REMINDER_DAYS before each scheduled instalment (once per instalment);
 * - charges every instalment whose time has come on the plan's saved card, off-session;
 * - after a failed charge retries RETRY_AFTER_DAYS later (1 day, then 3 more days); when the last
 *   try fails the instalment and its plan are failed and the buyer and the organiser are told;
 * - after the final payment, delivers the remaining tickets and e-mails the wallet.
 *
 * Each instalment is charged on its own: a charge that throws (a processor that cannot be reached,
 * a card it no longer knows) does not stop the run. The instalment stays scheduled with its error in
 * `last_error` and is tried again ERROR_RETRY_MS later under the same key, since nobody can tell
 * whether the processor took the money: asked again under that key, it answers the first charge.
 *
 * Its state is the database (instalments.status, attempts, next_attempt_at, reminder_sent_at),
 * so it survives restarts. Each instalment is charged inside a transaction that holds its row
 * (`FOR UPDATE SKIP LOCKED`) and re-reads it, under the key `instalment:<id>:<attempt>`: two
 * runners at once never charge one instalment twice, and a processor asked again under the same
 * key answers the first charge.
 */
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { rows, type Database } from '../../db/index.ts';
import { instalmentPlans, instalments, savedPaymentMethods } from '../../db/schema.ts';
import { deliverWallet } from '../wallet.ts';
import { eventOf, linesWithEvents } from '../saleLines.ts';
import {
  finalInstalmentPaidMail,
  instalmentPaidMail,
  instalmentReminderMail,
  instalmentRetryMail,
  planFailedMail,
  planStoppedMail,
  sendMail,
  type MailContent,
} from '../../mail/index.ts';
import { accountSettingsUrl, instalmentReminderSms } from '../../mail/instalments.ts';
import { phoneForSms, sendSms, type SmsSender } from '../../sms/index.ts';
import type { SavedCardProcessor } from './offSession.ts';
import { deliverPaidTickets, scheduleOf, type PlanMail } from './plans.ts';
import { writtenFor } from '../accountLanguage.ts';

const DAY_MS = 86_400_000;
/** Days before an instalment's due date its reminder is sent. */
export const REMINDER_DAYS = 3;
/** After the first failed charge: retried 1 day later, then 3 days after that; then the plan fails. */
export const RETRY_AFTER_DAYS = [1, 3] as const;
export const MAX_ATTEMPTS = RETRY_AFTER_DAYS.length + 1;
/** How long an instalment whose charge threw waits before it is tried again. */
export const ERROR_RETRY_MS = 3_600_000;

export interface JobReport {
  reminded: number;
  /** Reminders sent as text messages as well. */
  textsSent: number;
  charged: number;
  failed: number;
  retrying: number;
  completedPlans: number;
  /** Charges that could not be completed (the processor threw): each stays due and is tried again later. */
  errored: number;
}

export interface JobDeps {
  db: Database;
  cards: SavedCardProcessor;
  mail: PlanMail;
  walletUrl: string;
  /** Twilio when keyed; null or absent keeps text messages in the outbox. */
  sms?: SmsSender | null;
}

interface Party {
  saleId: string;
  reference: string | null;
  buyerEmail: string;
  /** The contact number the buyer gave when setting up the plan. */
  contactNumber: string;
  organiserName: string;
  organiserEmail: string | null;
  organiserId: number | null;
}

async function partiesOf(db: Database, saleId: string): Promise<Party> {
  const plan = await db.query.instalmentPlans.findFirst({
    where: eq(instalmentPlans.saleId, saleId),
    with: { sale: true, user: true },
  });
  const [line] = plan?.sale ? await linesWithEvents(db, saleId) : [];
  const organiser = line && eventOf(line).organiser;
  return {
    saleId,
    reference: plan?.sale?.reference ?? null,
    buyerEmail: plan?.user?.email ?? '',
    contactNumber: plan?.contactNumber ?? '',
    organiserName: organiser?.name ?? '',
    organiserEmail: organiser?.contactEmail ?? null,
    organiserId: organiser?.id ?? null,
  };
}

/**
 * Reminders first (each claimed by one statement, so sent once), then the charges due. `onError`
 * hears of each charge that threw and each e-mail that could not be sent; the run goes on.
 */
export async function runInstalmentJob(
  deps: JobDeps,
  now: Date,
  onError: (err: unknown) => void = () => {},
): Promise<JobReport> {
  const report: JobReport = {
    reminded: 0,
    textsSent: 0,
    charged: 0,
    failed: 0,
    retrying: 0,
    completedPlans: 0,
    errored: 0,
  };
  const { db } = deps;

  const remind = await rows<{ id: number; sale_id: string; seq: number; due_at: string; amount: number }>(
    db,
    sql`UPDATE instalments SET reminder_sent_at = ${now.toISOString()}::timestamptz
         WHERE status = 'scheduled' AND reminder_sent_at IS NULL
           AND due_at <= ${new Date(now.getTime() + REMINDER_DAYS * DAY_MS).toISOString()}::timestamptz
           AND attempts = 0
         RETURNING id, sale_id, seq, due_at, amount`,
  );
  for (const r of remind) {
    const party = await partiesOf(db, r.sale_id);
    // Written in the buyer's language (their account's, else the organiser's), as every message of the job is.
    const buyer = { email: party.buyerEmail, organiserId: party.organiserId };
    const reminder = await writtenFor(db, buyer, () =>
      instalmentReminderMail({
        saleReference: party.reference,
        seq: r.seq,
        amount: Number(r.amount),
        dueAt: new Date(r.due_at),
        settingsUrl: accountSettingsUrl(deps.mail.publicUrl, party.reference),
      }),
    );
    await sendMail(db, deps.mail.mailer, deps.mail.brandName, { to: party.buyerEmail, ...reminder }, now);
    // The plan promised an SMS reminder too; a text that cannot be sent is reported, and the e-mail has gone.
    if (party.contactNumber) {
      const text = await writtenFor(db, buyer, () =>
        instalmentReminderSms(deps.mail.brandName, {
          saleReference: party.reference,
          seq: r.seq,
          amount: Number(r.amount),
          dueAt: new Date(r.due_at),
        }),
      );
      await sendSms(db, deps.sms ?? null, { to: phoneForSms(party.contactNumber), text }, now).then(
        () => report.textsSent++,
        (err: unknown) => onError(err),
      );
    }
    report.reminded++;
  }

  // One instalment per transaction, until none is due that another runner is not already charging.
  for (;;) {
    let outcome: ChargeOutcome | null;
    try {
      outcome = await chargeNextDue(deps, now);
    } catch (err) {
      if (!(err instanceof ChargeThrew)) throw err;
      report.errored++;
      onError(err);
      await keepDue(deps.db, err, now);
      continue;
    }
    if (outcome === null) break;
    if (outcome.kind === 'paid') report.charged++;
    if (outcome.kind === 'retrying') report.retrying++;
    if (outcome.kind === 'failed') report.failed++;
    if (outcome.kind === 'paid' && outcome.final) report.completedPlans++;
    // The charge is committed: telling the buyer is not allowed to stop the other plans either.
    await tell(deps, outcome, now).catch(onError);
  }
  return report;
}

/** A charge that threw, for the instalment it was taking (its transaction rolled back). */
export class ChargeThrew extends Error {
  constructor(
    readonly instalment: { id: number; saleId: string; attempts: number },
    cause: unknown,
  ) {
    super(
      `Instalment ${instalment.id} of sale ${instalment.saleId} could not be charged: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'ChargeThrew';
  }
}

/**
 * The instalment whose charge threw stays scheduled, its attempt not spent, tried again
 * ERROR_RETRY_MS later; unless another runner has settled it meanwhile.
 */
async function keepDue(db: Database, err: ChargeThrew, now: Date): Promise<void> {
  const cause = err.cause instanceof Error ? err.cause.message : String(err.cause);
  await db
    .update(instalments)
    .set({
      nextAttemptAt: new Date(now.getTime() + ERROR_RETRY_MS),
      lastError: `The charge could not be completed: ${cause}`.slice(0, 500),
    })
    .where(
      and(
        eq(instalments.id, err.instalment.id),
        eq(instalments.status, 'scheduled'),
        eq(instalments.attempts, err.instalment.attempts),
      ),
    );
}

type ChargeOutcome =
  | { kind: 'paid'; saleId: string; seq: number; amount: number; final: boolean }
  | { kind: 'retrying'; saleId: string; seq: number; amount: number; message: string; nextAt: Date }
  | { kind: 'failed'; saleId: string; seq: number; amount: number; message: string };

async function chargeNextDue(deps: JobDeps, now: Date): Promise<ChargeOutcome | null> {
  return deps.db.transaction(async (tx) => {
    const [due] = await tx
      .select({ instalment: instalments, plan: instalmentPlans, card: savedPaymentMethods })
      .from(instalments)
      .innerJoin(instalmentPlans, eq(instalmentPlans.saleId, instalments.saleId))
      .innerJoin(savedPaymentMethods, eq(savedPaymentMethods.id, instalmentPlans.paymentMethodId))
      .where(
        and(
          eq(instalments.status, 'scheduled'),
          eq(instalmentPlans.status, 'active'),
          lte(instalments.nextAttemptAt, now),
        ),
      )
      .orderBy(asc(instalments.nextAttemptAt), asc(instalments.id))
      .limit(1)
      .for('update', { of: instalments, skipLocked: true });
    if (!due) return null;
    const { instalment: row, plan, card } = due;
    // Earlier instalments first: a later one waits while an earlier one of its plan is unpaid.
    const [earlier] = await tx
      .select({ id: instalments.id })
      .from(instalments)
      .where(
        and(
          eq(instalments.saleId, row.saleId),
          sql`${instalments.seq} < ${row.seq}`,
          sql`${instalments.status} <> 'paid'`,
        ),
      );
    if (earlier) {
      await tx
        .update(instalments)
        .set({ nextAttemptAt: new Date(now.getTime() + DAY_MS) })
        .where(eq(instalments.id, row.id));
      return {
        kind: 'retrying',
        saleId: row.saleId,
        seq: row.seq,
        amount: row.amount,
        message: 'An earlier instalment is unpaid.',
        nextAt: new Date(now.getTime() + DAY_MS),
      };
    }
    const attempt = row.attempts + 1;
    const [{ count }] = (await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(instalments)
      .where(eq(instalments.saleId, row.saleId))) as [{ count: number }];
    const charge = await deps.cards
      .charge(tx, {
        paymentMethodId: card.providerMethodId,
        amount: row.amount,
        currency: plan.currency,
        idempotencyKey: `instalment:${row.id}:${attempt}`,
        offSession: true,
        now,
        description: `Instalment ${row.seq} of ${Number(count)}`,
      })
      .catch((err: unknown) => {
        throw new ChargeThrew({ id: row.id, saleId: row.saleId, attempts: row.attempts }, err);
      });
    if (charge.status === 'succeeded') {
      await tx
        .update(instalments)
        .set({ status: 'paid', attempts: attempt, paidAt: now, providerPaymentId: charge.id, lastError: null })
        .where(eq(instalments.id, row.id));
      const [left] = await tx
        .select({ id: instalments.id })
        .from(instalments)
        .where(and(eq(instalments.saleId, row.saleId), sql`${instalments.status} <> 'paid'`));
      if (!left)
        await tx
          .update(instalmentPlans)
          .set({ status: 'completed', completedAt: now })
          .where(eq(instalmentPlans.saleId, row.saleId));
      return { kind: 'paid', saleId: row.saleId, seq: row.seq, amount: row.amount, final: !left };
    }
    if (attempt < MAX_ATTEMPTS) {
      const nextAt = new Date(now.getTime() + RETRY_AFTER_DAYS[attempt - 1]! * DAY_MS);
      await tx
        .update(instalments)
        .set({ attempts: attempt, nextAttemptAt: nextAt, lastError: charge.message })
        .where(eq(instalments.id, row.id));
      return {
        kind: 'retrying',
        saleId: row.saleId,
        seq: row.seq,
        amount: row.amount,
        message: charge.message,
        nextAt,
      };
    }
    await tx
      .update(instalments)
      .set({ status: 'failed', attempts: attempt, lastError: charge.message })
      .where(eq(instalments.id, row.id));
    await tx.update(instalmentPlans).set({ status: 'failed' }).where(eq(instalmentPlans.saleId, row.saleId));
    return { kind: 'failed', saleId: row.saleId, seq: row.seq, amount: row.amount, message: charge.message };
  });
}

/** What the buyer (and, for a plan that failed, the organiser) is told, after the charge committed. */
async function tell(deps: JobDeps, o: ChargeOutcome, now: Date): Promise<void> {
  const { db, mail } = deps;
  const party = await partiesOf(db, o.saleId);
  // Each message in its recipient's language: the account's, else the organiser's default.
  const send = async (to: string, write: () => MailContent | Promise<MailContent>) =>
    sendMail(
      db,
      mail.mailer,
      mail.brandName,
      { to, ...(await writtenFor(db, { email: to, organiserId: party.organiserId }, write)) },
      now,
    );
  const instalment = { saleReference: party.reference, seq: o.seq, amount: o.amount };
  const settingsUrl = accountSettingsUrl(mail.publicUrl, party.reference);
  if (o.kind === 'paid') {
    await deliverPaidTickets(db, o.saleId, now);
    if (o.final) {
      await deliverWallet(db, mail, o.saleId, deps.walletUrl, now);
      await send(party.buyerEmail, () => finalInstalmentPaidMail({ ...instalment, walletUrl: deps.walletUrl }));
    } else {
      const schedule = await scheduleOf(db, o.saleId);
      await send(party.buyerEmail, () => instalmentPaidMail({ ...instalment, schedule }));
    }
    return;
  }
  if (o.kind === 'retrying') {
    if (o.message === 'An earlier instalment is unpaid.') return;
    await send(party.buyerEmail, () =>
      instalmentRetryMail({ ...instalment, reason: o.message, retryAt: o.nextAt, settingsUrl }),
    );
    return;
  }
  const stopped = { ...instalment, reason: o.message, attempts: MAX_ATTEMPTS };
  await send(party.buyerEmail, () => planStoppedMail({ ...stopped, organiserName: party.organiserName, settingsUrl }));
  if (party.organiserEmail)
    await send(party.organiserEmail, () => planFailedMail({ ...stopped, buyerEmail: party.buyerEmail }));
}

/** The job's own loop for a running server: every `intervalMs`, as of `clock()`, in the process whose `turn` it is (db/jobLease.ts). */
export function startInstalmentJob(
  deps: JobDeps,
  clock: () => Date,
  intervalMs: number,
  onError: (err: unknown) => void,
  turn: () => Promise<boolean> = async () => true,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    turn()
      .then(async (mine) => {
        if (mine) await runInstalmentJob(deps, clock(), onError);
      })
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
