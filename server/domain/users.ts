/** Demo accounts and the mailing list. */
import { eq } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { mailingList, users } from '../db/schema.ts';
import type { User } from '../../contract/index.ts';
import { INVALID_EMAIL_MESSAGE } from '../../contract/messages/account.ts';
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

/** Records an address on the mailing list; subscribing twice is not an error. */
export async function subscribe(db: Database, rawEmail: string): Promise<void> {
  const email = rawEmail.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw new Refusal('invalid-input', INVALID_EMAIL_MESSAGE);
  await db.insert(mailingList).values({ email }).onConflictDoNothing();
  await db.update(users).set({ subscribed: true }).where(eq(users.email, email));
}
