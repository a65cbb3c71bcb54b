/**
 * Referral rewards (spec 001 §2 share tile, "Share & {short reward text}"). A buyer's share link is
 * an event page carrying their referral code (afterSale.ts); a visitor who opens it carries the
 * referrer in a signed cookie, and the sale they add tickets to records that referrer (never the
 * buyer themselves). When that sale is paid and its tickets delivered, the referrer gets the
 * reward its event states, once per referred sale:
 *
 * - an event whose reward is money off (`reward_discount`, basis points) gives a single-use
 *   discount code for the organiser's events, redeemed at checkout like any code (its one use is
 *   held with the stock and counted when paid, under the code's row lock: discount_codes);
 * - any other reward (a cream tea at the café) gives a reference to show the organiser.
 *
 * Either is e-mailed to the referrer with the organiser's reward text.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { discountCodes, events, organisers, referralRewards, saleLines, sales, ticketTypes, eventDates, users } from '../db/schema.ts';
import { sendMail, type Mailer } from '../mail/index.ts';
import { referralRewardMail } from '../mail/referralReward.ts';
import { isReferralCode } from './afterSale.ts';

/** The referrer a share link's code names, or null for a code that is not one of ours. */
export function referrerOf(secret: string, code: unknown): number | null {
  if (typeof code !== 'string' || code.length > 40 || !isReferralCode(secret, code)) return null;
  return Number.parseInt(code.split('-')[0]!, 36);
}

/**
 * Records who referred the sale, once: the first share link a sale's tickets were added through
 * counts, and a buyer cannot refer themselves.
 */
export async function recordReferrer(db: Database, saleId: string, referrerId: number | null, buyerId: number | null): Promise<void> {
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
 * Gives the referrer of a paid sale the reward its event states, once, and e-mails it. Nothing for
 * a sale without a referrer, one the referrer bought themselves, or one whose events offer no reward.
 */
export async function rewardReferrer(
  db: Database,
  mail: { mailer: Mailer; brandName: string; publicUrl: string },
  saleId: string,
  now: Date,
): Promise<RewardOutcome> {
  const [sale] = await db
    .select({ referrerId: sales.referrerUserId, buyerId: sales.userId })
    .from(sales)
    .where(and(eq(sales.id, saleId), isNotNull(sales.paidAt), isNotNull(sales.referrerUserId)));
  if (!sale || sale.referrerId === null || sale.referrerId === sale.buyerId) return { rewarded: false };
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
  const [referrer] = await db.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, sale.referrerId));
  if (!referrer) return { rewarded: false };

  const discount = event.rewardDiscount !== null;
  const claimed = await db.transaction(async (tx) => {
    const code = rewardCode(discount ? 'THANKS' : 'REWARD');
    const inserted = await tx
      .insert(referralRewards)
      .values({ saleId, referrerUserId: sale.referrerId!, code, createdAt: now })
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
  await sendMail(
    db,
    mail.mailer,
    mail.brandName,
    {
      to: referrer.email,
      ...referralRewardMail({
        firstName: referrer.firstName,
        eventTitle: event.title,
        organiserName: event.organiserName,
        rewardText: event.rewardText,
        code: claimed,
        discountPercent: discount ? event.rewardDiscount! / 100 : null,
        allEventsUrl: `${mail.publicUrl}/organiser/${event.organiserId}/`,
      }),
    },
    now,
  );
  await db.update(referralRewards).set({ sentAt: now }).where(eq(referralRewards.saleId, saleId));
  return { rewarded: true, code: claimed, discount };
}
