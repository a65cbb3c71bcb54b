import type { reservationMachine } from '../../../machines/reservation/reservation.machine';
import { useStepChild } from '../useStepChild';
import { useSelector } from '@xstate/react';
import { viewReservation } from '../../../machines/reservation/reservation.connect';
import { Alert } from '../../../ui/Alert';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { useCheckout } from '../../app/checkoutContext';
import { StepLayout } from '../StepLayout';

type ReservationSnapshot = Parameters<typeof viewReservation>[0];

/** The reserve step: the server is claiming the tickets; in-app browsers are warned off first. */
export default function ReserveStep() {
  const view = useCheckout();
  const reservationSnapshot = useSelector(useStepChild<typeof reservationMachine>('reservation'), (s) => s as ReservationSnapshot);
  const reservation = viewReservation(reservationSnapshot);
  return (
    <StepLayout step="reserve" title="Checkout">
      {reservation.incompatibleBrowser ? (
        <div className="card stack">
          <Alert type="error">You are using an incompatible browser.</Alert>
          <button type="button" className="button" onClick={view.copyLink}>
            <Icon name="copy" />
            Copy link
          </button>
          <p className="copy-status" aria-live="polite">
            {reservation.linkCopied ? 'Link copied' : ''}
          </p>
          <button
            type="button"
            className="link-button"
            aria-expanded={reservation.whyOpen}
            aria-controls="why-incompatible"
            onClick={view.toggleWhy}
          >
            Why am I seeing this?
          </button>
          {reservation.whyOpen ? (
            <p id="why-incompatible" className="muted">
              Apps such as Facebook, Instagram and TikTok open links in their own built-in browser. Those browsers can
              block the security checks your card issuer runs when you pay, and your reservation can be lost. Copy
              the link and open this page in your phone&rsquo;s own browser, such as Safari or Chrome.
            </p>
          ) : null}
        </div>
      ) : (
        <div className="card reserving" aria-busy="true">
          <Spinner size="large" />
          <p className="reserving__text" role="status">
            Reserving tickets
          </p>
        </div>
      )}
    </StepLayout>
  );
}
