/**
 * A signed-in buyer's own account (/account/): their orders, their payment plans (each with its
 * schedule and the card that pays it, which the buyer can change; a plan stopped after its retries
 * is resumed by a new card until its first event starts), the transfers and gifts they sent that
 * nobody has accepted yet (which they can cancel), and their saved cards (removed, or made the
 * default). Every read and change is of the signed-in buyer's own rows: another buyer's reference
 * or id is answered as not found.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, min, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/index.ts';
import {
  eventDates,
  events,
  instalmentPlans,
  instalments,
  sales,
  savedPaymentMethods,
  saleLines,
  ticketTypes,
  transfers,
  transferTickets,
} from '../db/schema.ts';
import { INSTALMENT_MESSAGES } from '../../contract/messages/instalment.ts';
import type { SavedCardProcessor } from './instalments/offSession.ts';
import { Refusal } from './refusal.ts';
import { messages } from '../../i18n/lazy.ts';
import { t } from '../../i18n/runtime.ts';

/** The account's refusals and notices, each read in the request's language. */
export const ACCOUNT_MESSAGES = Object.assign(
  messages({
    planNotFound: 'page.account.planNotFound',
    planPaid: 'page.account.planPaid',
    planNotStarted: 'page.account.planNotStarted',
    planPastDeadline: 'page.account.planPastDeadline',
    cardChanged: 'page.account.cardChanged',
    planResumed: 'page.account.planResumed',
    cardNotFound: 'page.account.cardNotFound',
    cardRemoved: 'page.account.cardRemoved',
    cardDefault: 'page.account.cardDefault',
    transferNotFound: 'page.account.transferNotFound',
    transferCancelled: 'page.account.transferCancelled',
  }),
  { cardInUse: (reference: string) => t('page.account.cardInUse', { reference }) },
);

export interface AccountOrder {
  saleId: string;
  reference: string;
  paidAt: Date;
  events: string[];
  tickets: number;
}

/** The buyer's paid orders, newest first, with the events and the number of tickets in each. */
export async function ordersOf(db: Pick<Executor, 'select'>, userId: number): Promise<AccountOrder[]> {
  const paid = await db
    .select({ id: sales.id, reference: sales.reference, paidAt: sales.paidAt })
    .from(sales)
    .where(and(eq(sales.userId, userId), isNotNull(sales.paidAt), isNotNull(sales.reference)))
    .orderBy(desc(sales.paidAt))
    .limit(100);
  if (paid.length === 0) return [];
  const lines = await db
    .select({ saleId: saleLines.saleId, qty: saleLines.qty, title: events.title })
    .from(saleLines)
    .innerJoin(ticketTypes, eq(ticketTypes.id, saleLines.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .where(
      inArray(
        saleLines.saleId,
        paid.map((s) => s.id),
      ),
    )
    .orderBy(asc(saleLines.id));
  return paid.map((s) => {
    const own = lines.filter((l) => l.saleId === s.id);
    return {
      saleId: s.id,
      reference: s.reference!,
      paidAt: s.paidAt!,
      events: [...new Set(own.map((l) => l.title))],
      tickets: own.reduce((n, l) => n + l.qty, 0),
    };
  });
}

/** The buyer's paid sale with this reference, or null: a receipt is only ever its own buyer's. */
export async function orderOf(
  db: Pick<Executor, 'select'>,
  userId: number,
  reference: string,
): Promise<{ saleId: string; reference: string; paidAt: Date } | null> {
  const [sale] = await db
    .select({ id: sales.id, reference: sales.reference, paidAt: sales.paidAt })
    .from(sales)
    .where(and(eq(sales.userId, userId), eq(sales.reference, reference), isNotNull(sales.paidAt)));
  return sale ? { saleId: sale.id, reference: sale.reference!, paidAt: sale.paidAt! } : null;
}

export interface AccountPlan {
  saleId: string;
  reference: string;
  status: 'authenticating' | 'active' | 'completed' | 'failed';
  total: number;
  currency: string;
  card: { brand: string; last4: string; expiry: string };
  schedule: {
    seq: number;
    dueAt: Date;
    amount: number;
    status: 'scheduled' | 'paid' | 'failed';
    attempts: number;
    lastError: string | null;
  }[];
  /** Until when a stopped plan can be resumed with a new card: its first event's start. */
  deadline: Date | null;
}

const expiryOf = (m: { expMonth: number; expYear: number }) =>
  `${String(m.expMonth).padStart(2, '0')}/${String(m.expYear % 100).padStart(2, '0')}`;

/** The first event date of a sale: a plan must be paid, or resumed, before it. */
async function deadlineOf(db: Pick<Executor, 'select'>, saleId: string): Promise<Date | null> {
  const [row] = await db
    .select({ first: min(eventDates.startsAt) })
    .from(saleLines)
    .innerJoin(ticketTypes, eq(ticketTypes.id, saleLines.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
    .where(eq(saleLines.saleId, saleId));
  return row?.first ?? null;
}

/** The buyer's plans, newest first, each with its schedule and the card that pays it. */
export async function plansOf(
  db: Pick<Executor, 'select'>,
  userId: number,
  reference?: string,
): Promise<AccountPlan[]> {
  const found = await db
    .select({ plan: instalmentPlans, reference: sales.reference, card: savedPaymentMethods })
    .from(instalmentPlans)
    .innerJoin(sales, eq(sales.id, instalmentPlans.saleId))
    .innerJoin(savedPaymentMethods, eq(savedPaymentMethods.id, instalmentPlans.paymentMethodId))
    .where(
      and(eq(instalmentPlans.userId, userId), reference === undefined ? undefined : eq(sales.reference, reference)),
    )
    .orderBy(desc(instalmentPlans.createdAt));
  const plans: AccountPlan[] = [];
  for (const { plan, reference: ref, card } of found) {
    const schedule = await db
      .select({
        seq: instalments.seq,
        dueAt: instalments.dueAt,
        amount: instalments.amount,
        status: instalments.status,
        attempts: instalments.attempts,
        lastError: instalments.lastError,
      })
      .from(instalments)
      .where(eq(instalments.saleId, plan.saleId))
      .orderBy(asc(instalments.seq));
    plans.push({
      saleId: plan.saleId,
      reference: ref ?? '',
      status: plan.status,
      total: plan.total,
      currency: plan.currency,
      card: { brand: card.brand, last4: card.last4, expiry: expiryOf(card) },
      schedule,
      deadline: await deadlineOf(db, plan.saleId),
    });
  }
  return plans;
}

/**
 * A new card for the buyer's plan: saved for the buyer (the processor's own word on the card, not
 * the browser's), made the plan's card, and, when asked, the buyer's default. A payment that was
 * refused is tried again on the next run of the instalment job; a plan stopped after its retries
 * runs again, until its first event starts. Answers whether a stopped plan was resumed.
 */
export async function changePlanCard(
  db: Database,
  cards: SavedCardProcessor,
  p: { userId: number; reference: string; providerMethodId: string; makeDefault: boolean; now: Date },
): Promise<{ resumed: boolean }> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ plan: instalmentPlans })
      .from(instalmentPlans)
      .innerJoin(sales, eq(sales.id, instalmentPlans.saleId))
      .where(and(eq(instalmentPlans.userId, p.userId), eq(sales.reference, p.reference)))
      .for('update', { of: instalmentPlans });
    if (!found) throw new Refusal('not-found', ACCOUNT_MESSAGES.planNotFound);
    const plan = found.plan;
    if (plan.status === 'completed') throw new Refusal('conflict', ACCOUNT_MESSAGES.planPaid);
    if (plan.status === 'authenticating') throw new Refusal('conflict', ACCOUNT_MESSAGES.planNotStarted);
    const resuming = plan.status === 'failed';
    if (resuming) {
      const deadline = await deadlineOf(tx, plan.saleId);
      if (deadline && deadline.getTime() <= p.now.getTime())
        throw new Refusal('conflict', ACCOUNT_MESSAGES.planPastDeadline);
    }
    const card = await cards.card(tx, p.providerMethodId);
    if (!card) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.chooseCard);
    let [method] = await tx
      .insert(savedPaymentMethods)
      .values({
        userId: p.userId,
        provider: cards.name,
        providerMethodId: p.providerMethodId,
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
            eq(savedPaymentMethods.providerMethodId, p.providerMethodId),
          ),
        )
    )[0];
    if (!method || method.userId !== p.userId) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.chooseCard);
    if (p.makeDefault) {
      await tx
        .update(savedPaymentMethods)
        .set({ isDefault: sql`${savedPaymentMethods.id} = ${method.id}` })
        .where(eq(savedPaymentMethods.userId, p.userId));
    }
    await tx
      .update(instalmentPlans)
      .set({ paymentMethodId: method.id, status: 'active' })
      .where(eq(instalmentPlans.saleId, plan.saleId));
    // A payment that was refused (retrying, or the one that stopped the plan) is due again at once, on
    // the new card, under a key of its own (its attempt number goes on, never back).
    await tx
      .update(instalments)
      .set({ status: 'scheduled', nextAttemptAt: p.now })
      .where(
        and(
          eq(instalments.saleId, plan.saleId),
          sql`(${instalments.status} = 'failed' OR (${instalments.status} = 'scheduled' AND ${instalments.attempts} > 0))`,
        ),
      );
    return { resumed: resuming };
  });
}

export interface AccountCard {
  id: number;
  brand: string;
  last4: string;
  expiry: string;
  isDefault: boolean;
  /** The references of the plans this card pays or paid: the plan's record keeps the card. */
  plans: string[];
}

export async function cardsOf(db: Pick<Executor, 'select'>, userId: number): Promise<AccountCard[]> {
  const found = await db
    .select()
    .from(savedPaymentMethods)
    .where(eq(savedPaymentMethods.userId, userId))
    .orderBy(asc(savedPaymentMethods.id));
  const using = await db
    .select({ methodId: instalmentPlans.paymentMethodId, reference: sales.reference })
    .from(instalmentPlans)
    .innerJoin(sales, eq(sales.id, instalmentPlans.saleId))
    .where(eq(instalmentPlans.userId, userId));
  return found.map((m) => ({
    id: m.id,
    brand: m.brand,
    last4: m.last4,
    expiry: expiryOf(m),
    isDefault: m.isDefault,
    plans: using.filter((u) => u.methodId === m.id).map((u) => u.reference ?? ''),
  }));
}

/** Removes a saved card, unless a plan still to be paid uses it. */
export async function removeCard(db: Database, userId: number, cardId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [card] = await tx
      .select()
      .from(savedPaymentMethods)
      .where(and(eq(savedPaymentMethods.id, cardId), eq(savedPaymentMethods.userId, userId)))
      .for('update');
    if (!card) throw new Refusal('not-found', ACCOUNT_MESSAGES.cardNotFound);
    const [plan] = await tx
      .select({ reference: sales.reference })
      .from(instalmentPlans)
      .innerJoin(sales, eq(sales.id, instalmentPlans.saleId))
      .where(eq(instalmentPlans.paymentMethodId, cardId));
    // A plan of any state keeps its card's row: its record says which card paid.
    if (plan) throw new Refusal('conflict', ACCOUNT_MESSAGES.cardInUse(plan.reference ?? ''));
    await tx.delete(savedPaymentMethods).where(eq(savedPaymentMethods.id, cardId));
  });
}

export async function makeDefaultCard(db: Database, userId: number, cardId: number): Promise<void> {
  const [card] = await db
    .select({ id: savedPaymentMethods.id })
    .from(savedPaymentMethods)
    .where(and(eq(savedPaymentMethods.id, cardId), eq(savedPaymentMethods.userId, userId)));
  if (!card) throw new Refusal('not-found', ACCOUNT_MESSAGES.cardNotFound);
  await db
    .update(savedPaymentMethods)
    .set({ isDefault: sql`${savedPaymentMethods.id} = ${cardId}` })
    .where(eq(savedPaymentMethods.userId, userId));
}

export interface PendingTransfer {
  id: number;
  recipientName: string;
  recipientEmail: string;
  qty: number;
  isGift: boolean;
  ticketName: string;
  eventTitle: string;
  sendAt: Date;
  sent: boolean;
}

/** The transfers and gifts the buyer sent that nobody has accepted yet. */
export async function pendingTransfersOf(db: Pick<Executor, 'select'>, userId: number): Promise<PendingTransfer[]> {
  const found = await db
    .select({
      id: transfers.id,
      recipientName: transfers.recipientName,
      recipientEmail: transfers.recipientEmail,
      qty: transfers.qty,
      isGift: transfers.isGift,
      ticketName: ticketTypes.name,
      eventTitle: events.title,
      sendAt: transfers.sendAt,
      sentAt: transfers.sentAt,
    })
    .from(transfers)
    .innerJoin(ticketTypes, eq(ticketTypes.id, transfers.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .where(and(eq(transfers.senderUserId, userId), isNull(transfers.acceptedAt)))
    .orderBy(asc(transfers.id));
  return found.map(({ sentAt, ...t }) => ({ ...t, sent: sentAt !== null }));
}

/**
 * Cancels a transfer nobody has accepted: its tickets (which never left the sender) are free to
 * give again, and its link no longer works. Under the transfer's lock, so an acceptance at the
 * same moment either comes first (and the cancel is refused) or finds no transfer.
 */
export async function cancelTransfer(db: Database, userId: number, transferId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [t] = await tx
      .select({ id: transfers.id })
      .from(transfers)
      .where(and(eq(transfers.id, transferId), eq(transfers.senderUserId, userId), isNull(transfers.acceptedAt)))
      .for('update');
    if (!t) throw new Refusal('not-found', ACCOUNT_MESSAGES.transferNotFound);
    await tx.delete(transferTickets).where(eq(transferTickets.transferId, t.id));
    await tx.delete(transfers).where(eq(transfers.id, t.id));
  });
}
