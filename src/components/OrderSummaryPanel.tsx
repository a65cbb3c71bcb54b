import { useState } from 'react';
import type { AnyActorRef } from 'xstate';
import type { Checkout } from '../../contract';
import { formatMoney } from '../../contract/money';
import { Countdown } from './Countdown';
import { Icon } from '../../ui/Icon';
import { Modal } from '../../ui/Modal';
import { OrderSummary } from '../../ui/OrderSummary';
import { t } from '../../i18n/runtime.ts';

/** The basket's lines in brief: what the buyer is paying for on the steps after the basket. */
function BasketLines({ checkout }: { checkout: Checkout }) {
  const money = (minor: number) => formatMoney(minor, checkout.currency.code);
  return (
    <ul className="panel-lines">
      {checkout.tickets.map((t) => (
        <li key={`t${t.ticket_id}`} className="panel-lines__item">
          <span className="panel-lines__qty">{t.qty}×</span>
          <span className="panel-lines__name">
            <strong>{t.event_name}</strong>
            <span>
              {t.ticket_name} · {t.nice_date}
            </span>
          </span>
          <span className="panel-lines__price">{money(t.price * t.qty)}</span>
        </li>
      ))}
      {checkout.gift_vouchers.map((v) => (
        <li key={`v${v.id}-${v.value}`} className="panel-lines__item">
          <span className="panel-lines__qty">{v.qty}×</span>
          <span className="panel-lines__name">
            <strong>{v.name}</strong>
            <span>{v.o_name}</span>
          </span>
          <span className="panel-lines__price">{money(v.value * v.qty)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The order summary as later steps show it: the countdown, the basket collapsed behind a toggle
 * on phones (below 768 px; CSS keeps it open on wider screens) and, when the basket may still
 * change, 'Edit basket' behind an 'Are you sure?' confirmation.
 */
export function OrderSummaryPanel({
  checkout,
  countdownRef,
  onEditBasket,
}: {
  checkout: Checkout;
  countdownRef?: AnyActorRef | undefined;
  /** Omit to hide 'Edit basket'. */
  onEditBasket?: (() => void) | undefined;
}) {
  const [expanded, setExpanded] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return (
    <aside className="panel">
      <Countdown countdownRef={countdownRef} />
      <button
        type="button"
        className="panel__toggle"
        aria-expanded={expanded}
        aria-controls="order-summary-panel"
        onClick={() => setExpanded((e) => !e)}
      >
        <Icon name="basket" />
        <span>{expanded ? t('panel.hideSummary') : t('panel.showSummary')}</span>
        <strong className="panel__toggle-total">{formatMoney(checkout.basket_total, checkout.currency.code)}</strong>
        <Icon name="chevron" className="panel__chevron" />
      </button>
      <div id="order-summary-panel" className={`panel__body${expanded ? ' panel__body--open' : ''}`}>
        <BasketLines checkout={checkout} />
        <OrderSummary checkout={checkout} />
        {onEditBasket ? (
          <button type="button" className="link-button panel__edit" onClick={() => setConfirming(true)}>
            {t('panel.editBasket')}
          </button>
        ) : null}
      </div>
      {onEditBasket ? (
        <Modal
          open={confirming}
          title={t('panel.areYouSure')}
          onClose={() => setConfirming(false)}
          buttons={
            <>
              <button type="button" className="button button--secondary" onClick={() => setConfirming(false)}>
                {t('panel.keepReservation')}
              </button>
              <button
                type="button"
                className="button"
                onClick={() => {
                  setConfirming(false);
                  onEditBasket();
                }}
              >
                {t('panel.changeBasket')}
              </button>
            </>
          }
        >
          <p>{t('panel.releases')}</p>
        </Modal>
      ) : null}
    </aside>
  );
}
