/**
 * How many tickets one order and one buyer may take, so a script cannot hoard a date's stock.
 *
 * Per order: every ticket type has an effective maximum, its own max_can_reserve, else its
 * event's max_per_order, else the configured default (MAX_PER_ORDER). Every path that sets a
 * quantity (add, quantity update, reserve) holds to it.
 *
 * Per buyer: the tickets of one event date held at once by one buyer, across all their sales, are
 * capped (MAX_HELD_PER_BUYER). A buyer is a session (the sale), a signed-in account and a client
 * address: holds count against each, as reserved (an account signed in after the reservation
 * counts that sale from its next one). Each key keeps a count per date (`buyer_held`, beside
 * the `buyer_holds` rows it sums) so the check reads one row however many holds the key has, a
 * whole venue behind one address included. The check runs in the database function
 * `reserve_claims` under a transaction-scoped advisory lock per key, so two reservations at once
 * from one buyer cannot both squeeze in.
 */
import { maximumWarning, minimumWarning } from '../../contract/messages/basket.ts';
import { Refusal } from './refusal.ts';
import { t } from '../../i18n/runtime.ts';

export const DEFAULT_MAX_PER_ORDER = 10;
export const DEFAULT_MAX_HELD_PER_BUYER = 20;

export function effectiveMaxPerOrder(
  typeMax: number,
  eventMax: number | null | undefined,
  fallback = DEFAULT_MAX_PER_ORDER,
): number {
  if (typeMax > 0) return typeMax;
  if (eventMax && eventMax > 0) return eventMax;
  return fallback;
}

/** The spec's warnings, with the ticket named so a message shown away from the basket line still reads. */
export function maximumMessage(name: string, max: number): string {
  return `${name}: ${maximumWarning(max)}`;
}

export function minimumMessage(name: string, min: number): string {
  return `${name}: ${minimumWarning(min)}`;
}

export function tooManyForOrder(type: { id: number; name: string }, max: number): Refusal {
  return new Refusal('invalid-input', maximumMessage(type.name, max), { code: 'too-many', ticketTypeId: type.id });
}

export interface Buyer {
  userId: number | null;
  ip: string | null;
}

export const BUYER_LIMIT_MESSAGE = (cap: number) => t('page.basket.buyerLimit', { cap });

/** The keys a buyer's holds count under (sorted, the order their advisory locks are taken in). */
export function buyerKeys(buyer: Buyer): string[] {
  return [buyer.userId !== null ? `user:${buyer.userId}` : null, buyer.ip ? `ip:${buyer.ip}` : null]
    .filter((k): k is string => k !== null)
    .sort();
}

/** A basket that alone asks for more of one date than the cap is refused before any lock. */
export function refuseOverCapAlone(wanted: Map<number, number>, cap: number): void {
  for (const qty of wanted.values())
    if (qty > cap) throw new Refusal('limit-reached', BUYER_LIMIT_MESSAGE(cap), { code: 'buyer-limit' });
}
