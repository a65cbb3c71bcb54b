/**
 * After the sale (spec 001 §2 "Order completed", §7): what a paid order's buyer can do next.
 *
 * - Feedback ('How did we do?') is e-mailed through the outbox to each organiser of the order that
 *   keeps a contact address, else to the site's own feedback address; the buyer's name and e-mail
 *   go with it so the organiser can answer. A few messages per order, so a page left open cannot
 *   flood an organiser's inbox.
 * - Subscribing to important event updates sets the buyer's flag and records the consent, as the
 *   Keep updated step does.
 * - The referral link is the sale's event page carrying the buyer's referral code: a signature of
 *   their account, so no table is needed to give it and the event page can check it.
 */
import { createHmac } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { marketingConsents, outbox, sales, users } from '../db/schema.ts';
import { Refusal } from './refusal.ts';
import { feedbackMail, feedbackSubject, sendMail, type Mailer } from '../mail/index.ts';
import { eventOf, linesWithEvents } from './saleLines.ts';

export const NO_ORDER_MESSAGE = 'There is no order in this browser.';
export const NOT_PAID_YET_MESSAGE = 'This order is not complete yet.';
export const SIGN_IN_MESSAGE = 'Please sign in to do this.';
export const TOO_MUCH_FEEDBACK_MESSAGE = 'You have already sent us several messages about this order. The organiser will be in touch.';
export const NO_REFERRAL_MESSAGE = 'There is no referral link for this order.';

/** Feedback messages one order may send. */
export const FEEDBACK_PER_ORDER = 5;
export const EVENT_UPDATES_SOURCE = 'checkout:order_completed';

/** The paid sale and its buyer; refusals a buyer can read otherwise. */
async function paidSale(db: Database, saleId: string | null) {
  const [sale] = saleId ? await db.select().from(sales).where(eq(sales.id, saleId)) : [];
  if (!sale) throw new Refusal('not-found', NO_ORDER_MESSAGE);
  if (!sale.paidAt) throw new Refusal('not-paid', NOT_PAID_YET_MESSAGE);
  return sale;
}

/** The sale's events, each with its organiser, in the order the buyer added them. */
async function eventsOfSale(db: Database, saleId: string) {
  const found = (await linesWithEvents(db, saleId)).map(eventOf).map((event) => ({
    eventId: event.id,
    title: event.title,
    organiserId: event.organiser.id,
    organiser: event.organiser.name,
    contactEmail: event.organiser.contactEmail,
  }));
  const seen = new Set<number>();
  return found.filter((e) => !seen.has(e.eventId) && seen.add(e.eventId));
}

export async function sendCustomerFeedback(
  db: Database,
  mail: { mailer: Mailer; brandName: string; fallbackTo: string },
  p: { saleId: string | null; userId: number | null; message: string },
  now: Date,
): Promise<{ recipients: string[] }> {
  const sale = await paidSale(db, p.saleId);
  const buyerId = sale.userId ?? p.userId;
  const [buyer] = buyerId ? await db.select().from(users).where(eq(users.id, buyerId)) : [];
  const subject = feedbackSubject(sale.reference);
  const saleEvents = await eventsOfSale(db, sale.id);
  const recipients = [...new Set(saleEvents.map((e) => e.contactEmail).filter((e): e is string => !!e))];
  if (recipients.length === 0) recipients.push(mail.fallbackTo);
  const [sent] = await db
    .select({ n: count() })
    .from(outbox)
    .where(and(eq(outbox.recipient, recipients[0]!), eq(outbox.subject, subject)));
  if ((sent?.n ?? 0) >= FEEDBACK_PER_ORDER) throw new Refusal('limit-reached', TOO_MUCH_FEEDBACK_MESSAGE);
  const message = feedbackMail(mail.brandName, { saleReference: sale.reference, buyer: buyer ?? null, events: saleEvents, message: p.message });
  for (const to of recipients) await sendMail(db, mail.mailer, mail.brandName, { to, ...message }, now);
  return { recipients };
}

/** Subscribes the signed-in buyer to important updates about their events (once; a second call changes nothing). */
export async function subscribeToEvents(db: Database, p: { saleId: string | null; userId: number | null }, now: Date): Promise<void> {
  if (p.userId === null) throw new Refusal('sign-in-needed', SIGN_IN_MESSAGE);
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, p.userId!)).for('update');
    if (!user) throw new Refusal('sign-in-needed', SIGN_IN_MESSAGE);
    if (user.isEventSubscribed) return;
    await tx.insert(marketingConsents).values({ userId: user.id, email: user.email, topic: 'events', organiserId: null, subscribed: true, source: EVENT_UPDATES_SOURCE, saleId: p.saleId, at: now });
    await tx.update(users).set({ isEventSubscribed: true }).where(eq(users.id, user.id));
  });
}

/** The buyer's referral code: the same for every link they share, and no one else can make it. */
export function referralCode(secret: string, userId: number): string {
  return `${userId.toString(36)}-${createHmac('sha256', secret).update(`referrer:${userId}`).digest('base64url').slice(0, 12)}`;
}

export function isReferralCode(secret: string, code: string): boolean {
  const userId = Number.parseInt(code.split('-')[0] ?? '', 36);
  return Number.isSafeInteger(userId) && userId > 0 && referralCode(secret, userId) === code;
}

/** The sale's (first) event page with the buyer's referral code, absolute on this site. */
export async function rewardReferrerLink(
  db: Database,
  p: { saleId: string | null; userId: number | null; origin: string; secret: string },
): Promise<string> {
  const sale = await paidSale(db, p.saleId);
  const buyerId = sale.userId ?? p.userId;
  if (buyerId === null) throw new Refusal('not-found', NO_REFERRAL_MESSAGE);
  const [first] = await eventsOfSale(db, sale.id);
  if (!first) throw new Refusal('not-found', NO_REFERRAL_MESSAGE);
  return `${p.origin}/event/${first.eventId}/?ref=${encodeURIComponent(referralCode(p.secret, buyerId))}`;
}
