/** The seat machine with the app's side effects: the seat calls, re-reading the plan, going to the checkout. */
import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { RequestOf } from '../../contract';
import { callApi } from '../api/client';
import { seatSelectionMachine, type AddRequest } from '../../machines/seatSelection/seatSelection.machine';
import { callSeats, seatingPlanQuery } from './seatQueries';

export function createSeatSelectionMachine(deps: { queryClient: QueryClient; eventDateId: number; navigate: (url: string) => void }) {
  return seatSelectionMachine.provide({
    actors: {
      holdSeats: fromPromise(({ input }: { input: RequestOf<'holdSeats'> }) => callSeats('holdSeats', input)),
      releaseSeats: fromPromise(({ input }: { input: RequestOf<'releaseSeats'> }) => callSeats('releaseSeats', input)),
      addToBasket: fromPromise(async ({ input }: { input: AddRequest }) => {
        const reply = await callApi('addToBasket', input);
        // The basket changed: the checkout is read afresh where it is shown.
        await deps.queryClient.invalidateQueries({ queryKey: ['checkout'] });
        return reply;
      }),
    },
    actions: {
      planChanged: () => void deps.queryClient.invalidateQueries({ queryKey: seatingPlanQuery(deps.eventDateId).queryKey }),
      goToCheckout: () => deps.navigate('/checkout/'),
    },
  });
}
