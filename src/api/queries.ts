/**
 * Server data on the client: one `queryOptions` factory per resource, keys from general to
 * specific. Machines never hold a second copy of this data; their actors read it from the cache.
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { callApi } from './client';
import { reportUser } from '../telemetry';

export function checkoutQuery() {
  return queryOptions({
    queryKey: ['checkout'] as const,
    queryFn: () => callApi('getCheckout'),
  });
}

/** The user is fetched once and kept; `refreshUser` is the only way to fetch it again. */
export function userQuery() {
  return queryOptions({
    queryKey: ['user'] as const,
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
