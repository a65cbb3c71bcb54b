import { DeterminingScreen } from '../../../ui/DeterminingScreen';
import { useCheckout } from '../../app/checkoutContext';

/** The first screen: the checkout is loading and the machine is choosing the step to show. */
export function DeterminingStep() {
  const view = useCheckout();
  return <DeterminingScreen onRetry={view.determiningFailed ? view.retry : null} />;
}
