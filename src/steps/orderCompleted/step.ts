import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `order_completed` step. */
export const orderCompleted = stepModule({
  step: 'order_completed',
  chart: {
    name: 'orderCompleted',
    load: async (deps) => (await import('./orderCompletedActors')).appOrderCompletedMachine(deps.queryClient),
    definition: async () =>
      (await import('../../../machines/orderCompleted/orderCompleted.machine')).orderCompletedMachine,
    file: 'machines/orderCompleted/orderCompleted.machine.ts',
    placement:
      'Invoked by the root on the `order_completed` step (systemId `orderCompleted`): the sub-views (transfer tickets invokes the `transfers` chart), the feedback and share dialogs, subscribing and the referral link. The root checkout stays on `order_completed` throughout.',
  },
  Screen: lazy(() => import('./OrderCompletedStep')),
});
