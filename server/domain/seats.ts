/**
 * Seats: the plan of a seated event date, holds under a hold token while the buyer picks, and the
 * seats of a sale, which its reservation holds under the countdown and its payment sells.
 *
 * A seat is taken for a holder when it is sold, or when another holder's hold has not reached
 * `held_until`; an expired hold stops counting by itself, so nothing has to sweep seats. Every claim
 * locks all the seats of the rows it touches (in id order, the one order every path uses), judges
 * the change with the shared rules (contract/seatRules.ts) against what it sees under those locks,
 * and then writes all of the set or none of it: two buyers can never both have a seat, and no
 * accepted claim leaves a single empty seat.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rows, type Executor } from '../db/index.ts';
import { eventDates, events, saleSeats, seatPlans, seats, ticketTypes } from '../db/schema.ts';
import { checkSeatChange, seatName, type RuleSeat } from '../../contract/seatRules.ts';
import type { SeatHold, SeatingPlanSection, SeatStatus } from '../../contract/seats.ts';
import { currencySymbol } from '../../contract/money.ts';
import { Refusal } from './refusal.ts';
import { formatNiceDate } from './format.ts';
import { t } from '../../i18n/runtime.ts';
import type { SeatingProvider } from './seating/provider.ts';

type Exec = Pick<Executor, 'execute' | 'select' | 'update' | 'insert' | 'delete'>;
type Seat = typeof seats.$inferSelect;

// Refusals in English, as their callers compare them; each is in the catalogue word for word
// (`page.refusal.*`), and a buyer is answered in their language (server/http/refusals.ts). A
// refusal naming a seat is written in the request's language.
export const NO_PLAN_MESSAGE = 'This event date has no seating plan.';
export const NO_DATE_MESSAGE = 'This event date could not be found.';
export const CHART_HOLDS_MESSAGE = 'Seats on this plan are chosen on its seating chart, which holds them.';
export const RESERVED_SEAT_MESSAGE =
  'That seat is reserved in your basket; remove it from the checkout to choose again.';

export async function hasSeatPlan(db: Pick<Executor, 'select'>, eventDateId: number): Promise<boolean> {
  const [plan] = await db
    .select({ id: seatPlans.eventDateId })
    .from(seatPlans)
    .where(eq(seatPlans.eventDateId, eventDateId));
  return plan !== undefined;
}

/** A new hold token: unguessable, so holding a seat is proof of having picked it. */
export function newHoldToken(): string {
  return randomBytes(16).toString('hex');
}

function isLive(seat: Pick<Seat, 'heldUntil'>, now: Date): boolean {
  return seat.heldUntil !== null && seat.heldUntil.getTime() > now.getTime();
}

function isMine(seat: Seat, holder: string | null, now: Date): boolean {
  return holder !== null && seat.soldSaleId === null && seat.holder === holder && isLive(seat, now);
}

function isTaken(seat: Seat, holder: string | null, now: Date): boolean {
  return seat.soldSaleId !== null || (isLive(seat, now) && seat.holder !== holder);
}

function toRuleSeat(seat: Seat, holder: string | null, now: Date): RuleSeat {
  return {
    id: seat.id,
    section: seat.section,
    row: seat.row,
    number: seat.number,
    position: seat.position,
    priced: seat.ticketTypeId !== null,
    taken: isTaken(seat, holder, now),
  };
}

export async function eventDateInfo(db: Pick<Executor, 'select'>, eventDateId: number) {
  const [found] = await db
    .select({ date: eventDates, event: events })
    .from(eventDates)
    .innerJoin(events, eq(events.id, eventDates.eventId))
    .where(eq(eventDates.id, eventDateId));
  if (!found) throw new Refusal('not-found', NO_DATE_MESSAGE);
  return {
    event_date: {
      id: found.date.id,
      event_id: found.event.id,
      starts_at: found.date.startsAt.toISOString(),
      nice_date: formatNiceDate(found.date.startsAt),
    },
    event: {
      id: found.event.id,
      title: found.event.title,
      venue: `${found.event.venueName}, ${found.event.city}`,
      currency: { symbol: currencySymbol(found.event.currency), code: found.event.currency },
      url: `/event/${found.event.id}/`,
    },
  };
}

/** The plan's provider settings the seat page needs: seats.io only when its public key is configured. */
export interface SeatsioSettings {
  publicKey: string | null;
  region: string | null;
}

/** Seat map units around the seats. */
const MARGIN = 40;

export async function seatingPlan(
  db: Pick<Executor, 'select'>,
  eventDateId: number,
  holder: string | null,
  now: Date,
  seatsio: SeatsioSettings,
) {
  const [plan] = await db.select().from(seatPlans).where(eq(seatPlans.eventDateId, eventDateId));
  if (!plan) throw new Refusal('not-found', NO_PLAN_MESSAGE);
  const all = await db.select().from(seats).where(eq(seats.eventDateId, eventDateId)).orderBy(seats.id);
  const typeIds = [...new Set(all.flatMap((s) => (s.ticketTypeId === null ? [] : [s.ticketTypeId])))];
  const types = typeIds.length
    ? await db
        .select({
          id: ticketTypes.id,
          name: ticketTypes.name,
          price: ticketTypes.price,
          sortOrder: ticketTypes.sortOrder,
        })
        .from(ticketTypes)
        .where(inArray(ticketTypes.id, typeIds))
    : [];
  const sections: SeatingPlanSection[] = [];
  for (const seat of all) {
    let section = sections.find((s) => s.name === seat.section);
    if (!section) sections.push((section = { name: seat.section, rows: [] }));
    let row = section.rows.find((r) => r.name === seat.row);
    if (!row) section.rows.push((row = { name: seat.row, seats: [] }));
    const status: SeatStatus = isMine(seat, holder, now) ? 'yours' : isTaken(seat, holder, now) ? 'taken' : 'available';
    row.seats.push({
      id: seat.id,
      number: seat.number,
      position: seat.position,
      x: seat.x,
      y: seat.y,
      ticket_type_id: seat.ticketTypeId,
      status,
    });
  }
  for (const section of sections) for (const row of section.rows) row.seats.sort((a, b) => a.position - b.position);
  const useSeatsio = plan.provider === 'seatsio' && seatsio.publicKey !== null;
  return {
    seating_plan_layout: {
      seating_plan_provider: useSeatsio
        ? { provider: 'seatsio' as const, public_key: seatsio.publicKey, region: seatsio.region }
        : { provider: 'holdfast' as const, public_key: null, region: null },
      width: Math.max(0, ...all.map((s) => s.x)) + MARGIN,
      height: Math.max(0, ...all.map((s) => s.y)) + MARGIN,
      sections,
    },
    seating_plan_event: {
      provider_identifier: plan.providerIdentifier,
      pricing: types
        .sort((a, b) => a.sortOrder - b.sortOrder)
        .map((t) => ({ ticket_type_id: t.id, ticket_name: t.name, price: t.price })),
      hold: holdOf(all, holder, now),
    },
  };
}

function holdOf(all: Seat[], holder: string | null, now: Date): SeatHold {
  const mine = all.filter((s) => isMine(s, holder, now));
  const until = Math.min(...mine.map((s) => s.heldUntil!.getTime()));
  return {
    hold_token: holder,
    seconds_remaining: mine.length ? Math.max(0, Math.ceil((until - now.getTime()) / 1000)) : 0,
    seat_ids: mine.map((s) => s.id),
  };
}

/** Locks every seat of the rows the given seats are in, in id order, and answers them. */
async function lockRowsOf(tx: Exec, eventDateId: number, seatIds: number[]): Promise<Seat[]> {
  if (seatIds.length === 0) return [];
  const locked = await rows<Record<string, unknown>>(
    tx,
    sql`SELECT * FROM seats WHERE event_date_id = ${eventDateId} AND (section, "row") IN (
          SELECT section, "row" FROM seats WHERE event_date_id = ${eventDateId} AND id IN (${sql.join(
            seatIds.map((id) => sql`${id}`),
            sql`, `,
          )})
        ) ORDER BY id FOR UPDATE`,
  );
  return locked.map((r) => ({
    id: Number(r.id),
    eventDateId: Number(r.event_date_id),
    section: String(r.section),
    row: String(r.row),
    number: String(r.number),
    position: Number(r.position),
    x: Number(r.x),
    y: Number(r.y),
    ticketTypeId: r.ticket_type_id === null ? null : Number(r.ticket_type_id),
    holder: (r.holder as string | null) ?? null,
    heldUntil: r.held_until === null || r.held_until === undefined ? null : new Date(r.held_until as string),
    saleId: (r.sale_id as string | null) ?? null,
    soldSaleId: (r.sold_sale_id as string | null) ?? null,
  }));
}

/**
 * Judges and applies one change of a holder's seats on a date, under the rows' locks: the seats in
 * `add` join the holder's live seats and those in `remove` leave them. Refuses the whole change with
 * the rule's words, changing nothing.
 */
async function changeSeats(
  tx: Exec,
  c: {
    eventDateId: number;
    holder: string;
    add: number[];
    remove: number[];
    now: Date;
    deadline: Date;
    saleId?: string;
  },
): Promise<Seat[]> {
  const locked = await lockRowsOf(tx, c.eventDateId, [...c.add, ...c.remove]);
  const byId = new Map(locked.map((s) => [s.id, s]));
  const unknown = [...c.add, ...c.remove].find((id) => !byId.has(id));
  if (unknown !== undefined) throw new Refusal('not-found', t('seats.rule.notOnPlan'));
  const before = new Set(locked.filter((s) => isMine(s, c.holder, c.now)).map((s) => s.id));
  for (const id of c.remove) {
    if (!before.has(id)) throw new Refusal('conflict', t('page.seats.notHeld', { seat: seatName(byId.get(id)!) }));
    if (!c.saleId && byId.get(id)!.saleId !== null) throw new Refusal('conflict', RESERVED_SEAT_MESSAGE);
  }
  const after = new Set(before);
  for (const id of c.add) after.add(id);
  for (const id of c.remove) after.delete(id);
  const refusal = checkSeatChange(
    locked.map((s) => toRuleSeat(s, c.holder, c.now)),
    before,
    after,
  );
  if (refusal) throw new Refusal(refusal.rule === 'taken' ? 'sold-out' : 'conflict', refusal.message);
  const added = c.add.filter((id) => !before.has(id) || c.saleId !== undefined);
  if (added.length) {
    await tx
      .update(seats)
      .set({ holder: c.holder, heldUntil: c.deadline, saleId: c.saleId ?? null })
      .where(inArray(seats.id, added));
  }
  if (c.remove.length) {
    await tx.update(seats).set({ holder: null, heldUntil: null, saleId: null }).where(inArray(seats.id, c.remove));
  }
  return locked;
}

/** The holder's live seats on a date, all moved to one deadline: the hold's session continues. */
async function renewHold(tx: Exec, eventDateId: number, holder: string, now: Date, deadline: Date): Promise<SeatHold> {
  await tx.execute(
    sql`UPDATE seats SET held_until = ${deadline.toISOString()}::timestamptz
        WHERE event_date_id = ${eventDateId} AND holder = ${holder} AND sale_id IS NULL AND sold_sale_id IS NULL
          AND held_until > ${now.toISOString()}::timestamptz`,
  );
  const mine = await tx
    .select()
    .from(seats)
    .where(and(eq(seats.eventDateId, eventDateId), eq(seats.holder, holder)))
    .orderBy(seats.id);
  return holdOf(mine, holder, now);
}

async function requirePlan(tx: Pick<Executor, 'select'>, eventDateId: number): Promise<void> {
  const [plan] = await tx
    .select({ id: seatPlans.eventDateId })
    .from(seatPlans)
    .where(eq(seatPlans.eventDateId, eventDateId));
  if (!plan) throw new Refusal('not-found', NO_PLAN_MESSAGE);
}

export interface HoldRequest {
  eventDateId: number;
  seatIds: number[];
  holder: string;
  now: Date;
  holdSeconds: number;
}

/** Holds seats for a holder (all or none), and renews the deadline of every seat it holds on the date. */
export async function holdSeats(db: Pick<Executor, 'transaction'>, r: HoldRequest): Promise<SeatHold> {
  return db.transaction(async (tx) => {
    await requirePlan(tx, r.eventDateId);
    const deadline = new Date(r.now.getTime() + r.holdSeconds * 1000);
    await changeSeats(tx, {
      eventDateId: r.eventDateId,
      holder: r.holder,
      add: [...new Set(r.seatIds)],
      remove: [],
      now: r.now,
      deadline,
    });
    return renewHold(tx, r.eventDateId, r.holder, r.now, deadline);
  });
}

/** Gives back seats a holder holds, unless that would leave a single empty seat or a gap. */
export async function releaseSeats(db: Pick<Executor, 'transaction'>, r: HoldRequest): Promise<SeatHold> {
  return db.transaction(async (tx) => {
    await requirePlan(tx, r.eventDateId);
    const deadline = new Date(r.now.getTime() + r.holdSeconds * 1000);
    await changeSeats(tx, {
      eventDateId: r.eventDateId,
      holder: r.holder,
      add: [],
      remove: [...new Set(r.seatIds)],
      now: r.now,
      deadline,
    });
    return renewHold(tx, r.eventDateId, r.holder, r.now, deadline);
  });
}

/* ---------- a sale's seats ---------- */

export interface SeatChoice {
  section: string;
  row: string;
  number: string;
  hold_token?: string | undefined;
}

/** Ticket types sold by seat, among the given ones: a basket line of one needs its seats. */
export async function seatedTypes(tx: Pick<Executor, 'execute'>, typeIds: number[]): Promise<Set<number>> {
  if (typeIds.length === 0) return new Set();
  const found = await rows<{ ticket_type_id: number }>(
    tx,
    sql`SELECT DISTINCT ticket_type_id FROM seats WHERE ticket_type_id IN (${sql.join(
      typeIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return new Set(found.map((r) => Number(r.ticket_type_id)));
}

/**
 * The seats.io event key of a date whose seats seats.io holds: its plan's provider is seats.io and
 * seats.io is keyed. Null: our own holds in the database.
 */
export async function seatsioEventOf(
  tx: Pick<Executor, 'select'>,
  eventDateId: number,
  seating: SeatingProvider | null,
): Promise<string | null> {
  if (!seating) return null;
  const [plan] = await tx.select().from(seatPlans).where(eq(seatPlans.eventDateId, eventDateId));
  return plan?.provider === 'seatsio' ? plan.providerIdentifier : null;
}

/**
 * Puts seats the buyer holds into the sale's basket line for their ticket type. Each seat must be
 * held, now, under the hold token sent with it (by us, or by seats.io for its plans), and sell as
 * that ticket type. Answers the line's quantity: the number of its seats.
 */
export async function addSeatsToSale(
  tx: Exec,
  c: {
    saleId: string;
    ticketTypeId: number;
    ticketName: string;
    eventDateId: number;
    seats: SeatChoice[];
    now: Date;
    seating?: SeatingProvider | null;
  },
): Promise<number> {
  const eventKey = await seatsioEventOf(tx, c.eventDateId, c.seating ?? null);
  const found: { seat: Seat; token: string; choice: SeatChoice }[] = [];
  for (const choice of c.seats) {
    const [seat] = await tx
      .select()
      .from(seats)
      .where(
        and(
          eq(seats.eventDateId, c.eventDateId),
          eq(seats.section, choice.section),
          eq(seats.row, choice.row),
          eq(seats.number, choice.number),
        ),
      );
    const name = seatName(choice);
    if (!seat) throw new Refusal('not-found', t('page.seats.notOnPlan', { seat: name }));
    if (seat.ticketTypeId !== c.ticketTypeId)
      throw new Refusal('invalid-input', t('page.seats.notSoldAs', { seat: name, ticketName: c.ticketName }));
    if (!choice.hold_token || (eventKey === null && !isMine(seat, choice.hold_token, c.now))) {
      throw new Refusal('hold-lost', t('page.seats.holdEnded', { seat: name }));
    }
    found.push({ seat, token: choice.hold_token, choice });
  }
  if (eventKey !== null) {
    // seats.io keeps these holds: it is asked, per hold token, whether they hold the seats now.
    for (const [token, group] of groupBy(found, (f) => f.token))
      await c.seating!.checkHeld(
        eventKey,
        group.map((f) => f.seat),
        token,
      );
  }
  for (const { seat, token } of found) {
    await tx
      .insert(saleSeats)
      .values({ saleId: c.saleId, seatId: seat.id, ticketTypeId: c.ticketTypeId, holdToken: token })
      .onConflictDoNothing();
  }
  const [count] = await rows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM sale_seats WHERE sale_id = ${c.saleId} AND ticket_type_id = ${c.ticketTypeId}`,
  );
  return Number(count?.n ?? 0);
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** A seat of a sale as seats.io knows it: the event key, its place and the hold token it was chosen under. */
export interface ProviderSeat {
  eventKey: string;
  section: string;
  row: string;
  number: string;
  holdToken: string;
}

/** The seats of a sale (or of one of its lines) whose plans seats.io keeps. */
async function providerSeatsOf(
  tx: Pick<Executor, 'select'>,
  saleId: string,
  ticketTypeId?: number,
): Promise<ProviderSeat[]> {
  const where =
    ticketTypeId === undefined
      ? eq(saleSeats.saleId, saleId)
      : and(eq(saleSeats.saleId, saleId), eq(saleSeats.ticketTypeId, ticketTypeId));
  return tx
    .select({
      eventKey: seatPlans.providerIdentifier,
      section: seats.section,
      row: seats.row,
      number: seats.number,
      holdToken: saleSeats.holdToken,
    })
    .from(saleSeats)
    .innerJoin(seats, eq(seats.id, saleSeats.seatId))
    .innerJoin(seatPlans, eq(seatPlans.eventDateId, seats.eventDateId))
    .where(and(where, eq(seatPlans.provider, 'seatsio')))
    .orderBy(seats.id);
}

/** Gives back at seats.io the seats taken out of a basket (their holds would end by themselves; others may have them now). */
export async function releaseProviderSeats(seating: SeatingProvider | null, removed: ProviderSeat[]): Promise<void> {
  if (!seating) return;
  for (const group of groupBy(removed, (s) => `${s.eventKey}\u0000${s.holdToken}`).values()) {
    await seating.release(group[0]!.eventKey, group, group[0]!.holdToken);
  }
}

/** Takes a line's seats out of the sale; answers those seats.io keeps, to give back there once this commits. */
export async function removeSaleSeats(
  tx: Pick<Executor, 'delete' | 'select'>,
  saleId: string,
  ticketTypeId: number,
): Promise<ProviderSeat[]> {
  const provided = await providerSeatsOf(tx, saleId, ticketTypeId);
  await tx.delete(saleSeats).where(and(eq(saleSeats.saleId, saleId), eq(saleSeats.ticketTypeId, ticketTypeId)));
  return provided;
}

/**
 * The reservation takes the sale's seats: under the rows' locks, each seat must still be the
 * buyer's (held under its token, or free again after that hold ended, and leaving no single empty
 * seat); they are then held for the sale until its deadline. Answers the seats it could not take.
 */
export async function reserveSaleSeats(
  tx: Exec,
  saleId: string,
  deadline: Date,
  now: Date,
  seating: SeatingProvider | null = null,
): Promise<string[]> {
  const chosen = await tx
    .select({ seat: seats, token: saleSeats.holdToken, provider: seatPlans.provider })
    .from(saleSeats)
    .innerJoin(seats, eq(seats.id, saleSeats.seatId))
    .innerJoin(seatPlans, eq(seatPlans.eventDateId, seats.eventDateId))
    .where(eq(saleSeats.saleId, saleId))
    .orderBy(seats.id)
    .then(async (all) => {
      // seats.io's seats stay held under the buyer's seats.io hold token, made to last the countdown; booking checks them again.
      const provided = all.filter((c) => seating && c.provider === 'seatsio');
      for (const token of new Set(provided.map((c) => c.token))) await seating!.extendHold(token, deadline, now);
      return all.filter((c) => !provided.includes(c));
    });
  if (chosen.length === 0) return [];
  const groups = new Map<string, { eventDateId: number; holder: string; ids: number[]; names: string[] }>();
  for (const { seat, token } of chosen) {
    const key = `${seat.eventDateId}|${token}`;
    const group = groups.get(key) ?? { eventDateId: seat.eventDateId, holder: token, ids: [], names: [] };
    group.ids.push(seat.id);
    group.names.push(seatName(seat));
    groups.set(key, group);
  }
  const lost: string[] = [];
  for (const g of groups.values()) {
    try {
      await changeSeats(tx, {
        eventDateId: g.eventDateId,
        holder: g.holder,
        add: g.ids,
        remove: [],
        now,
        deadline,
        saleId,
      });
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      lost.push(...g.names);
    }
  }
  return lost;
}

/** Moves the deadline of the seats a sale's reservation holds (more time, a payment's grace), at seats.io too. */
export async function moveSaleSeatsDeadline(
  tx: Pick<Executor, 'update' | 'select'>,
  saleId: string,
  deadline: Date,
  seatsio: { seating: SeatingProvider | null; now: Date } = { seating: null, now: deadline },
): Promise<void> {
  await tx
    .update(seats)
    .set({ heldUntil: deadline })
    .where(and(eq(seats.saleId, saleId), sql`${seats.soldSaleId} IS NULL`));
  if (!seatsio.seating) return;
  for (const token of new Set((await providerSeatsOf(tx, saleId)).map((s) => s.holdToken)))
    await seatsio.seating.extendHold(token, deadline, seatsio.now);
}

/** Gives back the seats a sale's reservation holds; the basket keeps its seats, to reserve again. */
export async function releaseSaleSeats(tx: Pick<Executor, 'execute'>, saleId: string): Promise<void> {
  await tx.execute(
    sql`UPDATE seats SET holder = NULL, held_until = NULL, sale_id = NULL WHERE sale_id = ${saleId} AND sold_sale_id IS NULL`,
  );
}

/**
 * Sells a paid sale's seats: each must still be the sale's (held by its reservation, or by nobody
 * since). Answers false, changing nothing, when any seat went to someone else.
 */
export async function sellSaleSeats(
  tx: Pick<Executor, 'execute' | 'select'>,
  saleId: string,
  now: Date,
  seating: SeatingProvider | null = null,
): Promise<boolean> {
  const [wanted] = await rows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM sale_seats WHERE sale_id = ${saleId}`,
  );
  if (Number(wanted?.n ?? 0) === 0) return true;
  const sold = await rows<{ id: number }>(
    tx,
    sql`UPDATE seats s SET sold_sale_id = ${saleId}, held_until = NULL, sale_id = NULL
        FROM sale_seats ss
        WHERE ss.sale_id = ${saleId} AND s.id = ss.seat_id AND s.sold_sale_id IS NULL
          AND (s.sale_id = ${saleId} OR s.held_until IS NULL OR s.held_until <= ${now.toISOString()}::timestamptz OR s.holder = ss.hold_token)
        RETURNING s.id`,
  );
  if (sold.length !== Number(wanted?.n ?? 0)) return false;
  if (seating) {
    // seats.io's seats are booked there for this sale (the order id), under the buyer's hold token,
    // last: a refusal here undoes the sale's completion with the rest.
    const provided = await providerSeatsOf(tx, saleId);
    const booked: ProviderSeat[][] = [];
    for (const group of groupBy(provided, (s) => `${s.eventKey}\u0000${s.holdToken}`).values()) {
      if (!(await seating.book(group[0]!.eventKey, group, group[0]!.holdToken, saleId))) {
        // All or none: what this sale booked there already is given back.
        for (const done of booked) await seating.release(done[0]!.eventKey, done, null);
        return false;
      }
      booked.push(group);
    }
  }
  return true;
}

/** A seat of a sale's basket line, as the checkout reads it. */
export interface SaleSeat {
  ticketTypeId: number;
  section: string;
  row: string;
  number: string;
  holdToken: string;
}

/** The seats of a sale's basket lines, by ticket type, as the checkout's ticket lines show them. */
export async function saleSeatsByType(db: Pick<Executor, 'select'>, saleId: string) {
  const found = await db
    .select({
      ticketTypeId: saleSeats.ticketTypeId,
      section: seats.section,
      row: seats.row,
      number: seats.number,
      holdToken: saleSeats.holdToken,
    })
    .from(saleSeats)
    .innerJoin(seats, eq(seats.id, saleSeats.seatId))
    .where(eq(saleSeats.saleId, saleId))
    .orderBy(seats.section, seats.row, seats.position);
  return seatsByType(found);
}

/** Seats in seat order, grouped by their ticket type. */
export function seatsByType(found: SaleSeat[]) {
  const byType = new Map<number, { section: string; row: string; number: string; hold_token: string }[]>();
  for (const s of found)
    byType.set(s.ticketTypeId, [
      ...(byType.get(s.ticketTypeId) ?? []),
      { section: s.section, row: s.row, number: s.number, hold_token: s.holdToken },
    ]);
  return byType;
}
