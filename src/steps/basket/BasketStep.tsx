import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef } from 'react';
import { basketRules, connectBasket, type BasketConnection } from '../../../machines/basket/basket.connect';
import type { BasketEvent } from '../../../machines/checkout/checkout.types';
import type { Checkout } from '../../../contract';
import { useCheckoutActor, useCheckoutData, useCheckoutView, useUser } from '../../app/checkoutContext';
import { Alert } from '../../components/Alert';
import { LoadingButton } from '../../components/LoadingButton';
import { OrderSummary } from '../../components/OrderSummary';
import { Spinner } from '../../components/Spinner';
import { formatMoney } from '../../../contract/money';
import { orderSummary } from '../../app/summary';
import { plural } from '../../format/plural';
import { useHeadingFocus } from '../useHeadingFocus';
import { BasketWarnings } from './BasketWarnings';
import { CodePanel } from './CodePanel';
import { ContinueShopping } from './ContinueShopping';
import { EmptyBasket } from './EmptyBasket';
import { GiftVoucherLineItem } from './GiftVoucherLineItem';
import { offersRefundProtection, RefundProtectionChoice } from './RefundProtectionChoice';
import { reserveBlockedReason } from './reserveBlocked';
import { TicketLineItem } from './TicketLineItem';

type BasketSnapshot = Parameters<typeof connectBasket>[0];

function isEmpty(c: Checkout): boolean {
  return c.tickets.length === 0 && c.gift_vouchers.length === 0;
}

/** The basket step: review the lines, apply codes, choose refund protection, reserve. */
export function BasketStep() {
  const actor = useCheckoutActor();
  const view = useCheckoutView();
  const checkout = useCheckoutData();
  const user = useUser();
  const basketSnapshot = useSelector(view.basketRef, (s) => s as BasketSnapshot);
  const sendBasket = (event: BasketEvent) => view.basketRef?.send(event);
  const basket = connectBasket(basketSnapshot, sendBasket);
  const headingRef = useHeadingFocus();
  const empty = checkout !== null && checkout !== undefined && isEmpty(checkout);

  // Removing the last line leaves the empty basket: focus goes to the heading, not the page body.
  const wasFilled = useRef(false);
  useEffect(() => {
    if (empty && wasFilled.current && document.activeElement === document.body) headingRef.current?.focus();
    wasFilled.current = checkout !== null && checkout !== undefined && !empty;
  }, [empty, checkout, headingRef]);

  return (
    <section className="step" data-step="basket" aria-labelledby="step-title">
      <h1 id="step-title" className="step__title" tabIndex={-1} ref={headingRef}>
        Basket
      </h1>
      {!checkout ? (
        <Spinner size="large" />
      ) : isEmpty(checkout) ? (
        <>
          <BasketWarnings checkout={checkout} expiredMessage={view.expiredMessage} timeslotWarnings={[]} />
          <EmptyBasket showMailingList={!user || !user.subscribed} />
        </>
      ) : (
        <FilledBasket
          checkout={checkout}
          basket={basket}
          isSignedIn={user !== null}
          expiredMessage={view.expiredMessage}
          reserving={view.isReserving}
          sendBasket={sendBasket}
          onReserve={() => actor.send({ type: 'RESERVE_CLICKED' })}
        />
      )}
    </section>
  );
}

function FilledBasket({
  checkout,
  basket,
  isSignedIn,
  expiredMessage,
  reserving,
  sendBasket,
  onReserve,
}: {
  checkout: Checkout;
  basket: BasketConnection;
  isSignedIn: boolean;
  expiredMessage: string | null;
  reserving: boolean;
  sendBasket: (event: BasketEvent) => void;
  onReserve: () => void;
}) {
  const rules = basketRules(checkout, basket, isSignedIn);
  const currencyCode = checkout.currency.code;
  const updating = basket.isUpdating;
  const reasonId = useId();
  const reason = reserveBlockedReason({
    canReserve: rules.canReserve,
    missingRequired: rules.requiredMessage !== null,
    belowMinimum: rules.belowMinimum,
    saving: basket.hasUnsavedChanges || updating,
  });
  const total = formatMoney(orderSummary(checkout).total, currencyCode);

  // After a removal, focus moves to the line that took its place (or the one before it, when it
  // was the last), so keyboard users carry on where they were; a removal that failed keeps it.
  const listRef = useRef<HTMLUListElement>(null);
  const removal = useRef<{ key: string; index: number } | null>(null);
  const lineKeys = [
    ...checkout.gift_vouchers.map((v) => `v${v.id}-${v.value}`),
    ...checkout.tickets.map((t) => `t${t.ticket_id}`),
  ];
  const keysText = lineKeys.join(' ');
  useEffect(() => {
    const pending = removal.current;
    if (!pending || updating) return;
    removal.current = null;
    const keys = keysText.split(' ');
    const lines = listRef.current?.querySelectorAll<HTMLElement>(':scope > li') ?? [];
    if (keys.includes(pending.key)) {
      lines[keys.indexOf(pending.key)]?.querySelector<HTMLElement>('.line__remove')?.focus();
    } else if (lines.length > 0) {
      lines[Math.min(pending.index, lines.length - 1)]?.focus();
    }
  }, [keysText, updating]);
  const removeLine = (key: string, event: BasketEvent) => {
    removal.current = { key, index: lineKeys.indexOf(key) };
    sendBasket(event);
  };

  return (
    <div className="basket">
      <div className="basket__warnings">
        <BasketWarnings checkout={checkout} expiredMessage={expiredMessage} timeslotWarnings={rules.timeslotWarnings} />
      </div>

      <div className="basket__lines">
        <ul className="card lines" aria-label="Items in your basket" aria-busy={updating} ref={listRef}>
          {checkout.gift_vouchers.map((v) => (
            <GiftVoucherLineItem
              key={`${v.id}-${v.value}`}
              line={v}
              currencyCode={currencyCode}
              updating={updating}
              onQuantity={(qty) => basket.changeVoucherQuantity(v, qty)}
              onRemove={() =>
                removeLine(`v${v.id}-${v.value}`, { type: 'GIFT_VOUCHER_REMOVED', giftVoucherId: v.id, value: v.value })
              }
            />
          ))}
          {checkout.tickets.map((t) => (
            <TicketLineItem
              key={t.ticket_id}
              line={t}
              currencyCode={currencyCode}
              qty={basket.pendingQty[t.ticket_id] ?? t.qty}
              warning={rules.lineWarnings[t.ticket_id]}
              updating={updating}
              onQuantity={(qty) => basket.changeQuantity(t, qty)}
              onRemove={() => removeLine(`t${t.ticket_id}`, { type: 'TICKET_REMOVED', ticketId: t.ticket_id })}
            />
          ))}
        </ul>

        {rules.requiredMessage ? (
          <Alert type="warning">
            <p>{rules.requiredMessage}</p>
            <ul className="bullets">
              {rules.missingRequiredTitles.map((title) => (
                <li key={title}>{title}</li>
              ))}
            </ul>
            {rules.showLoginHint ? (
              <p>
                Already bought them? <a href="/signin/">Sign in</a> so we can find them.
              </p>
            ) : null}
          </Alert>
        ) : null}

        {offersRefundProtection(checkout) ? (
          <RefundProtectionChoice
            checkout={checkout}
            disabled={updating}
            chosen={basket.refundProtection}
            onChoose={basket.setRefundProtection}
          />
        ) : null}

        <CodePanel
          result={basket.codeResult}
          hasDiscounts={Object.keys(checkout.discounts_applied).length > 0}
          busy={updating}
          onSubmit={basket.applyCode}
        />
      </div>

      <aside className="basket__summary">
        <div className="card sticky">
          <OrderSummary checkout={checkout} />
          {/* On a phone this bar stays at the foot of the screen, with the total beside the button. */}
          <div className="reserve-bar">
            {reason ? (
              <p id={reasonId} className="reserve-bar__reason">
                {reason}
              </p>
            ) : null}
            <p className="reserve-bar__total" aria-hidden="true">
              <span>Total</span>
              <strong>{total}</strong>
            </p>
            <LoadingButton
              loading={reserving}
              disabled={!rules.canReserve}
              aria-describedby={reason ? reasonId : undefined}
              className="button--block button--large reserve-button"
              onClick={onReserve}
            >
              Reserve Basket
              <span className="badge">
                {rules.itemCount}
                <span className="visually-hidden"> {plural(rules.itemCount, 'item')}</span>
              </span>
            </LoadingButton>
          </div>
        </div>
      </aside>

      <div className="basket__more">
        <ContinueShopping organisers={checkout.organisers} />
      </div>
    </div>
  );
}
