/**
 * The order-completed chart with the app's calls: the referral link, feedback and subscribing
 * through the one client (subscribing reads the user again, who is then subscribed), the clipboard
 * and the device's share sheet; the Transfer tickets form's chart with set_transfers.
 */
import { fromPromise } from 'xstate';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { orderCompletedMachine } from '../../../machines/orderCompleted/orderCompleted.machine';
import { callApi } from '../../api/client';
import { queryKey, userQuery } from '../../api/queries';
import { appTransfersMachine } from './transfer/transferActors';

export function appOrderCompletedMachine(queryClient: QueryClient) {
  return orderCompletedMachine.provide({
    actors: {
      loadReferrerLink: fromPromise<string, void>(() => callApi('getRewardReferrerLink')),
      sendFeedback: fromPromise<void, { message: string }>(async ({ input }) => {
        await callApi('sendCustomerFeedback', input);
      }),
      subscribeToEvents: fromPromise<void, void>(async () => {
        await callApi('subscribeToEvents');
        await queryClient.invalidateQueries({ queryKey: userQuery().queryKey });
      }),
      copyText: fromPromise<void, { text: string }>(({ input }) => navigator.clipboard.writeText(input.text)),
      transfers: appTransfersMachine(),
    },
    actions: {
      openShareSheet: (_, params: { text: string }) => {
        // A buyer who closes the share sheet has not failed at anything.
        void navigator.share?.({ text: params.text }).catch(() => undefined);
      },
    },
  });
}

/** The accommodation map the site embeds (its configuration does not change while the page is open). */
export function accommodationMapQuery() {
  return queryOptions({
    queryKey: queryKey('accommodationMap'),
    queryFn: () => callApi('getAccommodationMap'),
    staleTime: Infinity,
    retry: false,
  });
}
