import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `donation` step. */
export const donation = stepModule({
  step: 'donation',
  chart: {
    name: 'donation',
    load: async () => (await import('./stepActors')).appDonationMachine,
    definition: async () => (await import('../../../machines/donation/donation.machine')).donationMachine,
    file: 'machines/donation/donation.machine.ts',
    placement:
      'Invoked by the root on the `donation` step (systemId `donation`); its output (donated or skipped) completes the step.',
  },
  Screen: lazy(() => import('./DonationStep')),
});
