import type { SnapshotFrom } from 'xstate';
import type { reservationMachine } from './reservation.machine';

export interface ReservationView {
  incompatibleBrowser: boolean;
  linkCopied: boolean;
  whyOpen: boolean;
}

export function viewReservation(snapshot: SnapshotFrom<typeof reservationMachine> | undefined): ReservationView {
  if (!snapshot) return { incompatibleBrowser: false, linkCopied: false, whyOpen: false };
  return {
    incompatibleBrowser: snapshot.matches('incompatibleBrowser'),
    linkCopied: snapshot.matches({ incompatibleBrowser: 'linkCopied' }),
    whyOpen: snapshot.context.whyOpen,
  };
}
