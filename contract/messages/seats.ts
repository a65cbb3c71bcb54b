/** What the seat page's chart says of a seat and of a choice it refuses, in the catalogue. */
import { messages } from '../../i18n/lazy.ts';
import { t } from '../../i18n/runtime.ts';

export const SEAT_MESSAGES = messages({
  /** Spec 001 §8: add-to-basket errors show the server's message field when present, else this. */
  addFailed: 'seats.addFailed',
  holdFailed: 'seats.holdFailed',
  holdExpired: 'seats.holdExpired',
  /** seats.io's chart says the selection cannot be booked, for a validator it does not name below. */
  violationFallback: 'seats.violationFallback',
});

/** seats.io's selection validators, in the buyer's words. */
export const CHART_VIOLATIONS = messages({
  noOrphanSeats: 'seats.noOrphanSeats',
  consecutiveSeats: 'seats.consecutiveSeats',
});

/** 'Section A, row 3, seat 12'. */
export const seatNameMessage = (section: string, row: string, number: string) =>
  t('seats.seatName', { section, row, number });

/** A seat's accessible name: 'Section A, row 3, seat 12, £25.00, available'; a seat without a price is 'not for sale'. */
export const seatLabelMessage = (
  seat: string,
  price: string | null,
  state: 'available' | 'selected' | 'taken' | 'unpriced',
) =>
  state === 'unpriced' || price === null
    ? t('seats.seatLabelUnpriced', { seat })
    : t('seats.seatLabel', { seat, price, state });

/** 'Section A, row 3, seat 12 is taken by another buyer.', for the seats the chart could not hold. */
export const takenByOtherMessage = (seatNames: readonly string[]) =>
  t('seats.takenByOther', { seats: seatNames.join('; '), count: seatNames.length });
