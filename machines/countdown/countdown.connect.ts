/**
 * What the countdown shows: the time left in clock form, the 'More time' offer and its outcome,
 * and the sentence a screen reader hears. The sentence changes only at whole minutes, when more
 * time is offered, given or refused, and at zero, so a polite live region speaks it once each
 * time rather than every second.
 */
import type { SnapshotFrom } from 'xstate';
import type { countdownMachine } from './countdown.machine';
import { COUNTDOWN_MESSAGES, minutesLeftMessage } from '../../contract/messages/countdown';

type CountdownSnapshot = SnapshotFrom<typeof countdownMachine>;

export interface CountdownView {
  running: boolean;
  expired: boolean;
  /** A payment has started: the tickets are held until it finishes, instead of the clock running out. */
  paymentInProgress: boolean;
  /** Whole seconds left, rounded up so the clock shows 0 only when the hold has ended. */
  secondsRemaining: number;
  /** 'More time' is offered: the button is shown. */
  offeringMoreTime: boolean;
  /** The call for more time is with the server. */
  extending: boolean;
  /** Why no more time was given, shown beside the clock. */
  refusal: string | null;
  /** What the polite live region says. */
  announcement: string;
}

/**
 * While the clock runs: at zero the hold has ended (COUNTDOWN_MESSAGES.timeUp) or, in the last moments,
 * more time is offered, so this never speaks of zero.
 */
function minutesLeft(seconds: number): string {
  if (seconds < 60) return COUNTDOWN_MESSAGES.lastMinute;
  return minutesLeftMessage(Math.floor(seconds / 60));
}

export function viewCountdown(snapshot: CountdownSnapshot | undefined): CountdownView {
  if (!snapshot) {
    return {
      running: false,
      expired: false,
      paymentInProgress: false,
      secondsRemaining: 0,
      offeringMoreTime: false,
      extending: false,
      refusal: null,
      announcement: '',
    };
  }
  const secondsRemaining = Math.max(0, Math.ceil(snapshot.context.remainingMs / 1000));
  const offeringMoreTime = snapshot.hasTag('offering');
  const refused = snapshot.hasTag('refused');
  const expired = snapshot.matches('expired');
  const refusal = refused ? snapshot.context.refusal : null;
  const paymentInProgress = snapshot.hasTag('paying');
  return {
    running: snapshot.matches('running'),
    expired,
    paymentInProgress,
    secondsRemaining,
    offeringMoreTime,
    extending: snapshot.hasTag('extending'),
    refusal,
    announcement: expired
      ? COUNTDOWN_MESSAGES.timeUp
      : paymentInProgress
        ? COUNTDOWN_MESSAGES.paymentInProgress
        : offeringMoreTime || snapshot.hasTag('extending')
          ? COUNTDOWN_MESSAGES.moreTimeOffer
          : (refusal ?? minutesLeft(secondsRemaining)),
  };
}

/** The view plus what the screen may ask of the countdown (as zag's connect does). */
export function connectCountdown(
  snapshot: CountdownSnapshot | undefined,
  send: ((event: { type: 'MORE_TIME_CLICKED' }) => void) | undefined,
) {
  const view = viewCountdown(snapshot);
  return {
    ...view,
    moreTime() {
      if (view.offeringMoreTime) send?.({ type: 'MORE_TIME_CLICKED' });
    },
  };
}
