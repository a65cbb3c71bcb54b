/**
 * The chart behind a step's screen: the root checkout's child on that step, found by the name the
 * root chart invokes it by (`donation`, `giftAid`, `payment`, ...). Undefined on any other step, or
 * while the root reads the checkout before moving on.
 */
import type { ActorRefFrom, AnyActorLogic } from 'xstate';
import { useCheckoutView } from '../app/checkoutContext';

export function useStepChild<Logic extends AnyActorLogic>(name: string): ActorRefFrom<Logic> | undefined {
  const child = useCheckoutView().stepChild;
  return child?.id === name ? (child as ActorRefFrom<Logic>) : undefined;
}
