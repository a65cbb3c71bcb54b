/**
 * The app's implementations of everything the checkout machines name: HTTP calls through the
 * one client, the query cache and navigation. Child machines keep their own implementations in
 * XState, so each child is provided here as well: the basket's from the entry, the reservation's,
 * every step chart's and the hold's clock installed from their own chunks (stepCharts.ts).
 */
import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { callApi } from '../api/client';
import { checkoutQuery } from '../api/queries';
import { takeInitialCheckout } from '../api/initialData';
import { basketMachine } from '../../machines/basket/basket.machine';
import { checkoutMachine } from '../../machines/checkout/checkout.machine';
import type { Checkout } from '../../contract/checkout';
import type { Step } from '../../contract/steps';
import { stepSaverMachine } from '../../machines/stepSaver/stepSaver.machine';
import { createStepCharts } from './stepCharts';

export interface CheckoutDeps {
  queryClient: QueryClient;
  navigate(url: string): void;
  userAgent?: string;
}

export function createCheckoutMachine(deps: CheckoutDeps) {
  const { queryClient } = deps;
  const userAgent = deps.userAgent ?? (typeof navigator === 'undefined' ? '' : navigator.userAgent);

  const stepCharts = createStepCharts({ queryClient, navigate: deps.navigate, userAgent });

  /** A fresh read of the checkout, which also refreshes the cache every screen reads. */
  const loadCheckout = fromPromise<Checkout, void>(
    async () => takeInitialCheckout() ?? (await queryClient.fetchQuery({ ...checkoutQuery(), staleTime: 0 })),
  );
  const machine = checkoutMachine.provide({
    actors: {
      loadCheckout,
      destroySale: fromPromise<unknown, void>(() => callApi('destroySale')),
      stepSaver: stepSaverMachine.provide({
        actors: {
          updateBasketState: fromPromise<{ seconds_remaining: number }, { state: Step }>(({ input }) =>
            callApi('updateBasketState', { state: input.state }),
          ),
        },
      }),
      loadStepCharts: fromPromise<void, void>(() => stepCharts.loadAll()),
      basket: basketMachine.provide({
        actors: {
          updateTicketQuantity: fromPromise(({ input }: { input: { ticket_id: number; quantity: number } }) =>
            callApi('updateTicketQuantity', input),
          ),
          updateGiftVoucherQuantity: fromPromise(
            ({ input }: { input: { gift_voucher_id: number; qty: number; value: number } }) =>
              callApi('updateGiftVoucherQuantity', input),
          ),
          updateRefundProtection: fromPromise(({ input }: { input: { refund_protection: boolean } }) =>
            callApi('updateRefundProtection', { refund_protection: String(input.refund_protection) }),
          ),
          setCode: fromPromise(({ input }: { input: { code: string } }) => callApi('setCode', input)),
          removeFromBasket: fromPromise(({ input }: { input: { ticket_id: number } }) =>
            callApi('removeFromBasket', input),
          ),
          removeGiftVoucherFromBasket: fromPromise(({ input }: { input: { gift_voucher_id: number; value: number } }) =>
            callApi('removeGiftVoucherFromBasket', input),
          ),
          loadCheckout,
        },
      }),
    },
    actions: {
      reloadCheckout: () => {
        void queryClient.invalidateQueries({ queryKey: checkoutQuery().queryKey });
      },
      navigate: (_, params) => deps.navigate(params.url),
    },
  });
  // Each step's chart takes its stand-in's place in the machine once its chunk has loaded; the
  // reservation's loads once the first screen is idle, the rest when the root asks (`loadStepCharts`).
  stepCharts.installIn(machine);
  void stepCharts.prefetchNext().catch(() => undefined);
  return machine;
}
