/**
 * Who is buying (spec 000 §4 "Account modes", §6): a verified one-time code signs the buyer in,
 * a buyer without an account is saved to the sale with a full name (which makes their account),
 * and the sale follows the buyer: signing in elsewhere resumes the same sale, hold and step.
 *
 * An account exists only for an address whose one-time code was proven. An express buyer with a
 * new address buys without one: their sale carries the address and name for delivery only
 * (payment/details.ts), the tickets are issued to no account and e-mailed to that address, and the
 * account is made the first time the address's code is proven. Proven in the browser that made
 * the purchase, the account takes the name and marketing choices given there; proven anywhere
 * else, the buyer gives their name as any new buyer does (the name and choices someone else typed
 * for the address are never taken as theirs). Either way the address's paid purchases become the
 * account's, tickets and all, and a purchase made through a share link now rewards its referrer
 * (referrals.ts), its buyer being proven at last.
 */
import { and, desc, eq, gt, isNotNull, isNull, or } from 'drizzle-orm';
import type { Database, Executor } from '../db/index.ts';
import { sales, tickets, users } from '../db/schema.ts';
import { setMarketingPreferences } from './marketing.ts';
import { rewardReferrer } from './referrals.ts';
import { Refusal } from './refusal.ts';
import { createSaleIfMissing, holdIsLive, lockSale, newSaleId, type Sale } from './sales.ts';
import { checkCode, CODE_CHECK_MESSAGES, issueCode, normaliseEmail, type SEND_LIMITS } from './oneTimeCode.ts';
import { findUserByEmail, type UserRow } from './users.ts';
import { sendMail, signInCodeMail, type Mailer } from '../mail/index.ts';

export const RESERVATION_EXPIRED_MESSAGE = 'Your tickets are no longer held for you. Please reserve them again.';
export const VERIFY_FIRST_MESSAGE = 'Please confirm your email address with the code we sent you first.';
export const SEND_FAILED_MESSAGE = 'We could not send the email just now.';

/** A sale that went past the basket but whose hold has run out (unpaid) cannot take a buyer any more. */
function refuseIfExpired(sale: Sale | null, now: Date): void {
  if (sale && sale.paidAt === null && sale.state !== 'basket' && sale.reference !== null && !holdIsLive(sale, now)) {
    throw new Refusal('hold-lost', RESERVATION_EXPIRED_MESSAGE);
  }
}

export async function sendSignInCode(
  db: Database,
  opts: {
    email: string;
    ip: string;
    now: Date;
    secret: string;
    mailer: Mailer;
    brandName: string;
    limits?: typeof SEND_LIMITS;
  },
): Promise<void> {
  const email = normaliseEmail(opts.email);
  const code = await issueCode(db, {
    email,
    ip: opts.ip,
    now: opts.now,
    secret: opts.secret,
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  try {
    await sendMail(db, opts.mailer, opts.brandName, { to: email, ...signInCodeMail(opts.brandName, code) }, opts.now);
  } catch {
    throw new Refusal('not-sent', SEND_FAILED_MESSAGE);
  }
}

/** The buyer's newest other sale that still holds stock: where they were when they switched device. */
async function liveSaleOf(db: Database, userId: number, now: Date): Promise<string | null> {
  const [found] = await db
    .select({ id: sales.id })
    .from(sales)
    .where(and(eq(sales.userId, userId), isNotNull(sales.reference), gt(sales.holdDeadline, now)))
    .orderBy(desc(sales.holdDeadline))
    .limit(1);
  return found?.id ?? null;
}

type PendingPurchase = Pick<Sale, 'id' | 'buyerName' | 'buyerMarketing'>;

/**
 * The purchases an express buyer made with this address before proving it: its paid sales from
 * any browser, and this browser's own sale. An unpaid sale elsewhere stays as it is: a basket some
 * other browser gave this address to is never attached to the account (nor could pay with its cards).
 */
async function pendingPurchases(
  db: Pick<Executor, 'select'>,
  email: string,
  currentSaleId: string | null,
): Promise<PendingPurchase[]> {
  const mine =
    currentSaleId === null ? isNotNull(sales.paidAt) : or(isNotNull(sales.paidAt), eq(sales.id, currentSaleId));
  return db
    .select({ id: sales.id, buyerName: sales.buyerName, buyerMarketing: sales.buyerMarketing })
    .from(sales)
    .where(and(eq(sales.buyerEmail, email), isNull(sales.userId), mine))
    .orderBy(desc(sales.createdAt));
}

/** What a referrer's reward e-mail needs, when a claimed purchase earns one. */
export interface RewardMail {
  mailer: Mailer;
  brandName: string;
  publicUrl: string;
}

/**
 * The pending purchases become the account's, with their tickets; the marketing choices made at
 * express are recorded only for `choicesOf`, the sale of the browser that proved the address; a
 * paid one bought through a share link rewards its referrer.
 */
async function claimPurchases(
  db: Database,
  userId: number,
  pending: PendingPurchase[],
  now: Date,
  choicesOf: string | null,
  rewards: RewardMail | undefined,
): Promise<void> {
  for (const sale of pending) {
    const claimed = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(sales)
        .set({ userId, buyerEmail: null, buyerName: null, buyerMarketing: null })
        .where(and(eq(sales.id, sale.id), isNull(sales.userId)))
        .returning({ id: sales.id });
      if (!row) return false;
      await tx
        .update(tickets)
        .set({ userId })
        .where(and(eq(tickets.saleId, sale.id), isNull(tickets.userId)));
      return true;
    });
    if (!claimed) continue;
    // The reward is kept once given; an e-mail that cannot go now does not stop the buyer signing in.
    if (rewards) await rewardReferrer(db, rewards, sale.id, now).catch(() => undefined);
    if (!sale.buyerMarketing || sale.id !== choicesOf) continue;
    const choice = { ...sale.buyerMarketing, event_subscribed: false };
    // A choice the basket no longer bears out (its organiser's tickets gone) is not recorded; signing in goes on.
    await setMarketingPreferences(db, sale.id, choice, now).catch((err: unknown) => {
      if (!(err instanceof Refusal)) throw err;
    });
  }
}

export interface SignedIn {
  hasAccount: boolean;
  /** Set when the buyer is now signed in. */
  user: UserRow | null;
  /** The sale this browser continues with: its own, or the one the buyer holds elsewhere. */
  saleId: string | null;
}

/**
 * Checks the code. With an account the buyer is signed in and the sale follows them: this
 * browser's reserved sale becomes theirs, or, without one here, the sale they hold elsewhere
 * is resumed. Without an account the sale remembers the proved address for save_guest_to_sale.
 */
export async function signInWithCode(
  db: Database,
  opts: { saleId: string | null; email: string; code: string; now: Date; secret: string; rewards?: RewardMail },
): Promise<SignedIn> {
  const email = normaliseEmail(opts.email);
  const current = opts.saleId ? ((await db.select().from(sales).where(eq(sales.id, opts.saleId)))[0] ?? null) : null;
  refuseIfExpired(current, opts.now);
  const result = await checkCode(db, { email, code: opts.code, now: opts.now, secret: opts.secret });
  if (result !== 'accepted') throw new Refusal('wrong-code', CODE_CHECK_MESSAGES[result]);

  let user = await findUserByEmail(db, email);
  const holdsHere = current !== null && holdIsLive(current, opts.now);
  const pending = await pendingPurchases(db, email, current?.id ?? null);
  const here = pending.find((p) => p.id === current?.id && p.buyerName !== null);
  if (!user && here) {
    // Proven in the browser that bought with it: the express buyer's account is made from the name they gave.
    const [made] = await db
      .insert(users)
      .values({ email, ...splitName(here.buyerName!), viewType: 'customer', emailProvenAt: opts.now })
      .onConflictDoNothing({ target: users.email })
      .returning();
    user = made ?? (await findUserByEmail(db, email));
  }
  if (!user) {
    if (current) await db.update(sales).set({ verifiedEmail: email }).where(eq(sales.id, current.id));
    return { hasAccount: false, user: null, saleId: current?.id ?? null };
  }
  // The code was just typed back: the address is the account holder's, proven now.
  await db.update(users).set({ emailProvenAt: opts.now }).where(eq(users.id, user.id));
  await claimPurchases(db, user.id, pending, opts.now, here?.id ?? null, opts.rewards);
  if (current && pending.some((p) => p.id === current.id)) current.userId = user.id;
  if (current && (holdsHere || current.userId === null || current.userId === user.id)) {
    const elsewhere = holdsHere ? null : await liveSaleOf(db, user.id, opts.now);
    if (elsewhere && elsewhere !== current.id) return { hasAccount: true, user, saleId: elsewhere };
    await db.update(sales).set({ userId: user.id, verifiedEmail: null }).where(eq(sales.id, current.id));
    return { hasAccount: true, user, saleId: current.id };
  }
  return { hasAccount: true, user, saleId: (await liveSaleOf(db, user.id, opts.now)) ?? current?.id ?? null };
}

/**
 * Signing in on the sign-in page, outside the checkout: the code is checked with this browser's
 * sale, or, for an address without an account and a browser without a sale it can use, a new empty
 * one, which keeps the proved address until the buyer gives their name (as the checkout's sale does).
 */
export async function signInOnPage(
  db: Database,
  opts: { saleId: string | null; email: string; code: string; now: Date; secret: string; rewards?: RewardMail },
): Promise<SignedIn> {
  const check = (saleId: string | null) => signInWithCode(db, { ...opts, saleId });
  const saleForRegistration = async (): Promise<string | null> => {
    if (await findUserByEmail(db, opts.email)) return null;
    const id = newSaleId();
    await createSaleIfMissing(db, id, null);
    return id;
  };
  try {
    return await check(opts.saleId ?? (await saleForRegistration()));
  } catch (err) {
    // A sale whose hold ran out cannot take a buyer, but signing in does not need it: the code
    // was not checked, so it is checked once more without it.
    if (!(err instanceof Refusal) || err.code !== 'hold-lost') throw err;
    return check(await saleForRegistration());
  }
}

function splitName(fullname: string): { firstName: string; lastName: string } {
  const parts = fullname.trim().split(/\s+/);
  return { firstName: parts[0]!, lastName: parts.slice(1).join(' ') };
}

/**
 * Saves a buyer who proved their address but has no account yet: the account is made with the
 * full name, the sale becomes theirs and they are signed in.
 */
export async function saveGuestToSale(
  db: Database,
  opts: { saleId: string; email: string; fullname: string; now: Date; rewards?: RewardMail },
): Promise<UserRow> {
  const email = normaliseEmail(opts.email);
  const saved = await db.transaction(async (tx) => {
    const sale = await lockSale(tx, opts.saleId);
    refuseIfExpired(sale, opts.now);
    if (sale.verifiedEmail !== email) throw new Refusal('sign-in-needed', VERIFY_FIRST_MESSAGE);
    const [made] = await tx
      .insert(users)
      .values({ email, ...splitName(opts.fullname), viewType: 'customer', emailProvenAt: opts.now })
      .onConflictDoNothing({ target: users.email })
      .returning();
    const user = made ?? (await tx.select().from(users).where(eq(users.email, email)))[0]!;
    await tx.update(sales).set({ userId: user.id, verifiedEmail: null }).where(eq(sales.id, sale.id));
    return user;
  });
  // Express purchases paid with this address before it was proven are this account's too.
  await claimPurchases(db, saved.id, await pendingPurchases(db, email, null), opts.now, null, opts.rewards);
  return saved;
}

/** 'Not you? Sign out': the sale keeps its basket and hold but no longer names a buyer. */
export async function logoutOfSale(db: Database, saleId: string | null): Promise<void> {
  if (!saleId) return;
  await db
    .update(sales)
    .set({
      userId: null,
      verifiedEmail: null,
      marketingSetAt: null,
      buyerEmail: null,
      buyerName: null,
      buyerMarketing: null,
    })
    .where(eq(sales.id, saleId));
}
