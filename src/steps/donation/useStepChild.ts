/**
 * The chart behind the donation or Gift Aid screen: the root checkout's child on that step
 * (systemId `donation` / `giftAid`). When it finishes, the root reads the checkout afresh and
 * picks the next step.
 */
import { useCheckout } from '../../app/checkoutContext';

export function useDonationChild() {
  return useCheckout().donationRef;
}

export function useGiftAidChild() {
  return useCheckout().giftAidRef;
}
