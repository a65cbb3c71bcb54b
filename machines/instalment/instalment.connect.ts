/** What the screen shows while a plan is being set up. */
import type { SnapshotFrom } from 'xstate';
import type { instalmentMachine } from './instalment.machine';

export interface InstalmentView {
  /** The new card is being saved by the processor. */
  savingCard: boolean;
  /** pay_with_instalment is in flight. */
  paying: boolean;
  /** The browser is on its way to the url the server named. */
  redirecting: boolean;
}

export function viewInstalment(snapshot: SnapshotFrom<typeof instalmentMachine>): InstalmentView {
  return { savingCard: snapshot.hasTag('savingCard'), paying: snapshot.hasTag('paying'), redirecting: snapshot.hasTag('redirecting') };
}
