import type { Checkout, ResponseOf } from '../../contract';

/** What the reservation child decides, from the reserve_tickets reply. */
export type ReservationOutcome =
  | { kind: 'reserved'; saleReference: string; checkoutTime: number; checkout: Checkout }
  | { kind: 'captcha'; sitekey: string }
  | { kind: 'redirect'; url: string }
  | { kind: 'error'; message: string }
  | { kind: 'unknown' }
  | { kind: 'failed' };

export type ReserveReply = ResponseOf<'reserveTickets'>;
