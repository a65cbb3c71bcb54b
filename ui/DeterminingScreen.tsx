import { Spinner } from './Spinner';

/**
 * The first screen: the checkout is loading and the chart is choosing the step to show (drawn by
 * the server into the page too). After a failed load it offers 'Retry' instead of the spinner.
 */
export function DeterminingScreen({ onRetry }: { onRetry?: (() => void) | null }) {
  return (
    <section className="step step--centred" data-step="determining" aria-busy={!onRetry}>
      <h1 className="step__title">Determining checkout progress</h1>
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          Retry
        </button>
      ) : (
        <Spinner size="large" />
      )}
    </section>
  );
}
