/**
 * The reads the checkout needs beyond its snapshot, each made only in the case that needs it, so
 * the call every open basket repeats stays one round trip.
 */
import { and, desc, eq, gt, inArray, isNotNull, max, or } from 'drizzle-orm';
import type { Database } from '../../db/index.ts';
import { holds, marketingConsents, salePaymentDetails } from '../../db/schema.ts';
import { findDonation } from '../donation.ts';
import { planRemaining } from '../instalments/schedule.ts';
import { holdIsLive } from '../sales.ts';
import type { CheckoutBasket } from './basket.ts';
import { asksMarketing } from './organisers.ts';
import type { CheckoutSnapshot } from './snapshot.ts';
import { paymentMayBeOpen } from './step.ts';

export interface FollowUps {
  /** The end of the hold kept for a payment in progress; null when none is. */
  keptUntil: Date | null;
  /** The basket organisers whose marketing the buyer last said yes to. */
  subscribedTo: Set<number>;
  donation: Awaited<ReturnType<typeof findDonation>>;
  truelayerReturnedFrom: 0 | 1 | null;
  /** What a paid sale's payment plan still owes; null without a plan or before payment. */
  planRemaining: number | null;
}

export async function readFollowUps(
  db: Pick<Database, 'select' | 'selectDistinctOn'>,
  snapshot: Pick<CheckoutSnapshot, 'sale' | 'lines' | 'user'>,
  basket: Pick<CheckoutBasket, 'organisers' | 'charity'>,
  now: Date,
): Promise<FollowUps> {
  const { sale, user } = snapshot;
  const paid = sale.paidAt !== null;
  // A payment started in time keeps the sale on its step while its holds last (deadline plus the grace).
  const keptUntil = paymentMayBeOpen(sale) ? await paymentKeptUntil(db, sale.id, now) : null;
  // The buyer's latest choice for each basket organiser, so Keep updated shows what they already agreed to.
  const subscribedTo =
    user && asksMarketing(snapshot) && basket.organisers.length > 0
      ? await organisersSubscribed(
          db,
          user,
          basket.organisers.map((o) => o.id),
        )
      : new Set<number>();
  // A donation counts while the reservation it was given in holds (only a basket with a charity has one).
  const donation = basket.charity && (holdIsLive(sale, now) || paid) ? await findDonation(db, sale) : null;
  return {
    keptUntil,
    subscribedTo,
    donation,
    truelayerReturnedFrom: sale.state === 'awaiting_truelayer' ? await truelayerReturnedFrom(db, sale.id) : null,
    planRemaining: paid ? await planRemaining(db, sale.id) : null,
  };
}

/**
 * When a payment has started and not finished (payment_started_at is cleared when it settles),
 * the time its sale's holds are kept until: the hold's deadline plus the payment grace. Null when
 * no payment is in progress or its holds have lapsed.
 */
export async function paymentKeptUntil(db: Pick<Database, 'select'>, saleId: string, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ keptUntil: max(holds.deadline) })
    .from(salePaymentDetails)
    .innerJoin(holds, eq(holds.saleId, salePaymentDetails.saleId))
    .where(
      and(
        eq(salePaymentDetails.saleId, saleId),
        isNotNull(salePaymentDetails.paymentStartedAt),
        gt(holds.deadline, now),
      ),
    );
  return row?.keptUntil ?? null;
}

/** Spec 001 truelayer_returned_from: 1 back from the bank, 0 cancelled there, null before any return. */
async function truelayerReturnedFrom(db: Pick<Database, 'select'>, saleId: string): Promise<0 | 1 | null> {
  const [row] = await db
    .select({ flag: salePaymentDetails.truelayerReturnedFrom })
    .from(salePaymentDetails)
    .where(eq(salePaymentDetails.saleId, saleId));
  return row?.flag === 0 || row?.flag === 1 ? row.flag : null;
}

/** The organisers whose marketing the user last said yes to (their latest consent per organiser). */
async function organisersSubscribed(
  db: Pick<Database, 'selectDistinctOn'>,
  user: { id: number; email: string },
  organiserIds: number[],
): Promise<Set<number>> {
  const latest = await db
    .selectDistinctOn([marketingConsents.organiserId], {
      organiserId: marketingConsents.organiserId,
      subscribed: marketingConsents.subscribed,
    })
    .from(marketingConsents)
    .where(
      and(
        eq(marketingConsents.topic, 'organiser'),
        or(eq(marketingConsents.userId, user.id), eq(marketingConsents.email, user.email)),
        inArray(marketingConsents.organiserId, organiserIds),
      ),
    )
    .orderBy(marketingConsents.organiserId, desc(marketingConsents.at), desc(marketingConsents.id));
  return new Set(latest.filter((r) => r.subscribed).map((r) => Number(r.organiserId)));
}
