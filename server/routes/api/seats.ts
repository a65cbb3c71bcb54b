/** The seat page's calls: the event date, its seating plan, and holding or giving back seats. */
import {
  CHART_HOLDS_MESSAGE,
  eventDateInfo,
  holdSeats,
  newHoldToken,
  releaseSeats,
  seatingPlan,
  seatsioEventOf,
} from '../../domain/seats.ts';
import { Refusal } from '../../domain/refusal.ts';
import type { Handlers } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { holdTokenOf, setHoldTokenCookie } from '../../http/session.ts';

export function seatHandlers(
  deps: AppDeps,
): Pick<Handlers, 'getEventDate' | 'getSeatingPlan' | 'holdSeats' | 'releaseSeats'> {
  const { db, clock, config } = deps;
  const seatsio = { publicKey: config.seatsio?.publicKey ?? null, region: config.seatsio?.region ?? null };
  /** seats.io's chart holds the seats of its plans under its own token: our holds are not for them. */
  async function refuseChartPlan(eventDateId: number): Promise<void> {
    if ((await seatsioEventOf(db, eventDateId, deps.seating)) !== null)
      throw new Refusal('conflict', CHART_HOLDS_MESSAGE);
  }
  return {
    getEventDate: async ({ input }) => eventDateInfo(db, input.event_date_id),
    getSeatingPlan: async ({ input, request, reply }) => {
      reply.header('cache-control', 'no-store');
      return seatingPlan(db, input.event_date_id, holdTokenOf(request), clock(), seatsio);
    },
    holdSeats: async ({ input, request, reply }) => {
      await refuseChartPlan(input.event_date_id);
      // The hold token is issued with the first hold and kept in a signed cookie: the session continues.
      const holder = holdTokenOf(request) ?? newHoldToken();
      const hold = await holdSeats(db, {
        eventDateId: input.event_date_id,
        seatIds: input.seats,
        holder,
        now: clock(),
        holdSeconds: config.seatHoldSeconds,
      });
      setHoldTokenCookie(request, reply, holder, config.seatHoldSeconds);
      return hold;
    },
    releaseSeats: async ({ input, request }) => {
      await refuseChartPlan(input.event_date_id);
      const holder = holdTokenOf(request) ?? newHoldToken();
      return releaseSeats(db, {
        eventDateId: input.event_date_id,
        seatIds: input.seats,
        holder,
        now: clock(),
        holdSeconds: config.seatHoldSeconds,
      });
    },
  };
}
