import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `marketing_preferences` step. */
export const marketingPreferences = stepModule({
  step: 'marketing_preferences',
  chart: {
    name: 'marketing',
    load: async (deps) => (await import('./marketingActors')).appMarketingMachine(deps.queryClient),
    definition: async () => (await import('../../../machines/marketing/marketing.machine')).marketingMachine,
    file: 'machines/marketing/marketing.machine.ts',
    placement:
      'Invoked by the root on the `marketing_preferences` step (systemId `marketing`); saving completes the step.',
  },
  Screen: lazy(() => import('./MarketingStep')),
});
