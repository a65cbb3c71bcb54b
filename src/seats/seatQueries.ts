/** The seat page's server data and calls: its schemas travel in its own chunk, not in the checkout's entry. */
import { queryOptions } from '@tanstack/react-query';
import { seatCalls } from '../../contract/seats';
import type { RequestOf, ResponseOf } from '../../contract';
import { callWith } from '../api/client';
import { queryKey } from '../api/queries';

type SeatCallName = keyof typeof seatCalls;

/** A seat call, with the fields its path names (`{event_date_id}`) put into the path. */
export function callSeats<N extends SeatCallName>(name: N, body: RequestOf<N>): Promise<ResponseOf<N>> {
  const fields: Record<string, unknown> = { ...body };
  const path = seatCalls[name].path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = fields[key];
    delete fields[key];
    return encodeURIComponent(String(value));
  });
  return callWith(name, { ...seatCalls[name], path }, fields as RequestOf<N>);
}

export function eventDateQuery(eventDateId: number) {
  return queryOptions({
    queryKey: queryKey('seats', eventDateId, 'eventDate'),
    queryFn: () => callSeats('getEventDate', { event_date_id: eventDateId }),
    staleTime: Infinity,
  });
}

export function seatingPlanQuery(eventDateId: number) {
  return queryOptions({
    queryKey: queryKey('seats', eventDateId, 'plan'),
    queryFn: () => callSeats('getSeatingPlan', { event_date_id: eventDateId }),
  });
}
