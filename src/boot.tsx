import { StrictMode, startTransition, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createActor } from 'xstate';
import { App, prepareConsentBanner } from './App';
import { checkoutQuery } from './api/queries';
import type { Checkout } from '../contract/checkout';
import { createCheckoutMachine } from './app/checkoutActors';
import { seedInitialData } from './api/initialData';
import { afterFirstScreen } from './app/firstScreen';
import { followBasketCount } from './app/headerCount';
import { CheckoutActorContext, type CheckoutActorRef } from './app/checkoutContext';
import { inspection, startInspector } from './inspector';
import { installErrorReporting, reportError, reportUser } from './telemetry';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The checkout machine decides when server data is reloaded (after basket changes, when
      // the tab is visible again); React Query should not refetch on its own as well.
      refetchOnWindowFocus: false,
      retry: false,
      staleTime: 5_000,
    },
  },
});

// The chart starts before React renders: with the page's data it is at the basket by the first
// render, so the app's first commit is the basket the server already painted (no 'Determining'
// flash). This script runs only after the browser has painted the page's own picture
// (scripts/entryAfterPaint.ts), and React's first render is a transition, rendered in slices, so a
// phone's main thread is never held for long.
export async function startCheckout(nextTask: () => Promise<void>): Promise<void> {
  installErrorReporting();
  // The header and footer are the server's; the app keeps the header's basket count.
  followBasketCount();
  // The error reporting is told who the user is whenever the user is read, the page's own included.
  queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.query.queryKey[0] !== 'user') return;
    const user = event.query.state.data as { id: number; email: string } | null | undefined;
    reportUser(user ? { id: user.id, email: user.email } : null);
  });
  // The page's data fills the cache at once; the contract checks it once the first screen is shown.
  void seedInitialData(queryClient, document, afterFirstScreen);
  // Providing the chart's implementations copies the chart: a task of its own.
  await nextTask();
  const checkoutMachine = createCheckoutMachine({
    queryClient,
    navigate: (url: string) => window.location.assign(url),
  });
  await nextTask();
  // `?inspect` in development or demo mode: every actor of the page, children included.
  await startInspector();
  const actor = createActor(checkoutMachine, inspection()).start();
  // Page views and the purchase, for analytics the buyer has accepted; from outside the chart, once
  // the first screen is shown (it tracks the step the chart is at when it starts).
  afterFirstScreen(
    () => void import('./analytics/trackCheckout').then(({ trackCheckout }) => trackCheckout(actor, queryClient)),
  );
  // The analytics question, where the page's checkout asks it, comes with the first screen.
  const consentBanner = await prepareConsentBanner(queryClient.getQueryData<Checkout>(checkoutQuery().queryKey));
  await nextTask();
  startApp(actor, consentBanner);
}

function startApp(actor: CheckoutActorRef, consentBanner: ComponentType | undefined): void {
  // Errors React catches (an error boundary) or cannot recover from go to the error reporting too.
  const root = createRoot(document.getElementById('root')!, {
    onUncaughtError: (error) => {
      console.error(error);
      void reportError(error);
    },
    onCaughtError: (error) => {
      console.error(error);
      void reportError(error);
    },
  });
  startTransition(() => {
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <CheckoutActorContext.Provider value={actor}>
            <App consentBanner={consentBanner} />
          </CheckoutActorContext.Provider>
        </QueryClientProvider>
      </StrictMode>,
    );
  });
}
