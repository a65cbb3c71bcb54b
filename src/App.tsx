import { lazy, Suspense, useEffect } from 'react';
import { useCheckoutActor, useCheckoutView, useUser } from './app/checkoutContext';
import { Header } from './app/Header';
import { StepScreen } from './app/StepScreen';
import { useDarkMode } from './app/useDarkMode';
import { Toasts } from './components/Toasts';

// Development tools; `import.meta.env.DEV` is false in a production build, so this is dropped.
const DevTools = import.meta.env.DEV ? lazy(() => import('./app/DevTools')) : null;

export function App() {
  const actor = useCheckoutActor();
  const view = useCheckoutView();
  useDarkMode(useUser());

  // The one browser event the flow listens to: the tab coming back into view reloads the checkout.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'visible') actor.send({ type: 'TAB_VISIBLE' });
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [actor]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header
        extra={
          DevTools ? (
            <Suspense fallback={null}>
              <DevTools />
            </Suspense>
          ) : null
        }
      />
      <Toasts notices={view.notices} onDismiss={(id) => actor.send({ type: 'NOTICE_DISMISSED', id })} />
      <main id="main" className="page">
        <StepScreen step={view.step} />
      </main>
    </>
  );
}
