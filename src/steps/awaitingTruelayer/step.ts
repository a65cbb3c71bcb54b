import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `awaiting_truelayer` step. */
export const awaitingTruelayer = stepModule({
  step: 'awaiting_truelayer',
  chart: {
    name: 'bankTransfer',
    load: async (deps) => (await import('./bankTransferActors')).appBankTransferMachine(deps.queryClient),
    definition: async () => (await import('../../../machines/bankTransfer/bankTransfer.machine')).bankTransferMachine,
    file: 'machines/bankTransfer/bankTransfer.machine.ts',
    placement:
      'Invoked by the root on the `awaiting_truelayer` step (systemId `bankTransfer`), where the bank returns the buyer; paid completes the step (on to `deliver_tickets`), `changeMethod` returns to `payment`, a `holdLost` outcome (an error with no time left) returns to the basket. The poll interval is the server’s (`poll_interval_ms`, 1.5 s unless `TRUELAYER_POLL_INTERVAL_MS` says otherwise).',
  },
  Screen: lazy(() => import('./BankTransferStep')),
});
