import type { SnapshotFrom } from 'xstate';
import type { countdownMachine } from './countdown.machine';

export interface CountdownView {
  running: boolean;
  expired: boolean;
  /** Whole seconds left, rounded up so the clock shows 0 only when the hold has ended. */
  secondsRemaining: number;
}

export function viewCountdown(snapshot: SnapshotFrom<typeof countdownMachine> | undefined): CountdownView {
  if (!snapshot) return { running: false, expired: false, secondsRemaining: 0 };
  return {
    running: snapshot.matches('running'),
    expired: snapshot.matches('expired'),
    secondsRemaining: Math.max(0, Math.ceil(snapshot.context.remainingMs / 1000)),
  };
}
