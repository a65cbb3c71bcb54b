/**
 * The address form's chart with the app's calls. `submitAddress` is the caller's: the delivery
 * step sends set_delivery_address; the billing address needs none, as the payment chart sends it.
 */
import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import type { PossibleAddress, SavedAddress } from '../../../contract';
import { addressMachine, type AddressOutcome } from '../../../machines/address/address.machine';
import { callApi } from '../../api/client';
import { queryKey, userQuery } from '../../api/queries';
import { savedAddressesQuery } from './addressQueries';

const sentByThePayment = () => Promise.reject(new Error('The billing address is sent with the payment.'));

export function appAddressMachine(
  queryClient: QueryClient,
  submitAddress: (outcome: AddressOutcome) => Promise<unknown> = sentByThePayment,
) {
  return addressMachine.provide({
    actors: {
      /** Saved addresses are loaded only for signed-in buyers (spec 000 §6). */
      loadSavedAddresses: fromPromise<SavedAddress[], void>(async () => {
        const user = await queryClient.fetchQuery(userQuery());
        return user ? queryClient.fetchQuery(savedAddressesQuery(user.id)) : [];
      }),
      /** A failed lookup yields an empty list (spec 000 §8). */
      lookupAddress: fromPromise<PossibleAddress[], { address: string }>(async ({ input }) => {
        try {
          return (await callApi('lookupAddress', input)).possible_addresses;
        } catch {
          return [];
        }
      }),
      deleteAddress: fromPromise<unknown, { address_id: number }>(async ({ input }) => {
        const done = await callApi('deleteAddress', input);
        await queryClient.invalidateQueries({ queryKey: queryKey('addresses') });
        return done;
      }),
      submitAddress: fromPromise<unknown, AddressOutcome>(({ input }) => submitAddress(input)),
    },
  });
}
