/**
 * A new plan card saved through Stripe (keyed only, spec 001 §9: card only, saved for off-session
 * use): the buyer's Stripe customer, made once and kept; a SetupIntent for it whose client secret
 * Stripe.js confirms with the card in the browser; and, before the plan trusts the card, the
 * SetupIntent read back from Stripe: it must have succeeded, for this buyer's customer.
 */
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../db/index.ts';
import { stripeCustomers } from '../../db/schema.ts';
import { INSTALMENT_MESSAGES } from '../../../contract/messages/instalment.ts';
import { Refusal } from '../refusal.ts';
import { ALREADY_PAID_MESSAGE, holdLost } from '../payment/payments.ts';
import { findSale, holdIsLive } from '../sales.ts';
import { findUser } from '../users.ts';
import type { StripeCardSetup } from './offSession.ts';

async function customerOf(db: Pick<Executor, 'select'>, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ customerId: stripeCustomers.customerId })
    .from(stripeCustomers)
    .where(eq(stripeCustomers.userId, userId));
  return row?.customerId ?? null;
}

/** The buyer's Stripe customer, made at Stripe on first need; two requests at once keep one. */
async function ensureCustomer(db: Database, setup: StripeCardSetup, userId: number, now: Date): Promise<string> {
  const known = await customerOf(db, userId);
  if (known) return known;
  const user = await findUser(db, userId);
  if (!user) throw new Refusal('no-account', INSTALMENT_MESSAGES.error);
  // The same key for the same buyer: Stripe answers a repeat with the customer it made.
  const made = await setup.createCustomer({ userId, email: user.email, idempotencyKey: `customer:user:${userId}` });
  await db.insert(stripeCustomers).values({ userId, customerId: made, createdAt: now }).onConflictDoNothing();
  return (await customerOf(db, userId)) ?? made;
}

/** A SetupIntent for the sale's buyer, whose client secret Stripe.js confirms with the new card. */
export async function startCardSetup(
  db: Database,
  setup: StripeCardSetup,
  p: { saleId: string; now: Date },
): Promise<{ publicKey: string; clientSecret: string }> {
  const sale = await findSale(db, p.saleId);
  if (!sale) throw holdLost();
  if (sale.paidAt) throw new Refusal('already-paid', ALREADY_PAID_MESSAGE);
  if (!holdIsLive(sale, p.now)) throw holdLost();
  if (sale.userId === null) throw new Refusal('no-account', INSTALMENT_MESSAGES.error);
  const customer = await ensureCustomer(db, setup, sale.userId, p.now);
  const intent = await setup.createSetupIntent({ customer, saleId: p.saleId });
  return { publicKey: setup.publicKey, clientSecret: intent.clientSecret };
}

/**
 * A SetupIntent for a buyer's new card outside a checkout (a plan's card changed in their account):
 * for the buyer's own Stripe customer, made once and kept; `saleId` names the plan's sale.
 */
export async function startAccountCardSetup(
  db: Database,
  setup: StripeCardSetup,
  p: { userId: number; saleId: string; now: Date },
): Promise<{ publicKey: string; clientSecret: string }> {
  const customer = await ensureCustomer(db, setup, p.userId, p.now);
  const intent = await setup.createSetupIntent({ customer, saleId: p.saleId });
  return { publicKey: setup.publicKey, clientSecret: intent.clientSecret };
}

/** The card a SetupIntent saved for this buyer, as Stripe says; anything else is refused in words. */
export async function cardSavedBySetup(
  db: Pick<Executor, 'select'>,
  setup: StripeCardSetup,
  p: { userId: number | null; setupIntentId: string },
): Promise<string> {
  if (!/^seti_[A-Za-z0-9_]{1,200}$/.test(p.setupIntentId))
    throw new Refusal('invalid-input', INSTALMENT_MESSAGES.cardNotSaved);
  const intent = await setup.retrieveSetupIntent(p.setupIntentId);
  if (!intent) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.cardNotSaved);
  const customer = p.userId === null ? null : await customerOf(db, p.userId);
  if (!customer || intent.customer !== customer) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.cardNotYours);
  if (intent.status !== 'succeeded' || !intent.paymentMethod)
    throw new Refusal('invalid-input', INSTALMENT_MESSAGES.cardNotSaved);
  return intent.paymentMethod;
}
