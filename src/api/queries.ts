/**
 * Server data on the client: one `queryOptions` factory per resource, every key from `queryKey`,
 * general to specific. Machines never hold a second copy of this data; their actors read it from
 * the cache.
 */
import { queryOptions } from '@tanstack/react-query';
import { callApi } from './client';
import { reportUser } from '../telemetry';

/**
 * Every query's resource, and what may follow its name in a key. A key is a prefix of the keys
 * below it: invalidating `queryKey('addresses')` reaches each buyer's saved addresses. The names
 * live in this type, so the factory on the first screen is one line.
 */
interface QueryKeys {
  checkout: [];
  user: [];
  countriesStates: [];
  /** Every buyer's saved addresses, or one buyer's (`null` while there is no buyer to ask for). */
  addresses: [] | [userId: number | null];
  savedPaymentMethods: [];
  simpleInfo: [];
  accommodationMap: [];
  /** The seat page's data of one date: the date itself, or its seating plan. */
  seats: [eventDateId: number, part: 'eventDate' | 'plan'];
}

/** The one key factory: `queryKey('addresses', userId)` is `['addresses', userId]`. */
export const queryKey = <K extends keyof QueryKeys, const A extends QueryKeys[K]>(
  name: K,
  ...rest: A
): readonly [K, ...A] => [name, ...rest];

export function checkoutQuery() {
  return queryOptions({
    queryKey: queryKey('checkout'),
    queryFn: () => callApi('getCheckout'),
  });
}

/** The user is fetched once and kept; `refreshUser` is the only way to fetch it again. */
export function userQuery() {
  return queryOptions({
    queryKey: queryKey('user'),
    queryFn: async () => {
      const { user } = await callApi('getUser');
      reportUser(user ? { id: user.id, email: user.email } : null);
      return user;
    },
    staleTime: Infinity,
  });
}
