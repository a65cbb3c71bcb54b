import { lazy, Suspense, useState } from 'react';
import type { TicketLine } from '../../contract';
import { Alert } from '../Alert';
import { formatMoney } from '../../contract/money';
import { LineActions } from './LineActions';
import { Thumbnail } from './Thumbnail';
import { nonRefundableNote } from '../notes';
import { Tooltip } from '../Tooltip';
import { t } from '../../i18n/runtime.ts';

/** The policy's dialog loads the first time a buyer opens one; the basket paints without it. */
const Modal = lazy(() => import('../Modal').then((m) => ({ default: m.Modal })));

function seatText(seat: TicketLine['seats'][number]): string {
  return t('basket.seat', { section: seat.section, row: seat.row, number: seat.number });
}

/** One ticket type in the basket, with its quantity, removal and refund policy. */
export function TicketLineItem({
  line,
  currencyCode,
  qty,
  warning,
  updating,
  onQuantity,
  onRemove,
}: {
  line: TicketLine;
  currencyCode: string;
  /** The quantity the buyer chose, which may still be waiting to be sent. */
  qty: number;
  warning: string | undefined;
  updating: boolean;
  onQuantity: (qty: number) => void;
  onRemove: () => void;
}) {
  const [policyOpen, setPolicyOpen] = useState(false);
  // Once opened, the dialog stays mounted, so closing it hands focus back to the button.
  const [policyOpened, setPolicyOpened] = useState(false);
  const money = (minor: number) => formatMoney(minor, currencyCode);
  return (
    <li className="line" tabIndex={-1}>
      <Thumbnail src={line.thumbnail} fallback="ticket" />
      <div className="line__main">
        <a className="line__event" href={line.event_url}>
          {line.event_name}
        </a>
        <p className="line__name">{line.ticket_name}</p>
        <p className="line__meta">{line.nice_date}</p>
        {line.seats.length > 0 ? (
          <ul className="line__seats">
            {line.seats.map((s) => (
              <li key={`${s.section}|${s.row}|${s.number}`}>{seatText(s)}</li>
            ))}
          </ul>
        ) : null}
        <p className="line__price">
          {/* An absorbed fee is part of what the buyer pays: the line price is the organiser's share. */}
          <strong>{money(line.absorb_fee ? line.price + line.booking_fee : line.price)}</strong>
          {line.event_hide_booking_fee || line.booking_fee === 0 ? null : line.absorb_fee ? (
            <span className="line__fee"> {t('basket.feeIncluded', { fee: money(line.booking_fee) })}</span>
          ) : (
            <span className="line__fee"> {t('basket.feeAdded', { fee: money(line.booking_fee) })}</span>
          )}
        </p>
        <div className="line__tags">
          {line.non_refundable ? (
            <span className="line__tag-with-note">
              <span className="tag tag--warning">{t('basket.nonRefundable')}</span>
              <Tooltip label={t('basket.aboutNonRefundable')}>{nonRefundableNote()}</Tooltip>
            </span>
          ) : null}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setPolicyOpened(true);
              setPolicyOpen(true);
            }}
          >
            {t('basket.refundPolicy')}
          </button>
        </div>
      </div>
      <LineActions
        name={line.ticket_name}
        qty={qty}
        readOnly={!line.can_update_quantity}
        updating={updating}
        onQuantity={onQuantity}
        onRemove={onRemove}
      />
      {warning ? (
        <div className="line__warning">
          <Alert type="warning">{warning}</Alert>
        </div>
      ) : null}
      {policyOpened ? (
        <Suspense fallback={null}>
          <Modal open={policyOpen} title={line.refund_policy.title} onClose={() => setPolicyOpen(false)} wide>
            {line.refund_policy.description ? <p className="lead">{line.refund_policy.description}</p> : null}
            <p className="prewrap">{line.refund_policy.text}</p>
          </Modal>
        </Suspense>
      ) : null}
    </li>
  );
}
