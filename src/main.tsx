import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useActorRef } from '@xstate/react';
import type { InspectionEvent, Observer } from 'xstate';
import { App } from './App';
import { createCheckoutMachine } from './app/checkoutActors';
import { seedInitialData } from './api/initialData';
import { CheckoutActorContext } from './app/checkoutContext';
import './styles.css';

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

// The page's data fills the cache at once; the contract checks it as soon as it has loaded.
void seedInitialData(queryClient);

const checkoutMachine = createCheckoutMachine({
  queryClient,
  navigate: (url: string) => window.location.assign(url),
});

function Root({ inspect }: { inspect: Observer<InspectionEvent> | undefined }) {
  const actor = useActorRef(checkoutMachine, { inspect });
  return (
    <CheckoutActorContext.Provider value={actor}>
      <App />
    </CheckoutActorContext.Provider>
  );
}

/** `?inspect` in development shows the live machines in the Stately inspector. */
async function developmentInspector(): Promise<Observer<InspectionEvent> | undefined> {
  if (!import.meta.env.DEV || !new URLSearchParams(window.location.search).has('inspect')) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
}

void developmentInspector().then((inspect) => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Root inspect={inspect} />
      </QueryClientProvider>
    </StrictMode>,
  );
});
