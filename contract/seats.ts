/**
 * Seat selection (spec 001 §2, §3 Seat-plan info and Event date info, §7): the event date and its
 * seating plan, read by the seat page, and the seat holds it asks for as seats are picked. On our
 * own map (provider 'holdfast') holding and giving back seats are ours: a seat picked is held under
 * the buyer's hold token until its deadline, and the seat rules (seatRules.ts) are checked again
 * here. On a seats.io plan (provider 'seatsio', when keyed) seats.io's chart holds them under its
 * own hold token, and these hold calls are refused; the seats it holds are added with that token.
 */
import { z } from 'zod/mini';
import { call, formId, id, money, nullableString } from './primitives.ts';

/** Seats one hold or release call may name. */
export const MAX_SEATS_PER_CALL = 20;

export const seatStatusSchema = z.enum(['available', 'taken', 'yours']);
export type SeatStatus = z.infer<typeof seatStatusSchema>;

export const planSeatSchema = z.object({
  id,
  number: z.string(),
  /** The seat's place along its row; a gap of more than one is an aisle. */
  position: id,
  x: id,
  y: id,
  /** Null when the seat has no pricing: it is drawn, but cannot be chosen. */
  ticket_type_id: z.nullable(id),
  status: seatStatusSchema,
});
export type PlanSeat = z.infer<typeof planSeatSchema>;

export const seatingPlanSectionSchema = z.object({
  name: z.string(),
  rows: z.array(z.object({ name: z.string(), seats: z.array(planSeatSchema) })),
});
export type SeatingPlanSection = z.infer<typeof seatingPlanSectionSchema>;

export const seatPricingSchema = z.object({ ticket_type_id: id, ticket_name: z.string(), price: money });
export type SeatPricing = z.infer<typeof seatPricingSchema>;

/** The buyer's live seat hold on this date: its token, what it holds and how long it lasts. */
export const seatHoldSchema = z.object({
  hold_token: nullableString,
  seconds_remaining: z.number().check(z.int(), z.minimum(0)),
  seat_ids: z.array(id),
});
export type SeatHold = z.infer<typeof seatHoldSchema>;

const eventDatePath = z.object({ event_date_id: formId });
const seatsRequest = z.object({
  event_date_id: formId,
  seats: z.array(formId).check(z.minLength(1), z.maxLength(MAX_SEATS_PER_CALL)),
});

export const seatCalls = {
  getEventDate: call({
    method: 'GET',
    path: '/ajax/organiser/event_dates/get_event_date/{event_date_id}/',
    encoding: 'none',
    request: eventDatePath,
    response: z.object({
      event_date: z.object({ id, event_id: id, starts_at: z.string(), nice_date: z.string() }),
      event: z.object({
        id,
        title: z.string(),
        venue: z.string(),
        currency: z.object({ symbol: z.string(), code: z.string() }),
        url: z.string(),
      }),
    }),
  }),
  getSeatingPlan: call({
    method: 'GET',
    path: '/ajax/organiser/event_dates/get_current_seating_plan/{event_date_id}/',
    encoding: 'none',
    request: eventDatePath,
    response: z.object({
      seating_plan_layout: z.object({
        seating_plan_provider: z.object({
          provider: z.enum(['holdfast', 'seatsio']),
          public_key: nullableString,
          region: nullableString,
        }),
        width: id,
        height: id,
        sections: z.array(seatingPlanSectionSchema),
      }),
      seating_plan_event: z.object({
        provider_identifier: z.string(),
        pricing: z.array(seatPricingSchema),
        hold: seatHoldSchema,
      }),
    }),
  }),
  /** Holds seats for the buyer's hold token (one is issued on the first hold). A refusal is a 409 with `{ error }`. */
  holdSeats: call({
    method: 'POST',
    path: '/ajax/organiser/event_dates/hold_seats/',
    encoding: 'form',
    request: seatsRequest,
    response: seatHoldSchema,
  }),
  /** Gives back seats the buyer holds; refused like a hold when it would leave a single empty seat. */
  releaseSeats: call({
    method: 'POST',
    path: '/ajax/organiser/event_dates/release_seats/',
    encoding: 'form',
    request: seatsRequest,
    response: seatHoldSchema,
  }),
} as const;

/** The seat basket entry's key (spec 001 §3): `eventId|eventDateId|ticketType|0`. */
export function seatBasketKey(eventId: number, eventDateId: number, ticketTypeId: number): string {
  return `${eventId}|${eventDateId}|${ticketTypeId}|0`;
}
