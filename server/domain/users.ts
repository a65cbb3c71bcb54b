/** Demo accounts and the mailing list (double opt-in). */
import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { mailingList, mailingListConfirmations, marketingConsents, users } from '../db/schema.ts';
import { mailingListConfirmationMail, sendMail, type Mailer } from '../mail/index.ts';
import type { User } from '../../contract/index.ts';
import { ACCOUNT_MESSAGES } from '../../contract/messages/account.ts';
import { Refusal } from './refusal.ts';

export type UserRow = typeof users.$inferSelect;

export function toWireUser(u: UserRow): User {
  return {
    id: u.id,
    email: u.email,
    is_dark_mode: u.isDarkMode,
    subscribed: u.subscribed,
    is_event_subscribed: u.isEventSubscribed,
    full_name: `${u.firstName} ${u.lastName}`,
    first_name: u.firstName,
    last_name: u.lastName,
    view_type: u.viewType,
  };
}

export async function findUser(db: Database, id: number | null): Promise<UserRow | null> {
  if (!id) return null;
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u ?? null;
}

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | null> {
  const [u] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  return u ?? null;
}

export async function listUsers(db: Database): Promise<UserRow[]> {
  return db.select().from(users).orderBy(users.id);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** How long a mailing-list confirmation link works. */
export const MAILING_LIST_CONFIRM_HOURS = 48;
/** Confirmation e-mails one address may be sent in a day, so the form cannot flood someone's inbox. */
export const MAILING_LIST_SENDS_PER_DAY = 3;
export const MAILING_LIST_CONFIRM_PATH = '/mailing-list/confirm';
export const MAILING_LIST_SOURCE = 'mailing-list:confirmed';
const PURPOSE = 'mailing-list confirmation';

export const TOO_MANY_CONFIRMATIONS_MESSAGE =
  'We have already sent several confirmation emails to this address today. Please use the link in one of them.';
export const CONFIRMATION_NOT_FOUND_MESSAGE = 'This confirmation link is not one of ours. Please sign up again.';
export const CONFIRMATION_USED_MESSAGE = 'This confirmation link has already been used.';
export const CONFIRMATION_EXPIRED_MESSAGE = 'This confirmation link has expired. Please sign up again.';

/** The stored form of a confirmation token: its hash, bound to the token's purpose. */
const hashOf = (token: string): string => createHash('sha256').update(`${PURPOSE}\n${token}`).digest('base64url');

/** A token as the link carries it: 32 random bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function normaliseListEmail(rawEmail: string): string {
  const email = rawEmail.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw new Refusal('invalid-input', ACCOUNT_MESSAGES.invalidEmail);
  return email;
}

/**
 * A mailing-list sign-up: nothing is subscribed yet. The address is e-mailed a link whose token
 * (purpose 'mailing-list confirmation', subject this address, MAILING_LIST_CONFIRM_HOURS to live,
 * usable once) is the only way to subscribe it. The same answer whether or not the address is
 * already on the list, so the form tells no one who is.
 */
export async function requestMailingList(
  db: Database,
  mail: { mailer: Mailer; brandName: string; publicUrl: string },
  rawEmail: string,
  now: Date,
): Promise<void> {
  const email = normaliseListEmail(rawEmail);
  const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
  const [sent] = await db
    .select({ n: count() })
    .from(mailingListConfirmations)
    .where(and(eq(mailingListConfirmations.email, email), gt(mailingListConfirmations.createdAt, dayAgo)));
  if ((sent?.n ?? 0) >= MAILING_LIST_SENDS_PER_DAY)
    throw new Refusal('too-many-requests', TOO_MANY_CONFIRMATIONS_MESSAGE);
  const token = randomBytes(32).toString('base64url');
  await db.insert(mailingListConfirmations).values({
    tokenHash: hashOf(token),
    email,
    expiresAt: new Date(now.getTime() + MAILING_LIST_CONFIRM_HOURS * 3600 * 1000),
    createdAt: now,
  });
  const link = `${mail.publicUrl.replace(/\/+$/, '')}${MAILING_LIST_CONFIRM_PATH}?token=${token}`;
  await sendMail(
    db,
    mail.mailer,
    mail.brandName,
    { to: email, ...mailingListConfirmationMail(mail.brandName, { link, hours: MAILING_LIST_CONFIRM_HOURS }) },
    now,
  );
}

/** Why a confirmation token does not work, or the address it would subscribe (its subject). */
async function confirmationOf(db: Pick<Database, 'select'>, token: unknown, now: Date): Promise<string> {
  if (typeof token !== 'string' || !TOKEN.test(token)) throw new Refusal('not-found', CONFIRMATION_NOT_FOUND_MESSAGE);
  const [row] = await db
    .select()
    .from(mailingListConfirmations)
    .where(eq(mailingListConfirmations.tokenHash, hashOf(token)));
  if (!row) throw new Refusal('not-found', CONFIRMATION_NOT_FOUND_MESSAGE);
  if (row.usedAt !== null) throw new Refusal('conflict', CONFIRMATION_USED_MESSAGE);
  if (row.expiresAt.getTime() <= now.getTime()) throw new Refusal('conflict', CONFIRMATION_EXPIRED_MESSAGE);
  return row.email;
}

/** The address a confirmation link would subscribe, for the page that asks to confirm; refuses a link that does not work. */
export async function mailingListConfirmation(db: Database, token: unknown, now: Date): Promise<string> {
  return confirmationOf(db, token, now);
}

/**
 * Following the link (and pressing Confirm): the token is spent, under the row's own condition so
 * two presses spend it once, and its address joins the list, its account (if any) marked
 * subscribed and the consent recorded.
 */
export async function confirmMailingList(db: Database, token: unknown, now: Date): Promise<string> {
  const email = await confirmationOf(db, token, now);
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(mailingListConfirmations)
      .set({ usedAt: now })
      .where(
        and(
          eq(mailingListConfirmations.tokenHash, hashOf(token as string)),
          isNull(mailingListConfirmations.usedAt),
          gt(mailingListConfirmations.expiresAt, now),
        ),
      )
      .returning({ email: mailingListConfirmations.email });
    if (!spent) throw new Refusal('conflict', CONFIRMATION_USED_MESSAGE);
    await tx.insert(mailingList).values({ email: spent.email }).onConflictDoNothing();
    const [account] = await tx
      .update(users)
      .set({ subscribed: true })
      .where(eq(users.email, spent.email))
      .returning({ id: users.id });
    await tx.insert(marketingConsents).values({
      userId: account?.id ?? null,
      email: spent.email,
      topic: 'community',
      organiserId: null,
      subscribed: true,
      source: MAILING_LIST_SOURCE,
      saleId: null,
      at: now,
    });
    return email;
  });
}
