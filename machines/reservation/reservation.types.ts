import type { Checkout, ResponseOf } from '../../contract';

/** What the reservation child decides, from the reserve_tickets reply. */
export type ReservationOutcome =
  | { type: 'reserved'; saleReference: string; checkoutTime: number; checkout: Checkout }
  | { type: 'captcha'; sitekey: string }
  | { type: 'redirect'; url: string }
  | { type: 'error'; message: string }
  | { type: 'unknown' }
  | { type: 'failed' };

export type ReserveReply = ResponseOf<'reserveTickets'>;
