import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `delivery_address` step. */
export const deliveryAddress = stepModule({
  step: 'delivery_address',
  chart: {
    name: 'address',
    load: async (deps) => (await import('./deliveryAddressActors')).appDeliveryAddressMachine(deps.queryClient),
    definition: async () => (await import('../../../machines/address/address.machine')).addressMachine,
    file: 'machines/address/address.machine.ts',
    placement:
      'Invoked by the root on the `delivery_address` step (systemId `address`); the address sent with set_delivery_address completes the step. The payment chart invokes it too, as its child `billingAddress` in `ready.billing` (input `purpose: billing` and the address the buyer gave before): Pay asks it, and a valid billing address goes back to the payment chart (`ADDRESS_GIVEN`), which sends it with set_billing_address.',
  },
  Screen: lazy(() => import('./DeliveryAddressStep')),
});
