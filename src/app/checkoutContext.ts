/**
 * The root checkout actor, shared with every screen. Screens read view models through these hooks
 * and send events; they never look at the chart's state names themselves.
 */
import { createContext, useContext, useMemo } from 'react';
import { useSelector } from '@xstate/react';
import { useQuery } from '@tanstack/react-query';
import type { ActorRefFrom } from 'xstate';
import type { checkoutMachine } from '../../machines/checkout/checkout.machine';
import { checkoutSenders, viewCheckout } from '../../machines/checkout/checkout.connect';
import { checkoutQuery, userQuery } from '../api/queries';

/** The root chart as the app provides it (`createCheckoutMachine`): `.provide()` keeps its type. */
export type CheckoutMachine = typeof checkoutMachine;
export type CheckoutActorRef = ActorRefFrom<CheckoutMachine>;
export type CheckoutView = ReturnType<typeof viewCheckout>;

export const CheckoutActorContext = createContext<CheckoutActorRef | null>(null);

export function useCheckoutActor(): CheckoutActorRef {
  const actor = useContext(CheckoutActorContext);
  if (!actor) throw new Error('useCheckoutActor needs <CheckoutActorContext.Provider>');
  return actor;
}

/** The root machine's view model, recomputed only when its snapshot changes. */
export function useCheckoutView(): CheckoutView {
  const actor = useCheckoutActor();
  const snapshot = useSelector(actor, (s) => s);
  return useMemo(() => viewCheckout(snapshot), [snapshot]);
}

/** The root machine's view model with its senders (`reserve()`, `continueStep()`, ...). */
export function useCheckout() {
  const actor = useCheckoutActor();
  const snapshot = useSelector(actor, (s) => s);
  const senders = useMemo(() => checkoutSenders((event) => actor.send(event)), [actor]);
  return useMemo(() => ({ ...viewCheckout(snapshot), ...senders }), [snapshot, senders]);
}

/** The checkout object as the server last sent it (React Query owns it). */
export function useCheckoutData() {
  return useQuery(checkoutQuery()).data;
}

export function useUser() {
  return useQuery(userQuery()).data ?? null;
}
