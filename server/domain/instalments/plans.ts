/**
 * Payment plans (spec 001 §2, §4, §7 pay_with_instalment, §9): which options a basket is offered
 * and their schedules, setting a plan up (the first instalment taken at once while the buyer is
 * there, the rest kept as a schedule for the job), what remains to pay, and which tickets are
 * already delivered.
 *
 * Which tickets are delivered when: a plan's sale is booked (its stock sold) when the plan is set
 * up, and its tickets are issued once the plan is paid in full: the final payment issues every
 * ticket and e-mails the wallet. Before that no ticket exists, so a plan that fails has issued none
 * (and a ticket can never be one whose price the instalments paid so far do not cover).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/index.ts';
import { instalmentPlans, instalments, saleLines, salePaymentDetails, savedPaymentMethods } from '../../db/schema.ts';
import {
  isValidPhone,
  PAY_IN_FULL_OPTION,
  PLAN_CURRENCY,
  type Checkout,
  type SavedPaymentMethod,
} from '../../../contract/index.ts';
import { INSTALMENT_MESSAGES } from '../../../contract/messages/instalment.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import { completeSale } from '../completeSale.ts';
import type { SeatingProvider } from '../seating/provider.ts';
import { isRefusal, Refusal } from '../refusal.ts';
import {
  ALREADY_PAID_MESSAGE,
  BASKET_CHANGED_MESSAGE,
  holdLost,
  refundUnbooked,
  totalUnderLock,
  unbookedRefundsOf,
} from '../payment/payments.ts';
import { closeOpenPayments } from '../payment/paidFor.ts';
import { findSale, holdIsLive, lockSale } from '../sales.ts';
import { findUser } from '../users.ts';
import { issueTickets } from '../tickets.ts';
import { paymentScheduleMail, sendMail, type Mailer, type ScheduledInstalment } from '../../mail/index.ts';
import { accountSettingsUrl } from '../../mail/instalments.ts';
import type { SavedCardProcessor } from './offSession.ts';
import { commonPlans, computeSchedule } from './schedule.ts';
import { writtenForBuyer } from '../accountLanguage.ts';

/** The buyer's saved cards as the plan form lists them (spec 001 §3). */
export async function savedMethodsOf(
  db: Pick<Executor, 'select'>,
  userId: number | null,
): Promise<SavedPaymentMethod[]> {
  if (userId === null) return [];
  const found = await db
    .select()
    .from(savedPaymentMethods)
    .where(eq(savedPaymentMethods.userId, userId))
    .orderBy(asc(savedPaymentMethods.id));
  return found.map((m) => ({
    payment_method_id: m.providerMethodId,
    card_type: m.brand,
    last4digits: m.last4,
    expiry: `${String(m.expMonth).padStart(2, '0')}/${String(m.expYear % 100).padStart(2, '0')}`,
    is_default: m.isDefault,
  }));
}

/**
 * The first instalment's idempotency key. A first instalment taken and then refunded because the
 * booking failed used its key up: the processor would answer that refunded charge again, so each
 * later try has a key of its own.
 */
async function firstInstalmentKey(
  tx: Pick<Executor, 'select'>,
  saleId: string,
  paymentMethodId: string,
): Promise<string> {
  const base = `plan:${saleId}:1:`;
  const refunded = await unbookedRefundsOf(tx, saleId, base);
  return `${base}${paymentMethodId}${refunded === 0 ? '' : `:${refunded + 1}`}`;
}

/** Gives back a first instalment taken for a sale whose booking then failed, and tells the buyer. */
async function refundFirstInstalment(
  tx: Pick<Executor, 'insert' | 'select' | 'update'>,
  cards: SavedCardProcessor,
  p: { saleId: string; chargeId: string; idempotencyKey: string; amount: number; currency: string; now: Date },
): Promise<void> {
  await refundUnbooked(
    tx,
    { refund: (r) => cards.refund(tx, { chargeId: r.paymentId, amount: r.amount, idempotencyKey: r.idempotencyKey }) },
    {
      ...p,
      provider: cards.name,
      reason: 'the booking failed after the first instalment was taken',
      message: INSTALMENT_MESSAGES.refunded,
    },
  );
}

/** `created` is false when the plan was set up by an earlier request (a double click). */
export type PlanSetup =
  | { status: 'success'; created: boolean }
  | { status: 'unsuccessful'; message: string }
  | { status: 'redirect_to_url'; url: string };

export interface PlanMail {
  mailer: Mailer;
  brandName: string;
  /** The site's own address, for the account-settings link of the plan's e-mails. */
  publicUrl: string;
}

/**
 * pay_with_instalment: checks the option, the phone and the card, saves a new card for the buyer
 * (default when asked), takes the first instalment with the buyer present, books the sale and
 * keeps the schedule. A repeat for a sale whose plan is set up answers success again.
 */
export async function setUpPlan(
  db: Database,
  cards: SavedCardProcessor,
  p: {
    saleId: string;
    checkout: Checkout;
    option: string;
    contactNumber: string;
    selectedPaymentMethodId?: string | undefined;
    newPaymentMethod?: { id: string; make_default_payment_method: boolean } | undefined;
    now: Date;
    /** The seating provider the sale's seats are booked with (seats.io when keyed). */
    seating?: SeatingProvider | null;
    /** Where the buyer's bank confirms a first instalment that asks for it (the sandbox's page); null: such a card is refused. */
    authenticationUrl?: string | null;
  },
): Promise<PlanSetup> {
  return db.transaction(async (tx) => {
    const sale = await lockSale(tx, p.saleId);
    const [existing] = await tx.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, p.saleId));
    if (existing?.status === 'authenticating' && p.authenticationUrl)
      return { status: 'redirect_to_url', url: p.authenticationUrl };
    if (existing?.status === 'authenticating') await dropPlan(tx, p.saleId);
    else if (existing) return { status: 'success', created: false };
    if (sale.paidAt) throw new Refusal('already-paid', ALREADY_PAID_MESSAGE);
    if (!holdIsLive(sale, p.now)) throw holdLost();
    // A plan's card is saved for its buyer's account: a signed-in buyer only.
    if (sale.userId === null) throw new Refusal('no-account', PAYMENT_MESSAGES.noBuyer);
    // The plan is for the total the buyer was shown, read again under the sale's lock.
    await totalUnderLock(tx, sale, p.checkout.basket_total, p.now);
    // The plan pays for the sale: a card or bank payment still open for it can no longer be paid.
    await closeOpenPayments(tx, p.saleId);
    const option = p.option === PAY_IN_FULL_OPTION ? undefined : p.checkout.payment_plan_schedule_options[p.option];
    if (!option) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.chooseOption);
    if (!isValidPhone(p.contactNumber)) throw new Refusal('invalid-input', PAYMENT_MESSAGES.phone);
    const userId = sale.userId;

    let method: typeof savedPaymentMethods.$inferSelect | undefined;
    if (p.newPaymentMethod) {
      const card = await cards.card(tx, p.newPaymentMethod.id);
      if (!card) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.chooseCard);
      [method] = await tx
        .insert(savedPaymentMethods)
        .values({
          userId,
          provider: cards.name,
          providerMethodId: p.newPaymentMethod.id,
          brand: card.brand,
          last4: card.last4,
          expMonth: card.month,
          expYear: card.year,
          funding: card.funding,
          createdAt: p.now,
        })
        .onConflictDoNothing()
        .returning();
      method ??= (
        await tx
          .select()
          .from(savedPaymentMethods)
          .where(
            and(
              eq(savedPaymentMethods.provider, cards.name),
              eq(savedPaymentMethods.providerMethodId, p.newPaymentMethod.id),
            ),
          )
      )[0];
      if (!method || method.userId !== userId) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.chooseCard);
      if (p.newPaymentMethod.make_default_payment_method) {
        await tx
          .update(savedPaymentMethods)
          .set({ isDefault: sql`${savedPaymentMethods.id} = ${method.id}` })
          .where(eq(savedPaymentMethods.userId, userId));
      }
    } else if (p.selectedPaymentMethodId) {
      [method] = await tx
        .select()
        .from(savedPaymentMethods)
        .where(
          and(
            eq(savedPaymentMethods.userId, userId),
            eq(savedPaymentMethods.providerMethodId, p.selectedPaymentMethodId),
          ),
        );
    }
    if (!method) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.chooseCard);

    const plan = (
      await commonPlans(
        tx,
        p.checkout.events.map((e) => e.id),
      )
    ).find((o) => o.option === p.option);
    if (!plan) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.chooseOption);
    const schedule = computeSchedule(p.checkout.basket_total, plan.instalments, plan.intervalDays, p.now);
    const first = schedule[0]!;
    const idempotencyKey = await firstInstalmentKey(tx, p.saleId, method.providerMethodId);
    const charge = await cards.charge(tx, {
      paymentMethodId: method.providerMethodId,
      amount: first.amount,
      currency: PLAN_CURRENCY,
      idempotencyKey,
      offSession: false,
      now: p.now,
      description: `Instalment 1 of ${schedule.length}`,
    });
    const authenticating = charge.status === 'requires_action' && !!p.authenticationUrl;
    if (charge.status !== 'succeeded' && !authenticating) return { status: 'unsuccessful', message: charge.message };
    if (!authenticating) {
      const completion = await completeSale(tx, p.saleId, p.now, p.seating ?? null);
      if (!completion.booked) {
        // Taken, but the tickets are gone (or the code used up) meanwhile: the money goes back.
        if (charge.status === 'succeeded') {
          await refundFirstInstalment(tx, cards, {
            saleId: p.saleId,
            chargeId: charge.id,
            idempotencyKey,
            amount: first.amount,
            currency: PLAN_CURRENCY,
            now: p.now,
          });
        }
        return { status: 'unsuccessful', message: INSTALMENT_MESSAGES.refunded };
      }
    }
    const paidNow = charge.status === 'succeeded';
    await tx.insert(instalmentPlans).values({
      saleId: p.saleId,
      userId,
      option: p.option,
      currency: PLAN_CURRENCY,
      total: p.checkout.basket_total,
      paymentMethodId: method.id,
      contactNumber: p.contactNumber.trim(),
      status: !paidNow ? 'authenticating' : schedule.length === 1 ? 'completed' : 'active',
      createdAt: p.now,
      completedAt: paidNow && schedule.length === 1 ? p.now : null,
    });
    await tx.insert(instalments).values(
      schedule.map((s, i) => ({
        saleId: p.saleId,
        seq: i + 1,
        dueAt: s.dueAt,
        amount: s.amount,
        status: i === 0 && paidNow ? ('paid' as const) : ('scheduled' as const),
        attempts: i === 0 && paidNow ? 1 : 0,
        nextAttemptAt: s.dueAt,
        paidAt: i === 0 && paidNow ? p.now : null,
        providerPaymentId: i === 0 && charge.status === 'succeeded' ? charge.id : null,
      })),
    );
    if (!paidNow) return { status: 'redirect_to_url', url: p.authenticationUrl! };
    return { status: 'success', created: true };
  });
}

/** The sale's instalments in order, with what has become of each, as the buyer's e-mails list them. */
export async function scheduleOf(db: Pick<Executor, 'select'>, saleId: string): Promise<ScheduledInstalment[]> {
  return db
    .select({ seq: instalments.seq, dueAt: instalments.dueAt, amount: instalments.amount, status: instalments.status })
    .from(instalments)
    .where(eq(instalments.saleId, saleId))
    .orderBy(asc(instalments.seq));
}

/** The e-mail with the payment schedule, sent once the plan is set up. */
export async function sendScheduleMail(
  db: Database,
  mail: PlanMail,
  saleId: string,
  to: string,
  reference: string | null,
  now: Date,
): Promise<void> {
  const schedule = await scheduleOf(db, saleId);
  const content = await writtenForBuyer(db, { email: to }, () =>
    paymentScheduleMail({
      saleReference: reference,
      schedule,
      settingsUrl: accountSettingsUrl(mail.publicUrl, reference),
    }),
  );
  await sendMail(db, mail.mailer, mail.brandName, { to, ...content }, now);
}

/**
 * Sends the plan's schedule to the sale's buyer, when the sale has one, under the given reference
 * (the sale's own when none is given).
 */
export async function sendScheduleToBuyer(
  db: Database,
  mail: PlanMail,
  saleId: string,
  now: Date,
  reference?: string | null,
): Promise<void> {
  const sale = await findSale(db, saleId);
  const buyer = await findUser(db, sale?.userId ?? null);
  if (!buyer) return;
  await sendScheduleMail(
    db,
    mail,
    saleId,
    buyer.email,
    reference === undefined ? (sale?.reference ?? null) : reference,
    now,
  );
}

/** How many of the sale's admissions a plan has paid for: all once it is complete, none before (null without a plan). */
export async function paidAdmissions(db: Pick<Executor, 'select'>, saleId: string): Promise<number | null> {
  const [plan] = await db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId));
  if (!plan) return null;
  if (plan.status !== 'completed') return 0;
  const [lines] = await db
    .select({ qty: sql<number>`COALESCE(sum(${saleLines.qty}), 0)::int` })
    .from(saleLines)
    .where(eq(saleLines.saleId, saleId));
  return Number(lines?.qty ?? 0);
}

/** Issues a plan's tickets once it is paid in full; answers null for a sale without a plan. */
export async function deliverPaidTickets(db: Database, saleId: string, now: Date): Promise<{ count: number } | null> {
  const limit = await paidAdmissions(db, saleId);
  if (limit === null) return null;
  const issue = await issueTickets(db, saleId, now, { limit });
  return { count: issue.issued ? issue.count : 0 };
}

async function dropPlan(tx: Pick<Executor, 'delete'>, saleId: string) {
  await tx.delete(instalments).where(eq(instalments.saleId, saleId));
  await tx.delete(instalmentPlans).where(eq(instalmentPlans.saleId, saleId));
}

/** The first instalment a sale's plan waits for the buyer's bank to confirm; null when none waits. */
export async function firstInstalmentAwaitingConfirmation(
  db: Pick<Executor, 'select'>,
  saleId: string,
): Promise<{ amount: number; currency: string } | null> {
  const [pending] = await db
    .select({ amount: instalments.amount, currency: instalmentPlans.currency })
    .from(instalmentPlans)
    .innerJoin(instalments, and(eq(instalments.saleId, instalmentPlans.saleId), eq(instalments.seq, 1)))
    .where(and(eq(instalmentPlans.saleId, saleId), eq(instalmentPlans.status, 'authenticating')));
  return pending ?? null;
}

export type Authentication = 'paid' | 'failed' | 'none';

/**
 * The buyer's bank answered for a first instalment that asked to be confirmed: approved, it is
 * charged and the sale booked as at setup; refused (or the basket changed since, the card then
 * declines, or the stock is gone), the plan is dropped and the payment step says why on return.
 */
export async function confirmPlanAuthentication(
  db: Database,
  cards: SavedCardProcessor,
  p: { saleId: string; approved: boolean; now: Date; seating?: SeatingProvider | null },
): Promise<Authentication> {
  return db.transaction(async (tx) => {
    const sale = await lockSale(tx, p.saleId);
    const [plan] = await tx
      .select()
      .from(instalmentPlans)
      .where(and(eq(instalmentPlans.saleId, p.saleId), eq(instalmentPlans.status, 'authenticating')));
    if (!plan) return 'none';
    const fail = async (notice: string = INSTALMENT_MESSAGES.error): Promise<Authentication> => {
      await dropPlan(tx, p.saleId);
      await tx
        .insert(salePaymentDetails)
        .values({ saleId: p.saleId, notice })
        .onConflictDoUpdate({ target: salePaymentDetails.saleId, set: { notice } });
      return 'failed';
    };
    if (!p.approved || sale.paidAt || !holdIsLive(sale, p.now)) return fail();
    // The plan is for the total the buyer was shown when it was set up: a basket changed since is not charged or booked on it.
    const changed = await totalUnderLock(tx, sale, plan.total, p.now).then(
      () => false,
      (err: unknown) => {
        if (isRefusal(err, 'basket-changed')) return true;
        throw err;
      },
    );
    if (changed) return fail(BASKET_CHANGED_MESSAGE);
    const [card] = await tx.select().from(savedPaymentMethods).where(eq(savedPaymentMethods.id, plan.paymentMethodId));
    const [first] = await tx
      .select()
      .from(instalments)
      .where(and(eq(instalments.saleId, p.saleId), eq(instalments.seq, 1)));
    const [{ count }] = (await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(instalments)
      .where(eq(instalments.saleId, p.saleId))) as [{ count: number }];
    const idempotencyKey = await firstInstalmentKey(tx, p.saleId, card!.providerMethodId);
    const charge = await cards.charge(tx, {
      paymentMethodId: card!.providerMethodId,
      amount: first!.amount,
      currency: plan.currency,
      idempotencyKey,
      offSession: false,
      authenticated: true,
      now: p.now,
      description: `Instalment 1 of ${Number(count)}`,
    });
    if (charge.status !== 'succeeded') return fail();
    const completion = await completeSale(tx, p.saleId, p.now, p.seating ?? null);
    if (!completion.booked) {
      const failed = await fail();
      await refundFirstInstalment(tx, cards, {
        saleId: p.saleId,
        chargeId: charge.id,
        idempotencyKey,
        amount: first!.amount,
        currency: plan.currency,
        now: p.now,
      });
      return failed;
    }
    await tx
      .update(instalments)
      .set({ status: 'paid', attempts: 1, paidAt: p.now, providerPaymentId: charge.id })
      .where(eq(instalments.id, first!.id));
    const single = Number(count) === 1;
    await tx
      .update(instalmentPlans)
      .set({ status: single ? 'completed' : 'active', completedAt: single ? p.now : null })
      .where(eq(instalmentPlans.saleId, p.saleId));
    await tx.update(salePaymentDetails).set({ notice: null }).where(eq(salePaymentDetails.saleId, p.saleId));
    return 'paid';
  });
}
