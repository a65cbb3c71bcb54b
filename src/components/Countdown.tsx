import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { AnyActorRef } from 'xstate';
import { connectCountdown } from '../../machines/countdown/countdown.connect';
import { formatClock } from '../format/clock';
import { formatDuration } from '../format/duration';
import { Icon } from '../../ui/Icon';
import { Spinner } from '../../ui/Spinner';
import { t } from '../../i18n/runtime.ts';

type CountdownSnapshot = Parameters<typeof connectCountdown>[0];

/**
 * The reservation countdown, in clock and word form, hidden unless the countdown runs. Near the
 * end it offers 'More time'; a screen reader hears the offer once through the polite live region,
 * whose sentence changes only a few times per hold (see countdown.connect.ts).
 */
export function Countdown({ countdownRef }: { countdownRef: AnyActorRef | undefined }) {
  const snapshot = useSelector(countdownRef, (s) => s as CountdownSnapshot);
  const countdown = connectCountdown(snapshot, countdownRef ? (event) => countdownRef.send(event) : undefined);
  const box = useRef<HTMLDivElement>(null);
  const buttonShown = countdown.offeringMoreTime || countdown.extending;
  const hadButton = useRef(false);
  useEffect(() => {
    // When the button goes (time added or refused), focus stays in the countdown, not on the page body.
    const active = document.activeElement;
    if (hadButton.current && !buttonShown && (active === null || active === document.body)) box.current?.focus();
    hadButton.current = buttonShown;
  }, [buttonShown]);
  if (countdown.paymentInProgress) {
    return (
      <div
        ref={box}
        tabIndex={-1}
        className="countdown countdown--paying"
        role="group"
        aria-label={t('countdown.paying')}
      >
        <Icon name="clock" className="countdown__icon" />
        <p className="countdown__paying" data-testid="countdown-paying" role="status">
          {countdown.announcement}
        </p>
      </div>
    );
  }
  if (!countdown.running && !countdown.expired) return null;
  const seconds = countdown.secondsRemaining;
  const urgent = seconds < 60;
  return (
    <div
      ref={box}
      tabIndex={-1}
      className={`countdown${urgent ? ' countdown--urgent' : ''}`}
      aria-label={t('countdown.timeLeft')}
      role="group"
    >
      <Icon name="clock" className="countdown__icon" />
      <div className="countdown__text" aria-hidden="true">
        <span className="countdown__label">{t('countdown.heldFor')}</span>
        <span className="countdown__clock" data-testid="countdown-clock">
          {formatClock(seconds)}
        </span>
        <span className="countdown__words" data-testid="countdown-words">
          {formatDuration(seconds)}
        </span>
      </div>
      {buttonShown ? (
        <div className="countdown__more">
          <button
            type="button"
            className="button button--secondary"
            aria-disabled={countdown.extending || undefined}
            aria-busy={countdown.extending || undefined}
            onClick={() => countdown.moreTime()}
          >
            {countdown.extending ? <Spinner size="small" /> : null}
            {t('countdown.moreTime')}
          </button>
        </div>
      ) : null}
      {countdown.refusal ? (
        <p className="countdown__refusal" data-testid="countdown-refusal">
          {countdown.refusal}
        </p>
      ) : null}
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {countdown.announcement}
      </p>
    </div>
  );
}
