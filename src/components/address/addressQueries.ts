/**
 * Address data on the client: the server's countries and states (cached for the visit), and a
 * signed-in buyer's saved addresses (`queryKey('addresses', userId)`), invalidated when one is deleted
 * or added.
 */
import { queryOptions, skipToken } from '@tanstack/react-query';
import { callApi } from '../../api/client';
import { queryKey } from '../../api/queries';

export function countriesStatesQuery() {
  return queryOptions({
    queryKey: queryKey('countriesStates'),
    // A failed read of the lists yields empty lists (spec 000 §8).
    queryFn: () => callApi('getAddressAllCountriesStates').catch(() => ({ countries: [], states: [] })),
    staleTime: Infinity,
  });
}

/** A buyer's saved addresses; with `null` (no buyer, or none to show) the query waits. */
export function savedAddressesQuery(userId: number | null) {
  return queryOptions({
    queryKey: queryKey('addresses', userId),
    queryFn: userId === null ? skipToken : async () => (await callApi('getUserAddresses')).existing_addresses,
  });
}
