/**
 * Keep updated (spec 000 §2, §7 set_marketing_preferences). Every box the buyer was shown is kept
 * as a consent row with its time and source, the record an organiser needs; ticking a box
 * subscribes, and an unticked box never unsubscribes someone who subscribed elsewhere.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { giftVouchers, mailingList, marketingConsents, sales, saleVouchers, users } from '../db/schema.ts';
import { Refusal } from './refusal.ts';
import { lockSale } from './sales.ts';
import { eventOf, linesWithEvents } from './saleLines.ts';

export const SIGN_IN_FIRST_MESSAGE = 'Please confirm who is buying before choosing what we may send you.';
export const NOT_IN_BASKET_MESSAGE = 'One of those organisers has nothing in your basket.';
export const CONSENT_SOURCE = 'checkout:marketing_preferences';

export interface MarketingChoice {
  ct_subscribed: boolean;
  event_subscribed: boolean;
  organiser_subscribed_marketing: Record<string, boolean>;
}

export async function setMarketingPreferences(
  db: Database,
  saleId: string,
  choice: MarketingChoice,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const sale = await lockSale(tx, saleId);
    if (sale.userId === null) throw new Refusal('no-account', SIGN_IN_FIRST_MESSAGE);
    const [user] = await tx.select().from(users).where(eq(users.id, sale.userId));
    if (!user) throw new Refusal('no-account', SIGN_IN_FIRST_MESSAGE);

    const ticketOrganisers = (await linesWithEvents(tx, saleId)).map((line) => ({ id: eventOf(line).organiserId }));
    const voucherOrganisers = await tx
      .selectDistinct({ id: giftVouchers.organiserId })
      .from(saleVouchers)
      .innerJoin(giftVouchers, eq(giftVouchers.id, saleVouchers.giftVoucherId))
      .where(eq(saleVouchers.saleId, saleId));
    const inBasket = new Set([...ticketOrganisers, ...voucherOrganisers].map((o) => o.id));
    const chosen = Object.entries(choice.organiser_subscribed_marketing).map(([id, subscribed]) => ({
      id: Number(id),
      subscribed,
    }));
    if (chosen.some((o) => !inBasket.has(o.id))) throw new Refusal('invalid-input', NOT_IN_BASKET_MESSAGE);

    const base = { userId: user.id, email: user.email, source: CONSENT_SOURCE, saleId, at: now };
    const rows = [
      // The newsletter and event updates are only asked of a buyer not already subscribed.
      ...(user.subscribed
        ? []
        : [{ ...base, topic: 'community' as const, organiserId: null, subscribed: choice.ct_subscribed }]),
      ...(user.isEventSubscribed
        ? []
        : [{ ...base, topic: 'events' as const, organiserId: null, subscribed: choice.event_subscribed }]),
      ...chosen.map((o) => ({ ...base, topic: 'organiser' as const, organiserId: o.id, subscribed: o.subscribed })),
    ];
    if (rows.length > 0) await tx.insert(marketingConsents).values(rows);
    if (choice.ct_subscribed && !user.subscribed) {
      await tx.insert(mailingList).values({ email: user.email }).onConflictDoNothing();
    }
    await tx
      .update(users)
      .set({
        subscribed: user.subscribed || choice.ct_subscribed,
        isEventSubscribed: user.isEventSubscribed || choice.event_subscribed,
      })
      .where(eq(users.id, user.id));
    await tx.update(sales).set({ marketingSetAt: now }).where(eq(sales.id, saleId));
  });
}

/** A buyer's latest word on each organiser's news, as their account shows it: organiser id → subscribed. */
export async function organiserSubscriptionsOf(
  db: Pick<Database, 'select'>,
  userId: number,
): Promise<Map<number, boolean>> {
  const consents = await db
    .select()
    .from(marketingConsents)
    .where(and(eq(marketingConsents.userId, userId), eq(marketingConsents.topic, 'organiser')))
    .orderBy(desc(marketingConsents.at));
  const latest = new Map<number, boolean>();
  for (const c of consents)
    if (c.organiserId !== null && !latest.has(c.organiserId)) latest.set(c.organiserId, c.subscribed);
  return latest;
}

/**
 * The account's marketing choices saved: the community and event news as chosen, and a stop for each
 * organiser whose news was on and is no longer kept (an organiser's news is only ever started by
 * buying from them). Each change is recorded as a consent from the account.
 */
export async function saveAccountMarketing(
  db: Database,
  user: { id: number; email: string; subscribed: boolean; isEventSubscribed: boolean },
  choice: { community: boolean; eventNews: boolean; keptOrganisers: ReadonlySet<number> },
  now: Date,
): Promise<void> {
  const latest = await organiserSubscriptionsOf(db, user.id);
  const base = { userId: user.id, email: user.email, source: 'account', saleId: null, at: now };
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ subscribed: choice.community, isEventSubscribed: choice.eventNews })
      .where(eq(users.id, user.id));
    const rows = [];
    if (choice.community !== user.subscribed)
      rows.push({ ...base, topic: 'community' as const, subscribed: choice.community, organiserId: null });
    if (choice.eventNews !== user.isEventSubscribed)
      rows.push({ ...base, topic: 'events' as const, subscribed: choice.eventNews, organiserId: null });
    for (const [id, on] of latest)
      if (on && !choice.keptOrganisers.has(id))
        rows.push({ ...base, topic: 'organiser' as const, subscribed: false, organiserId: id });
    if (rows.length > 0) await tx.insert(marketingConsents).values(rows);
  });
}
