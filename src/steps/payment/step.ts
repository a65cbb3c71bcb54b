import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `payment` step. */
export const payment = stepModule({
  step: 'payment',
  chart: {
    name: 'payment',
    load: async (deps) => (await import('./paymentActors')).appPaymentMachine(deps.queryClient, deps.navigate),
    definition: async () => (await import('../../../machines/payment/payment.machine')).paymentMachine,
    file: 'machines/payment/payment.machine.ts',
    placement:
      'Invoked by the root on the `payment` step (systemId `payment`); paid or free tickets claimed completes the step (the fresh checkout shows `payment_complete` and the root moves on to `deliver_tickets`), a `holdLost` outcome returns to the basket.',
  },
  Screen: lazy(() => import('./PaymentStep')),
});
