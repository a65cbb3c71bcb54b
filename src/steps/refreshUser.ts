/**
 * Clears the cached user and fetches it again, after the buyer signs in or out (payment, account,
 * delivery). It lives with the steps, which load after the basket, so the first screen carries none of it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { userQuery } from '../api/queries';

export async function refreshUser(queryClient: QueryClient) {
  queryClient.removeQueries({ queryKey: userQuery().queryKey });
  return queryClient.fetchQuery(userQuery());
}
