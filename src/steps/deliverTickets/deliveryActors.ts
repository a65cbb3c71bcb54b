/**
 * The delivery chart with the app's calls: deliver_to_bitticket and deliver_to_wallet, the user
 * read afresh (refreshUser) and whether one is known already (the user's cache, queryKey('user')).
 */
import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import type { ResponseOf } from '../../../contract';
import { deliveryMachine } from '../../../machines/delivery/delivery.machine';
import { callApi } from '../../api/client';
import { userQuery } from '../../api/queries';
import { refreshUser } from '../refreshUser';

type DeliveryReply = ResponseOf<'deliverToBitticket'>;

export function appDeliveryMachine(queryClient: QueryClient) {
  return deliveryMachine.provide({
    actors: {
      deliverToBitticket: fromPromise<DeliveryReply, void>(() => callApi('deliverToBitticket', {})),
      deliverToWallet: fromPromise<DeliveryReply, void>(() => callApi('deliverToWallet', {})),
      fetchUser: fromPromise<unknown, void>(() => refreshUser(queryClient)),
    },
    guards: {
      signedIn: () => Boolean(queryClient.getQueryData(userQuery().queryKey)),
    },
  });
}
