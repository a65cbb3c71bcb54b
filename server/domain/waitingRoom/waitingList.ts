/**
 * The waiting list of a sold-out ticket type. A buyer joins only once the type is sold out and its
 * date's on-sale (when it is queued) has opened, with the proof of work, within the type's own
 * limits (per order, per buyer) and a cap of entries per client address; joining is confirmed by
 * e-mail with the place in line and a link to leave.
 *
 * Stock that comes free while buyers wait goes to the list first: every route that takes stock
 * makes the list's offers before its own claim (`offerFreedStock`), and a job does so for stock
 * freed by no buyer's request. An offer is a sale of its own whose tickets are reserved through the
 * same hold path as any basket (so nothing is ever oversold) for the event's offer window (never past
 * the date's start, and no more time added), and an e-mail carries its link. The link hands the sale
 * only to a browser that proves the listed address with a one-time code sent to it, and only until
 * the offer ends. Each entry is offered once, in the order buyers joined, skipping an entry that
 * cannot be served now (it asks for more than is free, or than one order may take) without holding
 * up those behind it; a type's offers are made under its advisory lock, so two processes never
 * offer out of order or twice.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { unchecked } from '../../../contract/unchecked.ts';
import { rows, type Database } from '../../db/index.ts';
import { saleLines, sales, waitingListEntries } from '../../db/schema.ts';
import { sendMail } from '../../mail/index.ts';
import type { WaitingListMail } from './mail.ts';
import { mailTurns } from './turnMail.ts';
import { waitingListJoinedMail, waitingListOfferMail } from '../../mail/waitingList.ts';
import { formatDeadline } from '../format.ts';
import { MAX_HOLD_EXTENSIONS } from '../../../contract/index.ts';
import { Refusal } from '../refusal.ts';
import { newSaleId } from '../sales.ts';
import { reserveSale } from '../reserve.ts';
import { poolAvailability, releaseSaleHolds } from '../stock.ts';
import { DEFAULT_MAX_PER_ORDER, effectiveMaxPerOrder } from '../limits.ts';
import { writtenFor } from '../accountLanguage.ts';
import { inLocale } from '../../languageScope.ts';
import { sourceText } from '../../../i18n/catalogues.ts';
import { SOURCE_LOCALE } from '../../../i18n/locales.ts';
import { t } from '../../../i18n/runtime.ts';

/**
 * The list's answers and refusals. A refusal of fixed words is kept in English, as its callers
 * compare it, and is in the catalogue word for word (`page.refusal.*`): a page or an answer shows
 * it in the buyer's language (`inActiveLanguage`). A message with values is written in the language
 * of the request (or the job) it answers.
 */
export const WAITING_LIST_UNKNOWN_TYPE = 'These tickets could not be found.';
/** How many entries one client address may have on the lists of one event date. */
export const WAITING_LIST_ENTRIES_PER_ADDRESS = 3;

export function waitingListJoinedMessage(typeName: string, position: number, offerHours: number): string {
  return t('page.waitingList.joined', { position, typeName, offerHours });
}
export function waitingListAlreadyMessage(typeName: string): string {
  return t('page.waitingList.already', { typeName });
}
export const WAITING_LIST_ON_SALE_MESSAGE =
  'These tickets are still on sale: buy them from the event page. The waiting list opens once they are sold out.';
export const waitingListBeforeOnSaleMessage = (opensAt: Date) =>
  t('page.waitingList.beforeOnSale', { time: formatDeadline(opensAt) });
export const WAITING_LIST_STARTED_MESSAGE = 'This event has started: its waiting list is closed.';
export const waitingListOverOrderMessage = (typeName: string, max: number) =>
  t('page.waitingList.overOrder', { typeName, max });
export const waitingListOverCapacityMessage = (typeName: string, capacity: number) =>
  t('page.waitingList.overCapacity', { typeName, capacity });
export const waitingListBuyerCapMessage = (cap: number) => t('page.waitingList.buyerCap', { cap });
/** Said to a connection with as many entries on a date's lists as one may have, in the active language. */
export const waitingListAddressCapMessage = () =>
  t('page.waitingList.addressCap', { count: WAITING_LIST_ENTRIES_PER_ADDRESS });
/** The same in the source's English, as the tests read it. */
export const WAITING_LIST_ADDRESS_CAP_MESSAGE = inLocale(SOURCE_LOCALE, waitingListAddressCapMessage);
export const OFFER_ENDED_MESSAGE =
  'This offer has ended: the tickets held for you were released to the next buyer on the waiting list.';
export const OFFER_UNKNOWN_MESSAGE = 'This link is not a waiting list offer.';
export const LEAVE_UNKNOWN_MESSAGE = 'This link is not a waiting list entry, or it has ended.';
/** Said once a buyer has left the list, in the source's English, as the tests read it; the page writes it in its language. */
export const LEFT_MESSAGE = sourceText('page.waitingList.left');

interface TypeRow {
  id: number;
  name: string;
  pool_id: number | null;
  date_pool: number;
  date_id: number;
  currency: string;
  title: string;
  starts_at: string | Date;
  max_can_reserve: number;
  event_max: number | null;
  offer_seconds: number;
  on_sale_at: string | Date | null;
  capacity: number;
}

async function typeRow(db: Pick<Database, 'execute'>, ticketTypeId: number): Promise<TypeRow | null> {
  const [row] = await rows<TypeRow>(
    db,
    sql`SELECT t.id, t.name, t.pool_id, d.pool_id AS date_pool, d.id AS date_id, e.currency, e.title, d.starts_at, t.max_can_reserve,
          e.max_per_order AS event_max, e.waiting_list_offer_seconds AS offer_seconds, q.on_sale_at,
          LEAST(dp.capacity, COALESCE(tp.capacity, dp.capacity)) AS capacity
        FROM ticket_types t JOIN event_dates d ON d.id = t.event_date_id JOIN events e ON e.id = d.event_id
        JOIN capacity_pools dp ON dp.id = d.pool_id LEFT JOIN capacity_pools tp ON tp.id = t.pool_id
        LEFT JOIN event_date_queues q ON q.event_date_id = d.id
        WHERE t.id = ${ticketTypeId}`,
  );
  return row
    ? {
        ...row,
        id: Number(row.id),
        date_id: Number(row.date_id),
        capacity: Number(row.capacity),
        offer_seconds: Number(row.offer_seconds),
      }
    : null;
}

/** Tickets of the type free to buy now, after live holds (expired ones count as free). */
async function freeNow(db: Pick<Database, 'execute'>, type: TypeRow, now: Date): Promise<number> {
  const left = await poolAvailability(db, [type.date_pool, ...(type.pool_id ? [type.pool_id] : [])], now);
  return Math.min(left.get(type.date_pool) ?? 0, type.pool_id ? (left.get(type.pool_id) ?? 0) : Infinity);
}

/** What the list's jobs and routes need to make offers and send their e-mails (./mail.ts). */
export type { WaitingListMail };
/** The older name of the same. */
export type OfferMail = WaitingListMail;

const LIVE = sql`offered_at IS NULL AND left_at IS NULL AND removed_at IS NULL`;

/** An entry's place among those still waiting for its type (1 is next). */
async function positionOf(db: Pick<Database, 'execute'>, ticketTypeId: number, entryId: number): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM waiting_list_entries WHERE ticket_type_id = ${ticketTypeId} AND id <= ${entryId} AND ${LIVE}`,
  );
  return Number(row?.n ?? 0);
}

export interface Joined {
  joined: true;
  message: string;
  /** The place in line (1 is next); null when the address was on the list already. */
  position: number | null;
}

/**
 * Puts a buyer on a type's waiting list, or refuses in words: the type not sold out (the list's
 * offers for it are made first, so stock freed for the list does not count as on sale), its date's
 * on-sale not yet open, the event started, more than one order may take or than can ever be free,
 * past the per-buyer cap (by address and by client address), or past the client address's entries.
 * The proof of work is the route's to check. Sends the confirmation with the place and a leave link.
 */
export async function joinWaitingList(
  db: Database,
  entry: { ticketTypeId: number; email: string; qty: number; ip: string | null },
  now: Date,
  opts: WaitingListMail & { maxHeldPerBuyer: number },
): Promise<Joined> {
  const type = await typeRow(db, entry.ticketTypeId);
  if (!type) throw new Refusal('not-found', WAITING_LIST_UNKNOWN_TYPE);
  if (new Date(type.starts_at) <= now) throw new Refusal('conflict', WAITING_LIST_STARTED_MESSAGE);
  if (type.on_sale_at && new Date(type.on_sale_at) > now)
    throw new Refusal('conflict', waitingListBeforeOnSaleMessage(new Date(type.on_sale_at)));
  const perOrder = effectiveMaxPerOrder(
    type.max_can_reserve,
    type.event_max,
    opts.maxPerOrder ?? DEFAULT_MAX_PER_ORDER,
  );
  if (entry.qty > perOrder) throw new Refusal('invalid-input', waitingListOverOrderMessage(type.name, perOrder));
  if (entry.qty > type.capacity)
    throw new Refusal('invalid-input', waitingListOverCapacityMessage(type.name, type.capacity));
  await offerFreedStock(db, opts, now, { ticketTypeIds: [type.id] });
  if ((await freeNow(db, type, now)) > 0) throw new Refusal('conflict', WAITING_LIST_ON_SALE_MESSAGE);

  const joined = await db.transaction(async (tx) => {
    // One address's entries for a date are counted one join at a time.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`holdfast-waiting-list-join:${type.date_id}`}))`);
    const [mine] = await rows<{ same_email: number; qty_email: number; same_ip: number; qty_ip: number }>(
      tx,
      sql`SELECT count(*) FILTER (WHERE lower(w.email) = lower(${entry.email}) AND w.ticket_type_id = ${type.id})::int AS same_email,
            COALESCE(sum(w.qty) FILTER (WHERE lower(w.email) = lower(${entry.email})), 0)::int AS qty_email,
            count(*) FILTER (WHERE w.client_ip = ${entry.ip})::int AS same_ip,
            COALESCE(sum(w.qty) FILTER (WHERE w.client_ip = ${entry.ip}), 0)::int AS qty_ip
          FROM waiting_list_entries w JOIN ticket_types t ON t.id = w.ticket_type_id
          WHERE t.event_date_id = ${type.date_id} AND w.left_at IS NULL AND w.removed_at IS NULL
            AND (w.offered_at IS NULL OR w.offer_expires_at > ${now.toISOString()}::timestamptz)`,
    );
    if (Number(mine?.same_email ?? 0) > 0) return null;
    if (
      Number(mine?.qty_email ?? 0) + entry.qty > opts.maxHeldPerBuyer ||
      (entry.ip && Number(mine?.qty_ip ?? 0) + entry.qty > opts.maxHeldPerBuyer)
    ) {
      throw new Refusal('limit-reached', waitingListBuyerCapMessage(opts.maxHeldPerBuyer));
    }
    if (entry.ip && Number(mine?.same_ip ?? 0) >= WAITING_LIST_ENTRIES_PER_ADDRESS)
      throw new Refusal('too-many-requests', waitingListAddressCapMessage());
    const added = await tx
      .insert(waitingListEntries)
      .values({ ticketTypeId: type.id, email: entry.email, qty: entry.qty, joinedAt: now, clientIp: entry.ip })
      .onConflictDoNothing()
      .returning({ id: waitingListEntries.id });
    return added[0]?.id ?? null;
  });
  if (joined === null) return { joined: true, message: waitingListAlreadyMessage(type.name), position: null };
  const position = await positionOf(db, type.id, joined);
  const offerHours = Math.round(type.offer_seconds / 3600);
  const leaveLink = `${opts.publicUrl.replace(/\/$/, '')}${leavePath(leaveToken(opts.secret, joined, new Date(type.starts_at)))}`;
  await sendMail(
    db,
    opts.mailer,
    opts.brandName,
    {
      to: entry.email,
      ...waitingListJoinedMail(opts.brandName, {
        title: type.title,
        typeName: type.name,
        qty: entry.qty,
        position,
        offerHours,
        leaveLink,
      }),
    },
    now,
  );
  return { joined: true, message: waitingListJoinedMessage(type.name, position, offerHours), position };
}

// The leave link: `<entry id>-<end>-<signature>` (base 36 but the signature), its purpose, subject
// (the entry) and end (the event date's start, in seconds) signed under a key of its own.
const LEAVE_PURPOSE = 'waiting-list-leave';
export const leavePath = (token: string) => `/waiting-list/leave/${token}/`;

function leaveMac(secret: string, entryId: number, end: number): string {
  const key = createHmac('sha256', secret).update(`key:${LEAVE_PURPOSE}`).digest();
  return createHmac('sha256', key).update(`${LEAVE_PURPOSE}\n${entryId}\n${end}`).digest('base64url').slice(0, 22);
}

export function leaveToken(secret: string, entryId: number, end: Date): string {
  const endSeconds = Math.floor(end.getTime() / 1000);
  return `${entryId.toString(36)}-${endSeconds.toString(36)}-${leaveMac(secret, entryId, endSeconds)}`;
}

/** The entry a leave link names, when its signature is ours and its end has not passed; else null. */
export function entryOfLeaveToken(secret: string, token: unknown, now: Date): number | null {
  if (typeof token !== 'string') return null;
  const parts = /^([0-9a-z]{1,10})-([0-9a-z]{1,8})-([A-Za-z0-9_-]{22})$/.exec(token);
  if (!parts) return null;
  const entryId = Number.parseInt(parts[1]!, 36);
  const end = Number.parseInt(parts[2]!, 36);
  if (
    !Number.isSafeInteger(entryId) ||
    entryId <= 0 ||
    entryId.toString(36) !== parts[1] ||
    end.toString(36) !== parts[2]
  )
    return null;
  if (end * 1000 <= now.getTime()) return null;
  const expected = Buffer.from(leaveMac(secret, entryId, end));
  const given = Buffer.from(parts[3]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? entryId : null;
}

/** A ticket type's own waiting-list page: its id, its name and its event's title; null when there is no such type. */
export async function ticketTypeForWaitingList(
  db: Database,
  typeId: number,
): Promise<{ id: number; name: string; title: string } | null> {
  const [type] = await rows<{ id: number; name: string; title: string }>(
    db,
    sql`SELECT t.id, t.name, e.title FROM ticket_types t JOIN event_dates d ON d.id = t.event_date_id JOIN events e ON e.id = d.event_id WHERE t.id = ${typeId}`,
  );
  return type ?? null;
}

/** What a leave link's page shows: the entry's type and event, while the entry is still on the list. */
export async function entryForLeaving(
  db: Database,
  entryId: number,
): Promise<{ typeName: string; title: string; email: string } | null> {
  const [row] = await rows<{ name: string; title: string; email: string }>(
    db,
    sql`SELECT t.name, e.title, w.email FROM waiting_list_entries w JOIN ticket_types t ON t.id = w.ticket_type_id
        JOIN event_dates d ON d.id = t.event_date_id JOIN events e ON e.id = d.event_id
        WHERE w.id = ${entryId} AND w.left_at IS NULL AND w.removed_at IS NULL`,
  );
  return row ? { typeName: row.name, title: row.title, email: row.email } : null;
}

/**
 * Takes an entry off its list (`by` the buyer's leave link or the organiser): never offered after.
 * An offer it holds and has not paid for ends at once, its tickets going to the next in line.
 * False when the entry is unknown or off the list already.
 */
async function takeOff(
  db: Database,
  entryId: number,
  now: Date,
  by: 'buyer' | 'organiser',
  mail: WaitingListMail | null,
): Promise<boolean> {
  const done = await db.transaction(async (tx) => {
    const [entry] = await tx
      .update(waitingListEntries)
      .set(by === 'buyer' ? { leftAt: now } : { removedAt: now })
      .where(
        and(
          eq(waitingListEntries.id, entryId),
          sql`${waitingListEntries.leftAt} IS NULL AND ${waitingListEntries.removedAt} IS NULL`,
        ),
      )
      .returning();
    if (!entry) return null;
    if (entry.offerSaleId && entry.offerExpiresAt && entry.offerExpiresAt > now) {
      const [sale] = await tx.select({ paidAt: sales.paidAt }).from(sales).where(eq(sales.id, entry.offerSaleId));
      if (sale && !sale.paidAt) {
        await releaseSaleHolds(tx, entry.offerSaleId);
        await tx.update(sales).set({ holdDeadline: null, reference: null }).where(eq(sales.id, entry.offerSaleId));
        await tx.update(waitingListEntries).set({ offerExpiresAt: now }).where(eq(waitingListEntries.id, entryId));
      }
    }
    return entry.ticketTypeId;
  });
  if (done === null) return false;
  if (mail) await offerFreedStock(db, mail, now, { ticketTypeIds: [done] });
  return true;
}

/** The buyer leaves the list by the link in their confirmation. */
export function leaveWaitingList(
  db: Database,
  entryId: number,
  now: Date,
  mail: WaitingListMail | null = null,
): Promise<boolean> {
  return takeOff(db, entryId, now, 'buyer', mail);
}

// ---- The organiser's view of a type's list ----

export type EntryStatus = 'waiting' | 'offered' | 'bought' | 'offer ended' | 'left' | 'removed';

export interface ListedEntry {
  id: number;
  email: string;
  qty: number;
  joinedAt: Date;
  /** Place among those still waiting (1 is next); null once offered or off the list. */
  position: number | null;
  status: EntryStatus;
  offeredAt: Date | null;
  offerExpiresAt: Date | null;
}

/** Every entry of a type's list, in the order they joined, with where each stands. */
export async function listEntries(db: Database, ticketTypeId: number, now: Date = new Date()): Promise<ListedEntry[]> {
  const found = await rows<{
    id: number;
    email: string;
    qty: number;
    joined_at: string | Date;
    offered_at: string | Date | null;
    offer_expires_at: string | Date | null;
    left_at: string | Date | null;
    removed_at: string | Date | null;
    paid: boolean;
  }>(
    db,
    sql`SELECT w.id, w.email, w.qty, w.joined_at, w.offered_at, w.offer_expires_at, w.left_at, w.removed_at, (s.paid_at IS NOT NULL) AS paid
        FROM waiting_list_entries w LEFT JOIN sales s ON s.id = w.offer_sale_id
        WHERE w.ticket_type_id = ${ticketTypeId} ORDER BY w.id`,
  );
  const at = (d: string | Date | null) => (d === null ? null : new Date(d));
  let position = 0;
  return found.map((r) => {
    const expires = at(r.offer_expires_at);
    const status: EntryStatus = r.removed_at
      ? 'removed'
      : r.left_at
        ? 'left'
        : r.paid
          ? 'bought'
          : r.offered_at
            ? expires && expires > now
              ? 'offered'
              : 'offer ended'
            : 'waiting';
    return {
      id: Number(r.id),
      email: r.email,
      qty: Number(r.qty),
      joinedAt: new Date(r.joined_at),
      position: status === 'waiting' ? ++position : null,
      status,
      offeredAt: at(r.offered_at),
      offerExpiresAt: expires,
    };
  });
}

/** How many of a type's entries stand where: the console's count. */
export async function countEntries(
  db: Database,
  ticketTypeId: number,
  now: Date = new Date(),
): Promise<Record<EntryStatus, number> & { total: number }> {
  const counts = { waiting: 0, offered: 0, bought: 0, 'offer ended': 0, left: 0, removed: 0, total: 0 };
  for (const e of await listEntries(db, ticketTypeId, now)) {
    counts[e.status]++;
    counts.total++;
  }
  return counts;
}

const csvCell = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  // A cell a spreadsheet would run as a formula is quoted as text.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** A type's list as CSV (a header row, then one row per entry in the order they joined). */
export async function entriesCsv(db: Database, ticketTypeId: number, now: Date = new Date()): Promise<string> {
  const header = ['position', 'email', 'quantity', 'joined', 'status', 'offered', 'offer ends'];
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const lines = (await listEntries(db, ticketTypeId, now)).map((e) =>
    [e.position, e.email, e.qty, iso(e.joinedAt), e.status, iso(e.offeredAt), iso(e.offerExpiresAt)]
      .map(csvCell)
      .join(','),
  );
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}

/** The organiser takes an entry off the list; a live unpaid offer it holds ends, its tickets going to the next in line. */
export function removeEntry(
  db: Database,
  entryId: number,
  now: Date,
  mail: WaitingListMail | null = null,
): Promise<boolean> {
  return takeOff(db, entryId, now, 'organiser', mail);
}

export const OFFER_BY_HAND_NOT_WAITING =
  'This entry is not waiting: it has been offered tickets already, or is off the list.';
export const OFFER_BY_HAND_NO_STOCK = 'Not enough tickets are free to offer this entry what it asked for.';
export const OFFER_BY_HAND_STARTED = 'This event has started: no more offers are made.';

/**
 * The organiser offers an entry its tickets now, out of turn: held for it for the event's offer
 * window and e-mailed, as any offer. Refused in words when the entry is not waiting, the event has
 * started, or too few tickets are free.
 */
export async function offerByHand(
  db: Database,
  entryId: number,
  now: Date,
  mail: WaitingListMail,
): Promise<{ offered: true; until: Date }> {
  const [entry] = await db.select().from(waitingListEntries).where(eq(waitingListEntries.id, entryId));
  if (!entry) throw new Refusal('not-found', 'This waiting list entry could not be found.');
  const offer = await offerNext(db, entry.ticketTypeId, now, mail.maxPerOrder ?? DEFAULT_MAX_PER_ORDER, entryId).catch(
    (err: unknown) => {
      if (err instanceof NoTickets) throw new Refusal('sold-out', OFFER_BY_HAND_NO_STOCK);
      if (err instanceof NotWaiting) throw new Refusal('conflict', OFFER_BY_HAND_NOT_WAITING);
      if (err instanceof Started) throw new Refusal('conflict', OFFER_BY_HAND_STARTED);
      throw err;
    },
  );
  if (!offer) throw new Refusal('sold-out', OFFER_BY_HAND_NO_STOCK);
  await sendOffer(db, mail, offer, now);
  return { offered: true, until: offer.until };
}

// ---- Offers ----

class NoTickets extends Error {}
class NotWaiting extends Error {}
class Started extends Error {}
class Taken extends Error {}

interface Offer {
  token: string;
  email: string;
  qty: number;
  type: TypeRow;
  until: Date;
}

async function sendOffer(db: Database, mail: WaitingListMail, offer: Offer, now: Date): Promise<void> {
  const link = `${mail.publicUrl.replace(/\/$/, '')}/waiting-list/offer/${offer.token}/`;
  // Made by a job or another buyer's release: in the buyer's language (their account's, else English).
  const content = await writtenFor(db, { email: offer.email }, () =>
    waitingListOfferMail(mail.brandName, {
      title: offer.type.title,
      typeName: offer.type.name,
      qty: offer.qty,
      startsAt: new Date(offer.type.starts_at),
      link,
      until: offer.until,
    }),
  );
  await sendMail(db, mail.mailer, mail.brandName, { to: offer.email, ...content }, now);
}

/** Makes every offer a type's free stock allows now, in order; answers how many. */
async function offerType(db: Database, mail: WaitingListMail, ticketTypeId: number, now: Date): Promise<number> {
  let offered = 0;
  for (;;) {
    const offer = await offerNext(db, ticketTypeId, now, mail.maxPerOrder ?? DEFAULT_MAX_PER_ORDER).catch(
      (err: unknown) => {
        if (err instanceof NoTickets || err instanceof Started) return null;
        throw err;
      },
    );
    if (!offer) break;
    offered++;
    await sendOffer(db, mail, offer, now);
  }
  return offered;
}

/** Offers released tickets to every waiting list, in order; answers how many offers were made. */
export async function offerReleasedTickets(db: Database, mail: WaitingListMail, now: Date): Promise<number> {
  const waiting = await rows<{ ticket_type_id: number }>(
    db,
    sql`SELECT DISTINCT ticket_type_id FROM waiting_list_entries WHERE ${LIVE} ORDER BY ticket_type_id`,
  );
  let offered = 0;
  for (const { ticket_type_id } of waiting) offered += await offerType(db, mail, Number(ticket_type_id), now);
  return offered;
}

/**
 * Gives stock freed while buyers wait to the lists first: the offers of every list whose tickets
 * share a date with the given sale's lines or ticket types, made before a buyer's own claim. Cheap
 * when no one waits (one indexed read).
 */
export async function offerFreedStock(
  db: Database,
  mail: WaitingListMail,
  now: Date,
  of: { saleId?: string | null; ticketTypeIds?: number[] },
): Promise<number> {
  const typeIds = (of.ticketTypeIds ?? []).filter((id) => Number.isSafeInteger(id) && id > 0);
  if (!of.saleId && typeIds.length === 0) return 0;
  const given = typeIds.length
    ? sql`t.id IN (${sql.join(
        typeIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql`false`;
  const ofSale = of.saleId
    ? sql`t.id IN (SELECT ticket_type_id FROM sale_lines WHERE sale_id = ${of.saleId})`
    : sql`false`;
  const waiting = await rows<{ ticket_type_id: number }>(
    db,
    sql`SELECT DISTINCT w.ticket_type_id FROM waiting_list_entries w JOIN ticket_types wt ON wt.id = w.ticket_type_id
        WHERE w.offered_at IS NULL AND w.left_at IS NULL AND w.removed_at IS NULL
          AND wt.event_date_id IN (SELECT t.event_date_id FROM ticket_types t WHERE ${given} OR ${ofSale})
        ORDER BY w.ticket_type_id`,
  );
  let offered = 0;
  for (const { ticket_type_id } of waiting) offered += await offerType(db, mail, Number(ticket_type_id), now);
  return offered;
}

/**
 * The next offer of a type, under its advisory lock: the first waiting entry, in order, that the
 * free stock and the per-order maximum can serve now (those that cannot are passed over, not
 * waited for), or the one entry given (an offer by hand). Null when there is none to make.
 */
async function offerNext(
  db: Database,
  ticketTypeId: number,
  now: Date,
  siteMaxPerOrder: number,
  onlyEntry?: number,
): Promise<Offer | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`holdfast-waiting-list:${ticketTypeId}`}))`);
    const type = await typeRow(tx, ticketTypeId);
    if (!type) return null;
    const startsAt = new Date(type.starts_at);
    // No offers once the event has started, nor before its queued on-sale has opened.
    if (startsAt <= now) throw new Started();
    if (type.on_sale_at && new Date(type.on_sale_at) > now) return null;
    // A cheap look first; the reservation below is what really claims the tickets.
    const available = await freeNow(tx, type, now);
    const perOrder = effectiveMaxPerOrder(type.max_can_reserve, type.event_max, siteMaxPerOrder);
    const [entry] =
      onlyEntry === undefined
        ? await tx
            .select()
            .from(waitingListEntries)
            .where(
              and(
                eq(waitingListEntries.ticketTypeId, ticketTypeId),
                sql`${waitingListEntries.offeredAt} IS NULL AND ${waitingListEntries.leftAt} IS NULL AND ${waitingListEntries.removedAt} IS NULL`,
                sql`${waitingListEntries.qty} <= ${Math.min(available, perOrder)}`,
              ),
            )
            .orderBy(waitingListEntries.id)
            .limit(1)
        : await tx
            .select()
            .from(waitingListEntries)
            .where(
              and(
                eq(waitingListEntries.id, onlyEntry),
                sql`${waitingListEntries.offeredAt} IS NULL AND ${waitingListEntries.leftAt} IS NULL AND ${waitingListEntries.removedAt} IS NULL`,
              ),
            );
    if (!entry) {
      if (onlyEntry !== undefined) throw new NotWaiting();
      return null;
    }
    if (available < entry.qty) throw new NoTickets();
    // The offer holds for the event's offer window, never past the date's start.
    const until = new Date(Math.min(now.getTime() + type.offer_seconds * 1000, startsAt.getTime()));
    const seconds = Math.floor((until.getTime() - now.getTime()) / 1000);
    if (seconds <= 0) throw new Started();
    const saleId = newSaleId();
    await tx.insert(sales).values({ id: saleId, currency: type.currency });
    await tx.insert(saleLines).values({ saleId, ticketTypeId, qty: entry.qty });
    // A transaction answers every query the database does.
    const reserved = await reserveSale(unchecked<Database>(tx), saleId, now, seconds, {
      maxPerOrder: Math.max(perOrder, entry.qty),
    });
    if (!reserved.reserved) throw new NoTickets();
    // No more time is added to an offer: it holds for the whole window its e-mail states, and no longer.
    await tx.update(sales).set({ holdExtensions: MAX_HOLD_EXTENSIONS }).where(eq(sales.id, saleId));
    const token = randomBytes(24).toString('base64url');
    const offerUntil = new Date(now.getTime() + seconds * 1000);
    await tx
      .update(waitingListEntries)
      .set({ offeredAt: now, offerSaleId: saleId, offerExpiresAt: offerUntil, offerToken: token })
      .where(eq(waitingListEntries.id, entry.id));
    return { token, email: entry.email, qty: entry.qty, type, until: offerUntil };
  });
}

export const OFFER_BOUGHT_MESSAGE =
  'The tickets of this offer have been bought. They are in the wallet of the account that bought them.';
export const OFFER_TAKEN_MESSAGE =
  'This offer has already been claimed in another browser. Carry on there; or, once the address has an account, sign in with it and the tickets follow you.';

/** An offer as its link finds it: unknown, ended, bought, or live for its listed address until its end. */
export type OfferLookup =
  | { kind: 'unknown' }
  | { kind: 'ended' }
  | { kind: 'bought' }
  | {
      kind: 'live';
      entryId: number;
      email: string;
      saleId: string;
      until: Date;
      claimed: boolean;
      qty: number;
      typeName: string;
      title: string;
    };

/**
 * The offer a link names, checked on every use: its token's shape, the entry, the offer's end
 * (`offer_expires_at`) and its sale's hold. Nothing is changed.
 */
export async function findOffer(db: Database, token: string, now: Date): Promise<OfferLookup> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return { kind: 'unknown' };
  const [entry] = await db.select().from(waitingListEntries).where(eq(waitingListEntries.offerToken, token));
  if (!entry || !entry.offerSaleId || !entry.offerExpiresAt) return { kind: 'unknown' };
  if (entry.leftAt || entry.removedAt) return { kind: 'ended' };
  const [sale] = await db
    .select({ holdDeadline: sales.holdDeadline, paidAt: sales.paidAt })
    .from(sales)
    .where(eq(sales.id, entry.offerSaleId));
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
export async function claimOffer(
  db: Database,
  offer: { entryId: number; saleId: string; email: string },
  userId: number | null,
  now: Date,
): Promise<boolean> {
  return db
    .transaction(async (tx) => {
      if (userId !== null) {
        const taken = await tx
          .update(sales)
          .set({ userId, verifiedEmail: null })
          .where(
            and(
              eq(sales.id, offer.saleId),
              sql`(${sales.userId} IS NULL OR ${sales.userId} = ${userId})`,
              sql`${sales.paidAt} IS NULL`,
            ),
          )
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
    })
    .catch((err: unknown) => {
      if (err instanceof Taken) return false;
      throw err;
    });
}

/** Runs the offers, then the 'your turn' e-mails, every `intervalMs` while this process has the jobs' turn (`turn`, see db/jobLease.ts). */
export function startWaitingListJob(
  db: Database,
  mail: WaitingListMail,
  clock: () => Date,
  intervalMs: number,
  onError: (err: unknown) => void,
  turn: () => Promise<boolean> = async () => true,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    turn()
      .then(async (mine) => {
        if (!mine) return;
        await offerReleasedTickets(db, mail, clock());
        await mailTurns(db, mail, clock());
      })
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
