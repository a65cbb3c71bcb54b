/**
 * The organiser's console: which organisers an account may run, their event dates and on-sales,
 * and every change made to an on-sale, each written with its audit row in one transaction. Only a
 * member of the date's organiser (`organiser_members`) gets past `dateFor`.
 */
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { unchecked } from '../../../contract/unchecked.ts';
import { rows, type Database, type Executor } from '../../db/index.ts';
import * as t from '../../db/schema.ts';
import { Refusal } from '../refusal.ts';

export const NOT_SIGNED_IN_MESSAGE = 'Sign in with the account that runs this organiser’s on-sales to use the console.';
export const NOT_ORGANISER_MESSAGE =
  'This account does not run any organiser’s on-sales. Ask the organiser to add your account to its team.';
export const NOT_YOUR_DATE_MESSAGE =
  'This event date belongs to an organiser this account does not run, so it cannot be seen or changed here.';
export const NO_ON_SALE_MESSAGE = 'This date has no on-sale yet: set one up first.';

export interface OrganiserOf {
  id: number;
  name: string;
}

/** The organisers the account runs, by name. */
export async function organisersOf(db: Pick<Executor, 'select'>, userId: number): Promise<OrganiserOf[]> {
  return db
    .select({ id: t.organisers.id, name: t.organisers.name })
    .from(t.organiserMembers)
    .innerJoin(t.organisers, eq(t.organisers.id, t.organiserMembers.organiserId))
    .where(eq(t.organiserMembers.userId, userId))
    .orderBy(t.organisers.name);
}

export interface ConsoleDate {
  dateId: number;
  eventId: number;
  organiserId: number;
  title: string;
  startsAt: Date;
  poolId: number;
  queue: typeof t.eventDateQueues.$inferSelect | null;
}

/** The event dates of an organiser, soonest first, each with its on-sale when it has one. */
export async function datesOf(db: Database, organiserId: number): Promise<ConsoleDate[]> {
  const found = await db
    .select({ date: t.eventDates, title: t.events.title, organiserId: t.events.organiserId, queue: t.eventDateQueues })
    .from(t.eventDates)
    .innerJoin(t.events, eq(t.events.id, t.eventDates.eventId))
    .leftJoin(t.eventDateQueues, eq(t.eventDateQueues.eventDateId, t.eventDates.id))
    .where(eq(t.events.organiserId, organiserId))
    .orderBy(t.eventDates.startsAt, t.eventDates.id);
  return found.map((r) => ({
    dateId: r.date.id,
    eventId: r.date.eventId,
    organiserId: r.organiserId,
    title: r.title,
    startsAt: r.date.startsAt,
    poolId: r.date.poolId,
    queue: r.queue,
  }));
}

/**
 * The date, when the account runs its organiser: otherwise a refusal in words (sign in; not an
 * organiser's account; another organiser's date). Unknown dates are refused as another's, so
 * nobody learns which ids exist.
 */
export async function dateFor(db: Database, userId: number | null, dateId: number): Promise<ConsoleDate> {
  if (userId === null) throw new Refusal('sign-in-needed', NOT_SIGNED_IN_MESSAGE);
  const [found] = await db
    .select({
      date: t.eventDates,
      title: t.events.title,
      organiserId: t.events.organiserId,
      queue: t.eventDateQueues,
      member: t.organiserMembers.userId,
    })
    .from(t.eventDates)
    .innerJoin(t.events, eq(t.events.id, t.eventDates.eventId))
    .leftJoin(t.eventDateQueues, eq(t.eventDateQueues.eventDateId, t.eventDates.id))
    .leftJoin(
      t.organiserMembers,
      and(eq(t.organiserMembers.organiserId, t.events.organiserId), eq(t.organiserMembers.userId, userId)),
    )
    .where(eq(t.eventDates.id, dateId));
  if (!found || found.member === null) throw new Refusal('sign-in-needed', NOT_YOUR_DATE_MESSAGE);
  const r = found;
  return {
    dateId: r.date.id,
    eventId: r.date.eventId,
    organiserId: r.organiserId,
    title: r.title,
    startsAt: r.date.startsAt,
    poolId: r.date.poolId,
    queue: r.queue,
  };
}

export interface AuditRow {
  at: Date;
  who: string;
  action: string;
  detail: string;
  title: string | null;
  startsAt: Date | null;
}

/** Writes one audit row: who did what to which date, when. */
export async function audit(
  db: Pick<Executor, 'insert'>,
  row: { organiserId: number; eventDateId: number | null; userId: number; at: Date; action: string; detail: string },
): Promise<void> {
  await db.insert(t.organiserAudit).values(row);
}

/** The organiser's latest audit rows, newest first. */
export async function auditOf(db: Database, organiserId: number, limit = 30): Promise<AuditRow[]> {
  const found = await db
    .select({
      at: t.organiserAudit.at,
      action: t.organiserAudit.action,
      detail: t.organiserAudit.detail,
      first: t.users.firstName,
      last: t.users.lastName,
      email: t.users.email,
      title: t.events.title,
      startsAt: t.eventDates.startsAt,
    })
    .from(t.organiserAudit)
    .leftJoin(t.users, eq(t.users.id, t.organiserAudit.userId))
    .leftJoin(t.eventDates, eq(t.eventDates.id, t.organiserAudit.eventDateId))
    .leftJoin(t.events, eq(t.events.id, t.eventDates.eventId))
    .where(eq(t.organiserAudit.organiserId, organiserId))
    .orderBy(desc(t.organiserAudit.id))
    .limit(limit);
  return found.map((r) => ({
    at: r.at,
    who: r.email ? `${r.first} ${r.last} (${r.email})` : 'a removed account',
    action: r.action,
    detail: r.detail,
    title: r.title,
    startsAt: r.startsAt,
  }));
}

export interface OnSaleSettings {
  onSaleAt: Date;
  admitPerMinute: number;
  maxShoppers: number;
  admissionSeconds: number;
  signInToQueue: boolean;
}

/** The names of the actions, as the audit shows them. */
export const ACTIONS = {
  setUp: 'Set up the on-sale',
  changed: 'Changed the on-sale',
  open: 'Opened the on-sale now',
  pause: 'Paused admission',
  resume: 'Resumed admission',
  rate: 'Changed the rate',
  message: 'Changed the message to waiting buyers',
  addCode: 'Added a presale code',
  removeCode: 'Removed a presale code',
  removeEntry: 'Removed a waiting-list entry',
  offer: 'Offered tickets by hand',
} as const;

type Who = { userId: number; now: Date };

async function change(
  db: Database,
  date: ConsoleDate,
  who: Who,
  action: string,
  detail: string,
  write: (tx: Database) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    // A transaction answers every query the database does.
    await write(unchecked<Database>(tx));
    await audit(tx, {
      organiserId: date.organiserId,
      eventDateId: date.dateId,
      userId: who.userId,
      at: who.now,
      action,
      detail,
    });
  });
}

const describe = (s: OnSaleSettings, zoned: (d: Date) => string) =>
  `opens ${zoned(s.onSaleAt)}; ${s.admitPerMinute} a minute; at most ${s.maxShoppers} shopping at once; ${Math.round(s.admissionSeconds / 60)} minutes to buy; ${s.signInToQueue ? 'sign in to queue' : 'no sign-in to queue'}`;

/**
 * Sets up the date's on-sale, or changes its settings. Once its queue has been drawn (the on-sale
 * has opened) the time stays; the rest may change.
 */
export async function setUpOnSale(
  db: Database,
  date: ConsoleDate,
  who: Who,
  s: OnSaleSettings,
  zoned: (d: Date) => string,
): Promise<void> {
  const settings = {
    maxShoppers: s.maxShoppers,
    admitPerMinute: s.admitPerMinute,
    admissionSeconds: s.admissionSeconds,
    signInToQueue: s.signInToQueue,
  };
  if (date.queue?.drawn && date.queue.onSaleAt.getTime() !== s.onSaleAt.getTime()) {
    throw new Refusal(
      'conflict',
      'This on-sale has opened, so its time cannot change. Pause it, or change its rate, instead.',
    );
  }
  await change(db, date, who, date.queue ? ACTIONS.changed : ACTIONS.setUp, describe(s, zoned), async (tx) => {
    await tx
      .insert(t.eventDateQueues)
      .values({ eventDateId: date.dateId, onSaleAt: s.onSaleAt, ...settings })
      .onConflictDoUpdate({ target: t.eventDateQueues.eventDateId, set: { onSaleAt: s.onSaleAt, ...settings } });
  });
}

function queueOf(date: ConsoleDate) {
  if (!date.queue) throw new Refusal('conflict', NO_ON_SALE_MESSAGE);
  return date.queue;
}

/** Opens the on-sale now (its time becomes now); refused once it has opened. */
export async function openNow(db: Database, date: ConsoleDate, who: Who): Promise<void> {
  const queue = queueOf(date);
  if (queue.onSaleAt <= who.now) throw new Refusal('conflict', 'This on-sale is already open.');
  await change(db, date, who, ACTIONS.open, '', async (tx) => {
    await tx.update(t.eventDateQueues).set({ onSaleAt: who.now }).where(eq(t.eventDateQueues.eventDateId, date.dateId));
  });
}

export async function setPaused(db: Database, date: ConsoleDate, who: Who, paused: boolean): Promise<void> {
  const queue = queueOf(date);
  if (queue.paused === paused)
    throw new Refusal('conflict', paused ? 'Admission is already paused.' : 'Admission is not paused.');
  await change(db, date, who, paused ? ACTIONS.pause : ACTIONS.resume, '', async (tx) => {
    await tx.update(t.eventDateQueues).set({ paused }).where(eq(t.eventDateQueues.eventDateId, date.dateId));
  });
}

export async function setRate(db: Database, date: ConsoleDate, who: Who, perMinute: number): Promise<void> {
  const queue = queueOf(date);
  await change(db, date, who, ACTIONS.rate, `from ${queue.admitPerMinute} to ${perMinute} a minute`, async (tx) => {
    await tx
      .update(t.eventDateQueues)
      .set({ admitPerMinute: perMinute })
      .where(eq(t.eventDateQueues.eventDateId, date.dateId));
  });
}

export async function setMessage(db: Database, date: ConsoleDate, who: Who, message: string | null): Promise<void> {
  queueOf(date);
  await change(db, date, who, ACTIONS.message, message ? `“${message}”` : 'cleared', async (tx) => {
    await tx.update(t.eventDateQueues).set({ message }).where(eq(t.eventDateQueues.eventDateId, date.dateId));
  });
}

export interface PresaleCode {
  id: number;
  code: string;
  maxUses: number;
  uses: number;
}

export async function presaleCodesOf(db: Database, dateId: number): Promise<PresaleCode[]> {
  return db
    .select({
      id: t.presaleCodes.id,
      code: t.presaleCodes.code,
      maxUses: t.presaleCodes.maxUses,
      uses: t.presaleCodes.uses,
    })
    .from(t.presaleCodes)
    .where(eq(t.presaleCodes.eventDateId, dateId))
    .orderBy(t.presaleCodes.id);
}

export async function addPresaleCode(
  db: Database,
  date: ConsoleDate,
  who: Who,
  code: string,
  maxUses: number,
): Promise<void> {
  queueOf(date);
  const [taken] = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM presale_codes WHERE event_date_id = ${date.dateId} AND upper(code) = upper(${code})`,
  );
  if (taken) throw new Refusal('conflict', `The presale code ${code} is already set up for this date.`);
  await change(
    db,
    date,
    who,
    ACTIONS.addCode,
    `${code}, for ${maxUses} ${maxUses === 1 ? 'buyer' : 'buyers'}`,
    async (tx) => {
      await tx.insert(t.presaleCodes).values({ eventDateId: date.dateId, code, maxUses, createdAt: who.now });
    },
  );
}

export async function removePresaleCode(db: Database, date: ConsoleDate, who: Who, codeId: number): Promise<void> {
  const [found] = await db
    .select()
    .from(t.presaleCodes)
    .where(and(eq(t.presaleCodes.id, codeId), eq(t.presaleCodes.eventDateId, date.dateId)));
  if (!found) throw new Refusal('not-found', 'This presale code is not one of this date’s.');
  await change(db, date, who, ACTIONS.removeCode, found.code, async (tx) => {
    await tx.delete(t.presaleCodes).where(eq(t.presaleCodes.id, codeId));
  });
}

/** Wrong presale codes typed for the date from the address since `since`. */
export async function wrongPresaleTries(db: Database, dateId: number, ip: string, since: Date): Promise<number> {
  const [found] = await rows<{ n: number | string }>(
    db,
    sql`SELECT count(*) AS n FROM presale_tries WHERE event_date_id = ${dateId} AND ip = ${ip} AND at > ${since}`,
  );
  return Number(found?.n ?? 0);
}

/** Keeps a wrong presale code typed for the date from the address, and forgets those of a day ago. */
export async function recordWrongPresaleTry(db: Database, dateId: number, ip: string, now: Date): Promise<void> {
  await db.insert(t.presaleTries).values({ eventDateId: dateId, ip, at: now });
  await db
    .delete(t.presaleTries)
    .where(
      and(
        eq(t.presaleTries.eventDateId, dateId),
        eq(t.presaleTries.ip, ip),
        lt(t.presaleTries.at, new Date(now.getTime() - 86_400_000)),
      ),
    );
}

/**
 * Spends one use of a presale code of the date (case does not matter): true when it had one left.
 * One conditional statement, so two buyers racing for the last use cannot both have it.
 */
export async function usePresaleCode(db: Pick<Executor, 'execute'>, dateId: number, code: string): Promise<boolean> {
  const [used] = await rows<{ id: number }>(
    db,
    sql`UPDATE presale_codes SET uses = uses + 1 WHERE event_date_id = ${dateId} AND upper(code) = upper(${code}) AND uses < max_uses RETURNING id`,
  );
  return used !== undefined;
}

/**
 * A place let in at once, past the queue, for a presale code's buyer: numbered below the queue
 * (a negative number, its own id), so the queue's count and order are untouched, and admitted now.
 */
export async function presalePlace(db: Pick<Executor, 'execute'>, dateId: number, now: Date): Promise<number> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`WITH n AS (SELECT nextval(pg_get_serial_sequence('queue_places', 'id')) AS id)
        INSERT INTO queue_places (id, event_date_id, number, draw, joined_at, admitted_at)
        SELECT id, ${dateId}, -id, 0, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz FROM n
        RETURNING id`,
  );
  return Number(row!.id);
}

/**
 * A presale code's buyer let in: one use of the code spent and a place admitted past the queue, in
 * one transaction. Null when the code has no use left (and nothing is written).
 */
export async function admitWithPresaleCode(
  db: Database,
  dateId: number,
  code: string,
  now: Date,
): Promise<number | null> {
  return db.transaction(async (tx) =>
    (await usePresaleCode(tx, dateId, code)) ? presalePlace(tx, dateId, now) : null,
  );
}
