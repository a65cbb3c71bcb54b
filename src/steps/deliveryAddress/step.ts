import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `delivery_address` step. */
export const deliveryAddress = stepModule({
  step: 'delivery_address',
  title: 'Delivery address',
  chart: {
    name: 'address',
    load: async (deps) => (await import('./deliveryAddressActors')).appDeliveryAddressMachine(deps.queryClient),
    definition: async () => (await import('../../../machines/address/address.machine')).addressMachine,
    file: 'machines/address/address.machine.ts',
    placement:
      'Invoked by the root on the `delivery_address` step (systemId `address`); the address sent with set_delivery_address completes the step. The payment step reuses it for the billing address (input `purpose: billing`).',
  },
  Screen: lazy(() => import('./DeliveryAddressStep')),
});
