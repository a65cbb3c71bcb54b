/**
 * What the countdown shows: the time left in clock form, the 'More time' offer and its outcome,
 * and the sentence a screen reader hears. The sentence changes only at whole minutes, when more
 * time is offered, given or refused, and at zero, so a polite live region speaks it once each
 * time rather than every second.
 */
import type { SnapshotFrom } from 'xstate';
import type { countdownMachine } from './countdown.machine';

type CountdownSnapshot = SnapshotFrom<typeof countdownMachine>;

export const TIME_UP_ANNOUNCEMENT = 'Your reservation time is up.';
export const LAST_MINUTE_ANNOUNCEMENT = 'Less than a minute left to complete your order.';
export const MORE_TIME_ANNOUNCEMENT = 'Your tickets are held for less than a minute. Choose More time to keep them longer.';
/** Shown and said while a started payment keeps the hold (up to the grace past its deadline). */
export const PAYMENT_IN_PROGRESS = 'Payment in progress: your tickets are held until the payment finishes.';

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
 * While the clock runs: at zero the hold has ended (TIME_UP_ANNOUNCEMENT) or, in the last moments,
 * more time is offered, so this never speaks of zero.
 */
function minutesLeft(seconds: number): string {
  if (seconds < 60) return LAST_MINUTE_ANNOUNCEMENT;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'} left to complete your order.`;
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
      ? TIME_UP_ANNOUNCEMENT
      : paymentInProgress
        ? PAYMENT_IN_PROGRESS
        : offeringMoreTime || snapshot.hasTag('extending')
        ? MORE_TIME_ANNOUNCEMENT
        : refusal ?? minutesLeft(secondsRemaining),
  };
}

/** The view plus what the screen may ask of the countdown (as zag's connect does). */
export function connectCountdown(snapshot: CountdownSnapshot | undefined, send: ((event: { type: 'MORE_TIME_CLICKED' }) => void) | undefined) {
  const view = viewCountdown(snapshot);
  return {
    ...view,
    moreTime() {
      if (view.offeringMoreTime) send?.({ type: 'MORE_TIME_CLICKED' });
    },
  };
}
