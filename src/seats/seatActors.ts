/** The seat machine with the app's side effects: the seat calls, re-reading the plan, going to the checkout. */
import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { RequestOf } from '../../contract';
import { failed, refused } from '../../contract/outcome';
import { CallFailed, callApi } from '../api/client';
import { seatSelectionMachine, type AddRequest } from '../../machines/seatSelection/seatSelection.machine';
import { callSeats, seatingPlanQuery } from './seatQueries';
import { queryKey } from '../api/queries';

/**
 * A seat call as the chart takes it: a conflict (409: a rule of the plan, or another buyer was
 * first) is a refusal, said next to the plan; any other failure failed, shown as a toast. Both in
 * the server's words where it gave them.
 */
async function seatCall<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    const message = err instanceof CallFailed ? err.serverMessage : null;
    throw err instanceof CallFailed && err.status === 409 && message ? refused(message) : failed(message);
  }
}

export function createSeatSelectionMachine(deps: {
  queryClient: QueryClient;
  eventDateId: number;
  navigate: (url: string) => void;
}) {
  return seatSelectionMachine.provide({
    actors: {
      holdSeats: fromPromise(({ input }: { input: RequestOf<'holdSeats'> }) => seatCall(callSeats('holdSeats', input))),
      releaseSeats: fromPromise(({ input }: { input: RequestOf<'releaseSeats'> }) =>
        seatCall(callSeats('releaseSeats', input)),
      ),
      addToBasket: fromPromise(async ({ input }: { input: AddRequest }) => {
        const reply = await callApi('addToBasket', input);
        // The basket changed: the checkout is read afresh where it is shown.
        await deps.queryClient.invalidateQueries({ queryKey: queryKey('checkout') });
        return reply;
      }),
    },
    actions: {
      planChanged: () =>
        void deps.queryClient.invalidateQueries({ queryKey: seatingPlanQuery(deps.eventDateId).queryKey }),
      goToCheckout: () => deps.navigate('/checkout/'),
    },
  });
}
