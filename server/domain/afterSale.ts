/**
 * After the sale (spec 001 §2 "Order completed", §7): what a paid order's buyer can do next.
 *
 * - Feedback ('How did we do?') is e-mailed through the outbox to each organiser of the order that
 *   keeps a contact address, else to the site's own feedback address; the buyer's name and e-mail
 *   go with it so the organiser can answer. A few messages per order, so a page left open cannot
 *   flood an organiser's inbox.
 * - Subscribing to important event updates sets the buyer's flag and records the consent, as the
 *   Keep updated step does.
 * - The referral link is the sale's event page, on the site's own address (PUBLIC_URL), carrying the
 *   buyer's referral code: a signature of its purpose, the buyer's account and its last day, so no
 *   table is needed to give it and the event page can check all three.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { marketingConsents, outbox, sales, users } from '../db/schema.ts';
import { Refusal } from './refusal.ts';
import { feedbackMail, feedbackSubject, sendMail, type Mailer } from '../mail/index.ts';
import { eventOf, linesWithEvents } from './saleLines.ts';
import { writtenFor } from './accountLanguage.ts';

export const NO_ORDER_MESSAGE = 'There is no order in this browser.';
export const NOT_PAID_YET_MESSAGE = 'This order is not complete yet.';
export const SIGN_IN_MESSAGE = 'Please sign in to do this.';
export const TOO_MUCH_FEEDBACK_MESSAGE =
  'You have already sent us several messages about this order. The organiser will be in touch.';
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
  const saleEvents = await eventsOfSale(db, sale.id);
  const recipients = [...new Set(saleEvents.map((e) => e.contactEmail).filter((e): e is string => !!e))];
  if (recipients.length === 0) recipients.push(mail.fallbackTo);
  // To the organiser: in the language of the account of its address, else the organiser's default.
  const to = (email: string) => ({
    email,
    organiserId: (saleEvents.find((e) => e.contactEmail === email) ?? saleEvents[0])?.organiserId ?? null,
  });
  const subject = await writtenFor(db, to(recipients[0]!), () => feedbackSubject(sale.reference));
  const [sent] = await db
    .select({ n: count() })
    .from(outbox)
    .where(and(eq(outbox.recipient, recipients[0]!), eq(outbox.subject, subject)));
  if ((sent?.n ?? 0) >= FEEDBACK_PER_ORDER) throw new Refusal('limit-reached', TOO_MUCH_FEEDBACK_MESSAGE);
  for (const recipient of recipients) {
    const message = await writtenFor(db, to(recipient), () =>
      feedbackMail(mail.brandName, {
        saleReference: sale.reference,
        buyer: buyer ?? null,
        events: saleEvents,
        message: p.message,
      }),
    );
    await sendMail(db, mail.mailer, mail.brandName, { to: recipient, ...message }, now);
  }
  return { recipients };
}

/** Subscribes the signed-in buyer to important updates about their events (once; a second call changes nothing). */
export async function subscribeToEvents(
  db: Database,
  p: { saleId: string | null; userId: number | null },
  now: Date,
): Promise<void> {
  if (p.userId === null) throw new Refusal('sign-in-needed', SIGN_IN_MESSAGE);
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, p.userId!)).for('update');
    if (!user) throw new Refusal('sign-in-needed', SIGN_IN_MESSAGE);
    if (user.isEventSubscribed) return;
    await tx.insert(marketingConsents).values({
      userId: user.id,
      email: user.email,
      topic: 'events',
      organiserId: null,
      subscribed: true,
      source: EVENT_UPDATES_SOURCE,
      saleId: p.saleId,
      at: now,
    });
    await tx.update(users).set({ isEventSubscribed: true }).where(eq(users.id, user.id));
  });
}

/** How long a share link sets the referral cookie for those who open it. */
export const REFERRAL_LINK_DAYS = 90;
const DAY_MS = 24 * 3600 * 1000;
const REFERRAL_PURPOSE = 'referral-link';

function referralMac(secret: string, userId: number, lastDay: number): string {
  // A key of its own, derived from the site's secret, so no other signature can stand in for it.
  const key = createHmac('sha256', secret).update(`key:${REFERRAL_PURPOSE}`).digest();
  return createHmac('sha256', key)
    .update(`${REFERRAL_PURPOSE}\n${userId}\n${lastDay}`)
    .digest('base64url')
    .slice(0, 16);
}

/**
 * The buyer's referral code: `<user id>-<last day>-<signature>`, in base 36 but the signature. Its
 * purpose (a referral link), subject (the buyer's account) and end (the last day, counted in days
 * since 1970, REFERRAL_LINK_DAYS ahead) are all signed. Every link a buyer shares on one day
 * carries the same code, and no one else can make it.
 */
export function referralCode(secret: string, userId: number, now: Date): string {
  const lastDay = Math.floor(now.getTime() / DAY_MS) + REFERRAL_LINK_DAYS;
  return `${userId.toString(36)}-${lastDay.toString(36)}-${referralMac(secret, userId, lastDay)}`;
}

/** The referrer a referral code names, when its signature is ours and its last day has not passed; else null. */
export function referrerOfCode(secret: string, code: unknown, now: Date): number | null {
  if (typeof code !== 'string') return null;
  const parts = /^([0-9a-z]{1,10})-([0-9a-z]{1,6})-([A-Za-z0-9_-]{16})$/.exec(code);
  if (!parts) return null;
  const userId = Number.parseInt(parts[1]!, 36);
  const lastDay = Number.parseInt(parts[2]!, 36);
  if (
    !Number.isSafeInteger(userId) ||
    userId <= 0 ||
    userId.toString(36) !== parts[1] ||
    lastDay.toString(36) !== parts[2]
  )
    return null;
  if (lastDay < Math.floor(now.getTime() / DAY_MS)) return null;
  const expected = Buffer.from(referralMac(secret, userId, lastDay));
  const given = Buffer.from(parts[3]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
}

export function isReferralCode(secret: string, code: string, now: Date): boolean {
  return referrerOfCode(secret, code, now) !== null;
}

/** The sale's (first) event page with the buyer's referral code, on the site's own address (`publicUrl`). */
export async function rewardReferrerLink(
  db: Database,
  p: { saleId: string | null; userId: number | null; publicUrl: string; secret: string; now: Date },
): Promise<string> {
  const sale = await paidSale(db, p.saleId);
  const buyerId = sale.userId ?? p.userId;
  if (buyerId === null) throw new Refusal('not-found', NO_REFERRAL_MESSAGE);
  const [first] = await eventsOfSale(db, sale.id);
  if (!first) throw new Refusal('not-found', NO_REFERRAL_MESSAGE);
  return `${p.publicUrl.replace(/\/+$/, '')}/event/${first.eventId}/?ref=${encodeURIComponent(referralCode(p.secret, buyerId, p.now))}`;
}
