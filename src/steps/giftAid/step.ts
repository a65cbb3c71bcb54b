import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `gift_aid` step. */
export const giftAid = stepModule({
  step: 'gift_aid',
  chart: {
    name: 'giftAid',
    load: async () => (await import('../donation/stepActors')).appGiftAidMachine,
    definition: async () => (await import('../../../machines/donation/giftAid.machine')).giftAidMachine,
    file: 'machines/donation/giftAid.machine.ts',
    placement: 'Invoked by the root on the `gift_aid` step (systemId `giftAid`); finishing it completes the step.',
  },
  Screen: lazy(() => import('./GiftAidStep')),
});
