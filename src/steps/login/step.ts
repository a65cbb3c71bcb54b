import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `login` step. */
export const login = stepModule({
  step: 'login',
  chart: {
    name: 'account',
    load: async (deps) => (await import('./accountActors')).appAccountMachine(deps.queryClient),
    definition: async () => (await import('../../../machines/account/account.machine')).accountMachine,
    file: 'machines/account/account.machine.ts',
    placement:
      'Invoked by the root on the `login` step (systemId `account`); signed in, saved as a guest or confirmed completes the step, a `holdLost` outcome returns to the basket.',
  },
  Screen: lazy(() => import('./LoginStep')),
});
