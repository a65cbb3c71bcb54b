/**
 * The messages a server page may show in its red notice, by code. A form that goes back to a
 * page with a refusal sends the code (`?error=too-many`), never the words, so a link cannot make
 * the site say what its author likes: an unknown code shows nothing.
 */
import { Refusal } from '../domain/refusal.ts';
import { maximumMessage, minimumMessage } from '../domain/limits.ts';

export const NOTICES = {
  'not-added': 'Your tickets could not be added. Please check the quantities and try again.',
  'not-on-sale': 'One of the tickets you chose is no longer on sale.',
  'nothing-chosen': 'Choose at least one ticket or gift voucher to add.',
  'too-many': 'You chose more tickets than one order can hold. Each ticket shows its maximum per order.',
  'too-few': 'Some tickets are sold in a minimum number. Each ticket shows its minimum.',
  'buyer-limit': 'You already hold as many tickets for this date as one buyer can. Finish or cancel that order first.',
  voucher: 'Please choose a gift voucher value and quantity from those offered.',
} as const;

export type NoticeCode = keyof typeof NOTICES;

/** A ticket type a notice may name, as the event page knows it. */
export interface NoticeTicket {
  name: string;
  min: number;
  max: number;
}

/** The words for a code, naming the ticket when the page knows it; null for an unknown code. */
export function noticeText(code: unknown, ticket?: NoticeTicket | null): string | null {
  if (typeof code !== 'string' || !Object.hasOwn(NOTICES, code)) return null;
  if (ticket && code === 'too-many') return maximumMessage(ticket.name, ticket.max);
  if (ticket && code === 'too-few') return minimumMessage(ticket.name, ticket.min);
  return NOTICES[code as NoticeCode];
}

/** The query a form sends back to its page: the code, and the ticket type it is about. */
export function noticeQuery(err: unknown): string {
  const code = noticeCodeFor(err);
  const ticket = err instanceof Refusal ? err.notice?.ticketTypeId : undefined;
  return ticket ? `error=${code}&ticket=${ticket}` : `error=${code}`;
}

/** The notice for a refused add: the error's own code when it has one, else its kind. */
export function noticeCodeFor(err: unknown): NoticeCode {
  if (err instanceof Refusal && err.notice) return err.notice.code;
  const message = err instanceof Error ? err.message : '';
  if (err instanceof Refusal && err.code === 'not-found') return /voucher/i.test(message) ? 'voucher' : 'not-on-sale';
  if (/minimum/i.test(message)) return 'too-few';
  if (/can only|at most|maximum/i.test(message)) return 'too-many';
  if (/Choose at least one/i.test(message)) return 'nothing-chosen';
  if (/voucher/i.test(message)) return 'voucher';
  return 'not-added';
}
