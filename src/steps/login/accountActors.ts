/**
 * The account chart's calls in the app: each failure becomes a call outcome, so the chart tells
 * the spec's kinds apart (a `one_time_code` refusal shown beside the code, the hold lost shown on
 * the basket) from any other server text and from a failed request.
 */
import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { checkCodeRefusalSchema } from '../../../contract';
import { accountMachine } from '../../../machines/account/account.machine';
import type { AccountUser } from '../../../machines/account/account.types';
import { failed, HOLD_LOST_ON_THE_WIRE, holdLost, refused, type CallFailure } from '../../../contract/outcome';
import { CallFailed, callApi } from '../../api/client';
import { failureFrom } from '../../api/outcome';
import { userQuery } from '../../api/queries';
import { refreshUser } from '../refreshUser';

function callError(err: unknown): CallFailure {
  if (err instanceof CallFailed) {
    const refusal = checkCodeRefusalSchema.safeParse(err.body);
    if (refusal.success) {
      const r = refusal.data;
      return r.type === HOLD_LOST_ON_THE_WIRE ? holdLost(r.message.error) : refused(r.message, 'one_time_code');
    }
    // The server's own words are shown beside the spec's notice, whatever the status.
    return failureFrom(err, err.serverMessage);
  }
  return failed();
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
