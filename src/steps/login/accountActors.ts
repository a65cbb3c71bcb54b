/**
 * The account chart's calls in the app: each refusal becomes an AccountCallError, so the chart
 * can tell the spec's kinds apart (a `one_time_code` refusal shown beside the code, a `reserving`
 * one shown on the basket) from any other server text and from a failed request.
 */
import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { checkCodeRefusalSchema } from '../../../contract';
import { accountMachine } from '../../../machines/account/account.machine';
import type { AccountCallError, AccountUser } from '../../../machines/account/account.types';
import { CallFailed, callApi } from '../../api/client';
import { refreshUser, userQuery } from '../../api/queries';

function callError(err: unknown): AccountCallError {
  if (err instanceof CallFailed) {
    const refusal = checkCodeRefusalSchema.safeParse(err.body);
    if (refusal.success) {
      const r = refusal.data;
      return r.type === 'reserving' ? { kind: 'reserving', message: r.message.error } : { kind: 'one_time_code', message: r.message };
    }
    // The server's own words are shown beside the spec's notice, whatever the status.
    if (err.serverMessage) return { kind: 'server', message: err.serverMessage };
  }
  return { kind: 'network', message: '' };
}

async function refusedAs<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw callError(err);
  }
}

export function accountActors(queryClient: QueryClient) {
  return {
    loadUser: fromPromise<AccountUser | null, void>(async () => {
      const user = await queryClient.fetchQuery(userQuery());
      return user ? { email: user.email, full_name: user.full_name } : null;
    }),
    sendOneTimeCode: fromPromise<void, { email: string }>(async ({ input }) => {
      await refusedAs(() => callApi('sendOneTimeCode', input));
    }),
    checkOneTimeCode: fromPromise<{ has_account: boolean }, { email: string; code: string }>(({ input }) =>
      refusedAs(() => callApi('checkOneTimeCode', input)),
    ),
    refreshUser: fromPromise<void, void>(async () => {
      await refreshUser(queryClient);
    }),
    saveGuestToSale: fromPromise<void, { email: string; fullname: string }>(async ({ input }) => {
      await refusedAs(() => callApi('saveGuestToSale', input));
      await refreshUser(queryClient).catch(() => null);
    }),
    logoutOfSale: fromPromise<void, void>(async () => {
      await refusedAs(() => callApi('logoutOfSale', {}));
      await refreshUser(queryClient).catch(() => null);
    }),
  };
}

/** The account chart as the root invokes it on the login step. */
export function appAccountMachine(queryClient: QueryClient) {
  return accountMachine.provide({ actors: accountActors(queryClient) });
}
