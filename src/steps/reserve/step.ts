import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `reserve` step. */
export const reserve = stepModule({
  step: 'reserve',
  chart: {
    name: 'reservation',
    load: async (deps) => (await import('./reservationActors')).appReservationMachine(deps.queryClient, deps.userAgent),
    definition: async () => (await import('../../../machines/reservation/reservation.machine')).reservationMachine,
    file: 'machines/reservation/reservation.machine.ts',
    placement:
      'Invoked by the root on the `reserve` step and from `captcha.reserving` (systemId `reservation`); its output is the outcome the root acts on.',
  },
  Screen: lazy(() => import('./ReserveStep')),
});
