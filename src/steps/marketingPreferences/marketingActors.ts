/** The Keep updated chart with the app's calls: the checkout from the query cache, set_marketing_preferences. */
import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import {
  marketingMachine,
  type MarketingPayload,
  type MarketingPreferences,
} from '../../../machines/marketing/marketing.machine';
import { callApi } from '../../api/client';
import { checkoutQuery } from '../../api/queries';

export function appMarketingMachine(queryClient: QueryClient) {
  return marketingMachine.provide({
    actors: {
      loadPreferences: fromPromise<MarketingPreferences | null, void>(
        async () => (await queryClient.fetchQuery(checkoutQuery())).marketing_preferences,
      ),
      setMarketingPreferences: fromPromise<void, MarketingPayload>(async ({ input }) => {
        await callApi('setMarketingPreferences', input);
      }),
    },
  });
}
