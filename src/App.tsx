import { lazy, Suspense, useEffect, useMemo, type ComponentType } from 'react';
import type { Checkout } from '../contract/checkout';
import { analyticsSettings, hasAnalytics } from './analytics/settings';
import { useCheckout, useCheckoutData, useUser } from './app/checkoutContext';
import { basketCount, publishBasketCount } from './app/basketCount';
import { firstScreenShown } from './app/firstScreen';
import { StepScreen } from './app/StepScreen';
import { useDarkMode } from './app/useDarkMode';
import { PERSISTENT, Toasts } from './components/Toasts';
import { inspectorWanted } from './inspector';

// Development tools: in development, and in demo mode with `?inspect` (QA's view), so a buyer's header stays the catalogue's.
// They go first in the server's header (src/app/DevTools.tsx).
const DevTools = import.meta.env.DEV || inspectorWanted() ? lazy(() => import('./app/DevTools')) : null;
// Asked only where the basket's organisers have analytics.
const loadConsentBanner = () => import('./analytics/ConsentBanner');
const LazyConsentBanner = lazy(loadConsentBanner);

/**
 * Where the page's own checkout asks the analytics question, the question is drawn with the app's
 * first screen rather than after it: arriving later, it would push the basket down under a buyer's
 * finger (a press on Reserve Basket landing beside it).
 */
export async function prepareConsentBanner(checkout: Checkout | undefined): Promise<ComponentType | undefined> {
  if (!hasAnalytics(analyticsSettings(checkout))) return undefined;
  return (await loadConsentBanner()).default;
}

/** `consentBanner`: the analytics question already loaded (`prepareConsentBanner`); else it loads when asked. */
export function App({ consentBanner: ConsentBanner = LazyConsentBanner }: { consentBanner?: ComponentType }) {
  const checkout = useCheckout();
  const { tabVisible, checkoutReloaded } = checkout;
  const fresh = useCheckoutData();
  useDarkMode(useUser());

  // Once the first screen is on the page, what it does not need may load (src/app/firstScreen.ts).
  useEffect(() => firstScreenShown(), []);

  // The one browser event the flow listens to: the tab coming back into view reloads the checkout.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'visible') tabVisible();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [tabVisible]);

  // Every fresh read of the checkout goes to the flow, which follows the server when the sale has
  // ended elsewhere (another tab). The same data is not sent twice.
  useEffect(() => {
    if (fresh) checkoutReloaded(fresh);
  }, [fresh, checkoutReloaded]);

  const askConsent = useMemo(() => hasAnalytics(analyticsSettings(fresh)), [fresh]);
  // The header's basket count follows the checkout as the server last sent it.
  useEffect(() => publishBasketCount(basketCount(fresh)), [fresh]);

  return (
    <>
      {DevTools ? (
        <Suspense fallback={null}>
          <DevTools />
        </Suspense>
      ) : null}
      {askConsent ? (
        <Suspense fallback={null}>
          <ConsentBanner />
        </Suspense>
      ) : null}
      <Toasts notices={checkout.notices} onDismiss={checkout.dismissNotice} timeout={PERSISTENT} />
      <main id="main" className="page">
        <StepScreen step={checkout.step} />
      </main>
    </>
  );
}
