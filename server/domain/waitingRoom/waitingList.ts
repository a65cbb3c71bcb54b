/**
 * The waiting list of a sold-out ticket type. Whenever tickets come free (holds expire, a sale is
 * refunded, capacity grows), the next buyer in line is offered them: the offer is a sale of its own
 * whose tickets are reserved through the same hold path as any basket (so nothing is ever
 * oversold) for the checkout time, and an e-mail carries its link. The link hands the sale only to a
 * browser that proves the listed address with a one-time code sent to it, and only until the offer
 * ends. Each entry is offered once, in the order buyers joined; a type's offers are made under its
 * advisory lock, so two processes never offer out of order or twice.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { rows, type Database } from '../../db/index.ts';
import { saleLines, sales, waitingListEntries } from '../../db/schema.ts';
import { sendMail, type Mailer } from '../../mail/index.ts';
import { Refusal } from '../refusal.ts';
import { newSaleId } from '../sales.ts';
import { reserveSale } from '../reserve.ts';
import { poolAvailability } from '../stock.ts';
import { formatNiceDate } from '../format.ts';

export const WAITING_LIST_UNKNOWN_TYPE = 'These tickets could not be found.';

export function waitingListJoinedMessage(typeName: string, holdMinutes: number): string {
  return `You are on the waiting list for ${typeName}. If tickets are released, we will e-mail you a link that holds them for you for ${holdMinutes} minutes.`;
}
export function waitingListAlreadyMessage(typeName: string): string {
  return `This e-mail address is already on the waiting list for ${typeName}.`;
}
export const OFFER_ENDED_MESSAGE = 'This offer has ended: the tickets held for you were released to the next buyer on the waiting list.';
export const OFFER_UNKNOWN_MESSAGE = 'This link is not a waiting list offer.';

interface TypeRow {
  id: number;
  name: string;
  pool_id: number | null;
  date_pool: number;
  currency: string;
  title: string;
  starts_at: string | Date;
}

async function typeRow(db: Pick<Database, 'execute'>, ticketTypeId: number): Promise<TypeRow | null> {
  const [row] = await rows<TypeRow>(
    db,
    sql`SELECT t.id, t.name, t.pool_id, d.pool_id AS date_pool, e.currency, e.title, d.starts_at
        FROM ticket_types t JOIN event_dates d ON d.id = t.event_date_id JOIN events e ON e.id = d.event_id
        WHERE t.id = ${ticketTypeId}`,
  );
  return row ?? null;
}

export async function joinWaitingList(
  db: Database,
  entry: { ticketTypeId: number; email: string; qty: number },
  now: Date,
  holdSeconds: number,
): Promise<{ joined: true; message: string }> {
  const type = await typeRow(db, entry.ticketTypeId);
  if (!type) throw new Refusal('not-found', WAITING_LIST_UNKNOWN_TYPE);
  const added = await db
    .insert(waitingListEntries)
    .values({ ticketTypeId: entry.ticketTypeId, email: entry.email, qty: entry.qty, joinedAt: now })
    .onConflictDoNothing()
    .returning({ id: waitingListEntries.id });
  return {
    joined: true,
    message: added.length ? waitingListJoinedMessage(type.name, Math.round(holdSeconds / 60)) : waitingListAlreadyMessage(type.name),
  };
}

export interface OfferMail {
  mailer: Mailer;
  brandName: string;
  publicUrl: string;
}

export function offerMail(brandName: string, o: { title: string; typeName: string; qty: number; startsAt: Date; link: string; until: Date }) {
  return {
    subject: `Tickets for ${o.title} are held for you`,
    text: [
      `Tickets have been released for ${o.title} (${formatNiceDate(o.startsAt)}), and you are next on the waiting list.`,
      '',
      `We are holding ${o.qty} × ${o.typeName} for you until ${o.until.toISOString().slice(11, 16)} UTC. Open this link to buy them:`,
      o.link,
      '',
      `If you do not want them, do nothing: they go to the next buyer on the list. This offer is made once. ${brandName}`,
    ].join('\n'),
  };
}

class NoTickets extends Error {}
class Taken extends Error {}

/** Offers released tickets to the waiting lists, in order; answers how many offers were made. */
export async function offerReleasedTickets(db: Database, mail: OfferMail, now: Date, holdSeconds: number): Promise<number> {
  const waiting = await rows<{ ticket_type_id: number }>(
    db,
    sql`SELECT DISTINCT ticket_type_id FROM waiting_list_entries WHERE offered_at IS NULL ORDER BY ticket_type_id`,
  );
  let offered = 0;
  for (const { ticket_type_id } of waiting) {
    for (;;) {
      const offer = await offerNext(db, Number(ticket_type_id), now, holdSeconds).catch((err: unknown) => {
        if (err instanceof NoTickets) return null;
        throw err;
      });
      if (!offer) break;
      offered++;
      const link = `${mail.publicUrl.replace(/\/$/, '')}/waiting-list/offer/${offer.token}/`;
      await sendMail(
        db,
        mail.mailer,
        mail.brandName,
        { to: offer.email, ...offerMail(mail.brandName, { title: offer.type.title, typeName: offer.type.name, qty: offer.qty, startsAt: new Date(offer.type.starts_at), link, until: offer.until }) },
        now,
      );
    }
  }
  return offered;
}

async function offerNext(db: Database, ticketTypeId: number, now: Date, holdSeconds: number) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`holdfast-waiting-list:${ticketTypeId}`}))`);
    const [entry] = await tx
      .select()
      .from(waitingListEntries)
      .where(and(eq(waitingListEntries.ticketTypeId, ticketTypeId), sql`${waitingListEntries.offeredAt} IS NULL`))
      .orderBy(waitingListEntries.id)
      .limit(1);
    if (!entry) return null;
    const type = await typeRow(tx, ticketTypeId);
    if (!type) return null;
    // A cheap look first; the reservation below is what really claims the tickets.
    const left = await poolAvailability(tx, [type.date_pool, ...(type.pool_id ? [type.pool_id] : [])], now);
    const available = Math.min(left.get(type.date_pool) ?? 0, type.pool_id ? (left.get(type.pool_id) ?? 0) : Infinity);
    // In order: the first in line waits for as many tickets as they asked for.
    if (available < entry.qty) return null;
    const saleId = newSaleId();
    await tx.insert(sales).values({ id: saleId, currency: type.currency });
    await tx.insert(saleLines).values({ saleId, ticketTypeId, qty: entry.qty });
    const reserved = await reserveSale(tx as unknown as Database, saleId, now, holdSeconds);
    if (!reserved.reserved) throw new NoTickets();
    const token = randomBytes(24).toString('base64url');
    const until = new Date(now.getTime() + reserved.checkoutTime * 1000);
    await tx
      .update(waitingListEntries)
      .set({ offeredAt: now, offerSaleId: saleId, offerExpiresAt: until, offerToken: token })
      .where(eq(waitingListEntries.id, entry.id));
    return { token, email: entry.email, qty: entry.qty, type, until };
  });
}

export const OFFER_BOUGHT_MESSAGE = 'The tickets of this offer have been bought. They are in the wallet of the account that bought them.';
export const OFFER_TAKEN_MESSAGE =
  'This offer has already been claimed in another browser. Carry on there; or, once the address has an account, sign in with it and the tickets follow you.';

/** An offer as its link finds it: unknown, ended, bought, or live for its listed address until its end. */
export type OfferLookup =
  | { kind: 'unknown' }
  | { kind: 'ended' }
  | { kind: 'bought' }
  | { kind: 'live'; entryId: number; email: string; saleId: string; until: Date; claimed: boolean; qty: number; typeName: string; title: string };

/**
 * The offer a link names, checked on every use: its token's shape, the entry, the offer's end
 * (`offer_expires_at`) and its sale's hold. Nothing is changed.
 */
export async function findOffer(db: Database, token: string, now: Date): Promise<OfferLookup> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return { kind: 'unknown' };
  const [entry] = await db.select().from(waitingListEntries).where(eq(waitingListEntries.offerToken, token));
  if (!entry || !entry.offerSaleId || !entry.offerExpiresAt) return { kind: 'unknown' };
  const [sale] = await db.select({ holdDeadline: sales.holdDeadline, paidAt: sales.paidAt }).from(sales).where(eq(sales.id, entry.offerSaleId));
  if (sale?.paidAt) return { kind: 'bought' };
  if (entry.offerExpiresAt <= now || !sale?.holdDeadline || sale.holdDeadline <= now) return { kind: 'ended' };
  const type = await typeRow(db, entry.ticketTypeId);
  return {
    kind: 'live',
    entryId: entry.id,
    email: entry.email,
    saleId: entry.offerSaleId,
    until: new Date(Math.min(entry.offerExpiresAt.getTime(), sale.holdDeadline.getTime())),
    claimed: entry.claimedAt !== null,
    qty: entry.qty,
    typeName: type?.name ?? '',
    title: type?.title ?? '',
  };
}

/** Notes that the offer's link was opened, the first time only. */
export async function markOfferOpened(db: Database, entryId: number, now: Date): Promise<void> {
  await db
    .update(waitingListEntries)
    .set({ openedAt: now })
    .where(and(eq(waitingListEntries.id, entryId), sql`${waitingListEntries.openedAt} IS NULL`));
}

/**
 * Claims a live offer for the browser that proved its listed address (the code was checked first).
 * With an account (`userId`), the sale becomes the account's: any browser signed in as it may carry
 * on, as a sale follows its buyer. Without one, the sale carries the proved address (as the
 * checkout's login step does) and goes to the first browser that claims it only. False when the
 * offer was claimed already by another browser, or its sale is another account's or paid.
 */
export async function claimOffer(db: Database, offer: { entryId: number; saleId: string; email: string }, userId: number | null, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (userId !== null) {
      const taken = await tx
        .update(sales)
        .set({ userId, verifiedEmail: null })
        .where(and(eq(sales.id, offer.saleId), sql`(${sales.userId} IS NULL OR ${sales.userId} = ${userId})`, sql`${sales.paidAt} IS NULL`))
        .returning({ id: sales.id });
      if (taken.length === 0) return false;
      await tx
        .update(waitingListEntries)
        .set({ claimedAt: now })
        .where(and(eq(waitingListEntries.id, offer.entryId), sql`${waitingListEntries.claimedAt} IS NULL`));
      return true;
    }
    const first = await tx
      .update(waitingListEntries)
      .set({ claimedAt: now })
      .where(and(eq(waitingListEntries.id, offer.entryId), sql`${waitingListEntries.claimedAt} IS NULL`))
      .returning({ id: waitingListEntries.id });
    if (first.length === 0) return false;
    const held = await tx
      .update(sales)
      .set({ verifiedEmail: offer.email })
      .where(and(eq(sales.id, offer.saleId), sql`${sales.userId} IS NULL`, sql`${sales.paidAt} IS NULL`))
      .returning({ id: sales.id });
    // Another account's or paid: the claim is undone.
    if (held.length === 0) throw new Taken();
    return true;
  }).catch((err: unknown) => {
    if (err instanceof Taken) return false;
    throw err;
  });
}

export function startWaitingListJob(db: Database, mail: OfferMail, clock: () => Date, holdSeconds: number, intervalMs: number, onError: (err: unknown) => void): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    offerReleasedTickets(db, mail, clock(), holdSeconds)
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
