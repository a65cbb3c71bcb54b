import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `waiver` step. */
export const waiver = stepModule({
  step: 'waiver',
  chart: {
    name: 'waiver',
    load: async () => (await import('./waiverActors')).appWaiverMachine(),
    definition: async () => (await import('../../../machines/waiver/waiver.machine')).waiverMachine,
    file: 'machines/waiver/waiver.machine.ts',
    placement:
      "Invoked by the root on the `waiver` step (systemId `waiver`): the waiver link's copy button (the notification 'Link copied' goes to the root's notices) and share button. The root's Continue follows `nextStep`.",
  },
  Screen: lazy(() => import('./WaiverStep')),
});
