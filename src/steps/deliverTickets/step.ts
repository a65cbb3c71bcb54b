import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `deliver_tickets` step. */
export const deliverTickets = stepModule({
  step: 'deliver_tickets',
  chart: {
    name: 'delivery',
    load: async (deps) => (await import('./deliveryActors')).appDeliveryMachine(deps.queryClient),
    definition: async () => (await import('../../../machines/delivery/delivery.machine')).deliveryMachine,
    file: 'machines/delivery/delivery.machine.ts',
    placement:
      'Invoked by the root on the `deliver_tickets` step (systemId `delivery`); finishing it completes the step, and the root follows `nextStep`.',
  },
  Screen: lazy(() => import('./DeliveryStep')),
});
