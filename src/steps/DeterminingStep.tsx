import { DeterminingScreen } from '../../ui/DeterminingScreen';
import { useCheckoutActor, useCheckoutView } from '../app/checkoutContext';

/** The first screen: the checkout is loading and the machine is choosing the step to show. */
export function DeterminingStep() {
  const actor = useCheckoutActor();
  const view = useCheckoutView();
  return <DeterminingScreen onRetry={view.determiningFailed ? () => actor.send({ type: 'RETRY_CLICKED' }) : null} />;
}
