import type { reservationMachine } from '../../../machines/reservation/reservation.machine';
import { useStepChild } from '../useStepChild';
import { useSelector } from '@xstate/react';
import { viewReservation } from '../../../machines/reservation/reservation.connect';
import { Alert } from '../../../ui/Alert';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { useCheckout } from '../../app/checkoutContext';
import { StepLayout } from '../StepLayout';
import { t } from '../../../i18n/runtime.ts';

type ReservationSnapshot = Parameters<typeof viewReservation>[0];

/** The reserve step: the server is claiming the tickets; in-app browsers are warned off first. */
export default function ReserveStep() {
  const view = useCheckout();
  const reservationSnapshot = useSelector(
    useStepChild<typeof reservationMachine>('reservation'),
    (s) => s as ReservationSnapshot,
  );
  const reservation = viewReservation(reservationSnapshot);
  return (
    <StepLayout step="reserve">
      {reservation.incompatibleBrowser ? (
        <div className="card stack">
          <Alert type="error">{t('reserve.incompatibleBrowser')}</Alert>
          <button type="button" className="button" onClick={view.copyLink}>
            <Icon name="copy" />
            {t('reserve.copyLink')}
          </button>
          <p className="copy-status" aria-live="polite">
            {reservation.linkCopied ? t('reserve.linkCopied') : ''}
          </p>
          <button
            type="button"
            className="link-button"
            aria-expanded={reservation.whyOpen}
            aria-controls="why-incompatible"
            onClick={view.toggleWhy}
          >
            {t('reserve.why')}
          </button>
          {reservation.whyOpen ? (
            <p id="why-incompatible" className="muted">
              {t('reserve.whyText')}
            </p>
          ) : null}
        </div>
      ) : (
        <div className="card reserving" aria-busy="true">
          <Spinner size="large" />
          <p className="reserving__text" role="status">
            {t('reserve.reserving')}
          </p>
        </div>
      )}
    </StepLayout>
  );
}
