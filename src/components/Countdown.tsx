import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import { viewCountdown } from '../../machines/countdown/countdown.connect';
import { formatClock } from '../format/clock';
import { formatDuration } from '../format/duration';
import { plural } from '../format/plural';
import { Icon } from './Icon';

type CountdownSnapshot = Parameters<typeof viewCountdown>[0];

/**
 * What a screen reader hears: whole minutes only, so the live region speaks once a minute
 * instead of every second; the last minute is announced once, and again at zero.
 */
function announcement(seconds: number): string {
  if (seconds <= 0) return 'Your reservation time is up.';
  if (seconds < 60) return 'Less than a minute left to complete your order.';
  const minutes = Math.floor(seconds / 60);
  return `${minutes} ${plural(minutes, 'minute')} left to complete your order.`;
}

/** The reservation countdown, in clock and word form; hidden unless the countdown runs. */
export function Countdown({ countdownRef }: { countdownRef: AnyActorRef | undefined }) {
  const snapshot = useSelector(countdownRef, (s) => s as CountdownSnapshot);
  const view = viewCountdown(snapshot);
  if (!view.running && !view.expired) return null;
  const seconds = Math.max(0, view.secondsRemaining ?? 0);
  const urgent = seconds < 60;
  return (
    <div className={`countdown${urgent ? ' countdown--urgent' : ''}`}>
      <Icon name="clock" className="countdown__icon" />
      <div className="countdown__text" aria-hidden="true">
        <span className="countdown__label">Tickets held for</span>
        <span className="countdown__clock" data-testid="countdown-clock">{formatClock(seconds)}</span>
        <span className="countdown__words" data-testid="countdown-words">{formatDuration(seconds)}</span>
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement(seconds)}
      </p>
    </div>
  );
}
