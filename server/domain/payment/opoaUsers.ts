/**
 * get_opoa_users: the team of the organiser whose own payment account takes this basket's payment
 * (the checkout's opoa: the first basket organiser with a provider), that is the accounts with its
 * organiser's role, who sell for it at its box office. They are named only to one of them signed
 * in: to anyone else, buyers included, the list is empty.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/index.ts';
import { organiserMembers, users } from '../../db/schema.ts';
import { basketOf } from '../checkout/basket.ts';
import { readCheckoutSnapshot } from '../checkout/snapshot.ts';

export interface OpoaUser {
  id: number;
  full_name: string;
}

export async function opoaUsersOf(
  db: Database,
  p: { saleId: string | null; userId: number | null; now: Date },
): Promise<OpoaUser[]> {
  if (p.saleId === null || p.userId === null) return [];
  const snapshot = await readCheckoutSnapshot(db, p.saleId, p.userId, p.now);
  if (!snapshot) return [];
  const paying = basketOf(snapshot).organisers.find((o) => o.paymentProvider);
  if (!paying) return [];
  const [member] = await db
    .select({ userId: organiserMembers.userId })
    .from(organiserMembers)
    .where(and(eq(organiserMembers.organiserId, paying.id), eq(organiserMembers.userId, p.userId)));
  if (!member) return [];
  const team = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(organiserMembers)
    .innerJoin(users, eq(users.id, organiserMembers.userId))
    .where(eq(organiserMembers.organiserId, paying.id))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
  return team.map((u) => ({ id: u.id, full_name: `${u.firstName} ${u.lastName}`.trim() }));
}
