import { Spinner } from '../../components/Spinner';
import { useCheckout } from '../../app/checkoutContext';

/** The first screen: the checkout is loading and the machine is choosing the step to show. */
export function DeterminingStep() {
  const view = useCheckout();
  const failed = view.determiningFailed;
  return (
    <section className="step step--centred" data-step="determining" aria-busy={!failed}>
      <h1 className="step__title">Determining checkout progress</h1>
      {failed ? (
        <button type="button" className="button" onClick={view.retry}>
          Retry
        </button>
      ) : (
        <Spinner size="large" />
      )}
    </section>
  );
}
