/**
 * Server data on the client: one `queryOptions` factory per resource, every key from `queryKeys`,
 * general to specific. Machines never hold a second copy of this data; their actors read it from
 * the cache.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { callApi } from './client';
import { reportUser } from '../telemetry';

/**
 * Every query's key. A key is a prefix of the keys below it: invalidating `addresses` reaches each
 * buyer's saved addresses.
 */
export const queryKeys = {
  checkout: ['checkout'],
  user: ['user'],
  countriesStates: ['countriesStates'],
  addresses: ['addresses'],
  /** A buyer's saved addresses (`null` while there is no buyer to ask for). */
  savedAddresses: (userId: number | null) => ['addresses', userId] as const,
  savedPaymentMethods: ['savedPaymentMethods'],
  simpleInfo: ['simpleInfo'],
  accommodationMap: ['accommodationMap'],
} as const;

export function checkoutQuery() {
  return queryOptions({
    queryKey: queryKeys.checkout,
    queryFn: () => callApi('getCheckout'),
  });
}

/** The user is fetched once and kept; `refreshUser` is the only way to fetch it again. */
export function userQuery() {
  return queryOptions({
    queryKey: queryKeys.user,
    queryFn: async () => {
      const { user } = await callApi('getUser');
      reportUser(user ? { id: user.id, email: user.email } : null);
      return user;
    },
    staleTime: Infinity,
  });
}

/** Clears the cached user and fetches it again (after signing in or out). */
export async function refreshUser(queryClient: QueryClient) {
  queryClient.removeQueries({ queryKey: userQuery().queryKey });
  return queryClient.fetchQuery(userQuery());
}
