/**
 * The bank-transfer waiting chart with the app's calls: the checkout read afresh for its
 * truelayer_returned_from, and get_truelayer_status.
 */
import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import type { TruelayerStatus } from '../../../contract';
import { bankTransferMachine } from '../../../machines/bankTransfer/bankTransfer.machine';
import { callApi } from '../../api/client';
import { checkoutQuery } from '../../api/queries';

export function appBankTransferMachine(queryClient: QueryClient) {
  return bankTransferMachine.provide({
    actors: {
      readReturnedFrom: fromPromise<0 | 1 | null, void>(
        async () => (await queryClient.fetchQuery({ ...checkoutQuery(), staleTime: 0 })).truelayer_returned_from,
      ),
      getTruelayerStatus: fromPromise<TruelayerStatus, void>(
        async () => (await callApi('getTruelayerStatus', {})).truelayer_status,
      ),
    },
  });
}
