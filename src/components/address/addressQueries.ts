/**
 * Address data on the client: the server's countries and states (cached for the visit), and a
 * signed-in buyer's saved addresses (`['addresses', userId]`), invalidated when one is deleted.
 */
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../api/client';

export function countriesStatesQuery() {
  return queryOptions({
    queryKey: ['countriesStates'] as const,
    // A failed read of the lists yields empty lists (spec 000 §8).
    queryFn: () => callApi('getAddressAllCountriesStates').catch(() => ({ countries: [], states: [] })),
    staleTime: Infinity,
  });
}

export function savedAddressesQuery(userId: number) {
  return queryOptions({
    queryKey: ['addresses', userId] as const,
    queryFn: async () => (await callApi('getUserAddresses')).existing_addresses,
  });
}
