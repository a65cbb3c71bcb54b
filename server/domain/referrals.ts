/**
 * Referral rewards (spec 001 §2 share tile, "Share & {short reward text}"). A buyer's share link is
 * an event page carrying their referral code (afterSale.ts); a visitor who opens it carries the
 * referrer in a cookie, and the sale they add tickets to records that referrer (never the buyer
 * themselves). When that sale's tickets are delivered, the referrer gets the reward its event
 * states only when all of these hold:
 *
 * - money was taken for it: a card or bank payment that succeeded, booked the sale and was not
 *   refunded, or a paid instalment (free tickets earn nothing);
 * - the buyer is a different person with a proven address: the sale belongs to an account whose
 *   address's one-time code was proven (`email_proven_at`), not the referrer's own;
 * - the referrer has not been rewarded for this buyer before: once per referrer and referred
 *   address, which a unique index on `referral_rewards` enforces however many purchases race.
 *
 * The reward:
 *
 * - an event whose reward is money off (`reward_discount`, basis points) gives a single-use
 *   discount code for the organiser's events, redeemed at checkout like any code (its one use is
 *   held with the stock and counted when paid, under the code's row lock: discount_codes);
 * - any other reward (a cream tea at the café) gives a reference to show the organiser.
 *
 * Either is e-mailed to the referrer with the organiser's reward text.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gte, isNotNull, isNull, notExists } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import {
  discountCodes,
  eventDates,
  events,
  instalments,
  organisers,
  paymentRefunds,
  payments,
  referralRewards,
  saleLines,
  sales,
  ticketTypes,
  users,
} from '../db/schema.ts';
import { sendMail, type Mailer } from '../mail/index.ts';
import { referralRewardMail } from '../mail/referralReward.ts';
import { writtenFor } from './accountLanguage.ts';

/** Whether money was actually taken for the sale and kept: a booked payment not refunded, or a paid instalment. */
async function moneyTaken(db: Pick<Database, 'select'>, saleId: string): Promise<boolean> {
  const [paid] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.saleId, saleId),
        eq(payments.status, 'succeeded'),
        eq(payments.outcome, 'booked'),
        gte(payments.amount, 1),
        notExists(
          db.select({ id: paymentRefunds.id }).from(paymentRefunds).where(eq(paymentRefunds.paymentId, payments.id)),
        ),
      ),
    )
    .limit(1);
  if (paid) return true;
  const [instalment] = await db
    .select({ id: instalments.id })
    .from(instalments)
    .where(and(eq(instalments.saleId, saleId), eq(instalments.status, 'paid'), gte(instalments.amount, 1)))
    .limit(1);
  return instalment !== undefined;
}

/**
 * Records who referred the sale, once: the first share link a sale's tickets were added through
 * counts, and a buyer cannot refer themselves.
 */
export async function recordReferrer(
  db: Database,
  saleId: string,
  referrerId: number | null,
  buyerId: number | null,
): Promise<void> {
  if (referrerId === null || referrerId === buyerId) return;
  const [referrer] = await db.select({ id: users.id }).from(users).where(eq(users.id, referrerId));
  if (!referrer) return;
  await db
    .update(sales)
    .set({ referrerUserId: referrerId })
    .where(and(eq(sales.id, saleId), isNull(sales.referrerUserId), isNull(sales.paidAt)));
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function rewardCode(prefix: string): string {
  return `${prefix}-${Array.from(randomBytes(8), (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')}`;
}

export type RewardOutcome = { rewarded: false } | { rewarded: true; code: string; discount: boolean };

/**
 * Gives the referrer of a paid sale the reward its event states, once per referred buyer, and
 * e-mails it. Nothing for a sale without a referrer, one the referrer bought themselves, one whose
 * buyer has no proven account, one nothing was paid for, a buyer already rewarded for, or one whose
 * events offer no reward.
 */
export async function rewardReferrer(
  db: Database,
  mail: { mailer: Mailer; brandName: string; publicUrl: string },
  saleId: string,
  now: Date,
): Promise<RewardOutcome> {
  // The buyer is an account whose address was proven by its one-time code.
  const [sale] = await db
    .select({ referrerId: sales.referrerUserId, buyerId: sales.userId, buyerEmail: users.email })
    .from(sales)
    .innerJoin(users, eq(users.id, sales.userId))
    .where(
      and(
        eq(sales.id, saleId),
        isNotNull(sales.paidAt),
        isNotNull(sales.referrerUserId),
        isNotNull(users.emailProvenAt),
      ),
    );
  if (!sale || sale.referrerId === null || sale.referrerId === sale.buyerId) return { rewarded: false };
  if (!(await moneyTaken(db, saleId))) return { rewarded: false };
  const [event] = await db
    .select({
      title: events.title,
      rewardText: events.rewardText,
      rewardDiscount: events.rewardDiscount,
      organiserId: organisers.id,
      organiserName: organisers.name,
    })
    .from(saleLines)
    .innerJoin(ticketTypes, eq(ticketTypes.id, saleLines.ticketTypeId))
    .innerJoin(eventDates, eq(eventDates.id, ticketTypes.eventDateId))
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .innerJoin(organisers, eq(organisers.id, events.organiserId))
    .where(and(eq(saleLines.saleId, saleId), isNotNull(events.rewardText)))
    .orderBy(asc(saleLines.id))
    .limit(1);
  if (!event?.rewardText) return { rewarded: false };
  const [referrer] = await db
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, sale.referrerId));
  if (!referrer || referrer.email === sale.buyerEmail) return { rewarded: false };

  const discount = event.rewardDiscount !== null;
  const claimed = await db.transaction(async (tx) => {
    const code = rewardCode(discount ? 'THANKS' : 'REWARD');
    const inserted = await tx
      .insert(referralRewards)
      .values({ saleId, referrerUserId: sale.referrerId!, referredEmail: sale.buyerEmail, code, createdAt: now })
      // Once per referred sale and once per referrer and referred address: either key taken, nothing is given.
      .onConflictDoNothing()
      .returning({ code: referralRewards.code });
    if (inserted.length === 0) return null;
    if (discount) {
      const [made] = await tx
        .insert(discountCodes)
        .values({ code, kind: 'percent', amount: event.rewardDiscount!, organiserId: event.organiserId, usageLimit: 1 })
        .returning({ id: discountCodes.id });
      await tx.update(referralRewards).set({ discountCodeId: made!.id }).where(eq(referralRewards.saleId, saleId));
    }
    return code;
  });
  if (claimed === null) return { rewarded: false };
  const given: string = claimed;
  const rewardText: string = event.rewardText;
  // To the referrer, not the buyer of the request: in the referrer's language (their account's, else the organiser's).
  const content = await writtenFor(db, { email: referrer.email, organiserId: event.organiserId }, () =>
    referralRewardMail({
      firstName: referrer.firstName,
      eventTitle: event.title,
      organiserName: event.organiserName,
      rewardText,
      code: given,
      discountPercent: discount ? event.rewardDiscount! / 100 : null,
      allEventsUrl: `${mail.publicUrl}/organiser/${event.organiserId}/`,
    }),
  );
  await sendMail(db, mail.mailer, mail.brandName, { to: referrer.email, ...content }, now);
  await db.update(referralRewards).set({ sentAt: now }).where(eq(referralRewards.saleId, saleId));
  return { rewarded: true, code: claimed, discount };
}
