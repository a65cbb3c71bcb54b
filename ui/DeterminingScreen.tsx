import { Spinner } from './Spinner';
import { t } from '../i18n/runtime.ts';

/**
 * The first screen: the checkout is loading and the chart is choosing the step to show (drawn by
 * the server into the page too). After a failed load it offers 'Retry' instead of the spinner.
 */
export function DeterminingScreen({ onRetry }: { onRetry?: (() => void) | null }) {
  return (
    <section className="step step--centred" data-step="determining" aria-busy={!onRetry}>
      <h1 className="step__title">{t('ui.determining')}</h1>
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry}>
          {t('ui.retry')}
        </button>
      ) : (
        <Spinner size="large" />
      )}
    </section>
  );
}
