/**
 * How many tickets one order and one buyer may take, so a script cannot hoard a date's stock.
 *
 * Per order: every ticket type has an effective maximum, its own max_can_reserve, else its
 * event's max_per_order, else the configured default (MAX_PER_ORDER). Every path that sets a
 * quantity (add, quantity update, reserve) holds to it.
 *
 * Per buyer: the tickets of one event date held at once by one buyer, across all their sales, are
 * capped (MAX_HELD_PER_BUYER). A buyer is a session (the sale), a signed-in account and a client
 * address: holds count against each. Reservations take a transaction-scoped advisory lock per
 * account and address before they count, so two at once from one buyer cannot both squeeze in.
 */
import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../db/index.ts';
import { DomainError } from './errors.ts';

export const DEFAULT_MAX_PER_ORDER = 10;
export const DEFAULT_MAX_HELD_PER_BUYER = 20;

export function effectiveMaxPerOrder(typeMax: number, eventMax: number | null | undefined, fallback = DEFAULT_MAX_PER_ORDER): number {
  if (typeMax > 0) return typeMax;
  if (eventMax && eventMax > 0) return eventMax;
  return fallback;
}

/** The spec's warning, with the ticket named so a message shown away from the basket line still reads. */
export function maximumMessage(name: string, max: number): string {
  return `${name}: You can only reserve ${max} tickets of this type`;
}

export function tooManyForOrder(type: { id: number; name: string }, max: number): DomainError {
  return new DomainError(400, maximumMessage(type.name, max), { code: 'too-many', ticketTypeId: type.id });
}

export interface Buyer {
  userId: number | null;
  ip: string | null;
}

export const BUYER_LIMIT_MESSAGE = (cap: number) =>
  `You already hold tickets for this date in another basket. One buyer can hold at most ${cap} tickets of one date at a time: finish or cancel that order first, or choose fewer.`;

/**
 * Refuses a reservation that would take a buyer past the cap on any event date. Runs inside the
 * reservation's transaction after the sale is locked and before the pools are: it locks the
 * buyer's account and address (in one fixed order) and counts their other sales' live holds.
 */
export async function refuseOverBuyerCap(
  tx: Pick<Executor, 'execute'>,
  opts: { saleId: string; buyer: Buyer; cap: number; now: Date; wanted: Map<number, number> },
): Promise<void> {
  const { saleId, buyer, cap, now, wanted } = opts;
  for (const qty of wanted.values()) if (qty > cap) throw new DomainError(409, BUYER_LIMIT_MESSAGE(cap), { code: 'buyer-limit' });
  const keys = [buyer.userId !== null ? `user:${buyer.userId}` : null, buyer.ip ? `ip:${buyer.ip}` : null].filter((k): k is string => k !== null).sort();
  if (keys.length === 0 || wanted.size === 0) return;
  for (const key of keys) await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`holdfast-buyer:${key}`}))`);
  const dateIds = [...wanted.keys()];
  const held = await rows<{ date_id: number; held: number }>(
    tx,
    sql`SELECT t.event_date_id AS date_id, sum(h.qty)::int AS held
        FROM holds h
        JOIN sales s ON s.id = h.sale_id
        JOIN ticket_types t ON t.id = h.ticket_type_id
        JOIN event_dates d ON d.id = t.event_date_id AND d.pool_id = h.pool_id
        WHERE h.sale_id <> ${saleId}
          AND h.deadline > ${now.toISOString()}::timestamptz
          AND s.hold_deadline > ${now.toISOString()}::timestamptz
          AND (${buyer.userId !== null ? sql`s.user_id = ${buyer.userId}` : sql`false`} OR ${buyer.ip ? sql`s.buyer_ip = ${buyer.ip}` : sql`false`})
          AND t.event_date_id IN (${sql.join(dateIds.map((id) => sql`${id}`), sql`, `)})
        GROUP BY t.event_date_id`,
  );
  for (const row of held) {
    if (Number(row.held) + (wanted.get(Number(row.date_id)) ?? 0) > cap) {
      throw new DomainError(409, BUYER_LIMIT_MESSAGE(cap), { code: 'buyer-limit' });
    }
  }
}
