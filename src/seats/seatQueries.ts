/** The seat page's server data: the event date and its seating plan, one `queryOptions` factory each. */
import { queryOptions } from '@tanstack/react-query';
import { seatCalls } from '../../contract/seats';
import { callApi, registerLaterCalls } from '../api/client';

// The seat page's schemas travel in its own chunk, not in the checkout's entry.
registerLaterCalls(seatCalls);

export function eventDateQuery(eventDateId: number) {
  return queryOptions({
    queryKey: ['seats', eventDateId, 'eventDate'] as const,
    queryFn: () => callApi('getEventDate', { event_date_id: eventDateId }),
    staleTime: Infinity,
  });
}

export function seatingPlanQuery(eventDateId: number) {
  return queryOptions({
    queryKey: ['seats', eventDateId, 'plan'] as const,
    queryFn: () => callApi('getSeatingPlan', { event_date_id: eventDateId }),
  });
}
