/**
 * Follows the checkout from outside its chart: each state it enters is a page view, and the order
 * completed is the purchase, sent once per sale; all of it only once the buyer has accepted
 * analytics cookies (and the basket's organisers have analytics). Accepting mid-way counts the
 * state the buyer is on; nothing from before is sent.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Checkout, Step } from '../../contract';
import { viewCheckout } from '../../machines/checkout/checkout.connect';
import type { CheckoutActorRef } from '../app/checkoutContext';
import { onConsent, readConsent } from './consent';
import { analyticsSettings, hasAnalytics, Tracker } from './tracker';
import { queryKey } from '../api/queries';

const PURCHASE_SENT = 'analytics-purchase-sent';

export function trackCheckout(actor: CheckoutActorRef, queryClient: QueryClient, tracker = new Tracker()): () => void {
  let lastStep: Step | null = null;
  const checkout = () => queryClient.getQueryData<Checkout>(queryKey('checkout'));

  const track = (step: Step) => {
    const data = checkout();
    const settings = analyticsSettings(data);
    if (readConsent() !== 'granted' || !hasAnalytics(settings)) return;
    tracker.start(settings);
    tracker.pageView(step, settings);
    if (
      step === 'order_completed' &&
      data?.sale_reference &&
      sessionStorage.getItem(PURCHASE_SENT) !== data.sale_reference
    ) {
      sessionStorage.setItem(PURCHASE_SENT, data.sale_reference);
      tracker.purchase(data, settings);
    }
  };

  const subscription = actor.subscribe((snapshot) => {
    const { step } = viewCheckout(snapshot);
    if (step === lastStep) return;
    lastStep = step;
    track(step);
  });
  const stopConsent = onConsent((consent) => {
    if (consent === 'granted' && lastStep) track(lastStep);
  });
  lastStep = viewCheckout(actor.getSnapshot()).step;
  track(lastStep);
  return () => {
    subscription.unsubscribe();
    stopConsent();
  };
}
