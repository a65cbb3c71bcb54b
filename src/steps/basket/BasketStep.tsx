import { useSelector } from '@xstate/react';
import { basketRules, viewBasket } from '../../../machines/basket/basket.connect';
import type { BasketEvent } from '../../../machines/checkout/checkout.types';
import type { Checkout } from '../../api/contract';
import { useCheckoutActor, useCheckoutData, useCheckoutView, useUser } from '../../app/checkoutContext';
import { Alert } from '../../components/Alert';
import { LoadingButton } from '../../components/LoadingButton';
import { OrderSummary } from '../../components/OrderSummary';
import { Spinner } from '../../components/Spinner';
import { plural } from '../../format/plural';
import { BasketWarnings } from './BasketWarnings';
import { CodePanel } from './CodePanel';
import { ContinueShopping } from './ContinueShopping';
import { EmptyBasket } from './EmptyBasket';
import { GiftVoucherLineItem } from './GiftVoucherLineItem';
import { offersRefundProtection, RefundProtectionChoice } from './RefundProtectionChoice';
import { TicketLineItem } from './TicketLineItem';

type BasketSnapshot = Parameters<typeof viewBasket>[0];

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
  const basket = viewBasket(basketSnapshot);
  const sendBasket = (event: BasketEvent) => view.basketRef?.send(event);

  return (
    <section className="step" data-step="basket" aria-labelledby="step-title">
      <h1 id="step-title" className="step__title">
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
  basket: ReturnType<typeof viewBasket>;
  isSignedIn: boolean;
  expiredMessage: string | null;
  reserving: boolean;
  sendBasket: (event: BasketEvent) => void;
  onReserve: () => void;
}) {
  const rules = basketRules(checkout, basket, isSignedIn);
  const currencyCode = checkout.currency.code;
  const updating = basket.isUpdating;
  return (
    <div className="basket">
      <div className="basket__warnings">
        <BasketWarnings checkout={checkout} expiredMessage={expiredMessage} timeslotWarnings={rules.timeslotWarnings} />
      </div>

      <div className="basket__lines">
        <ul className="card lines" aria-label="Items in your basket" aria-busy={updating}>
          {checkout.gift_vouchers.map((v) => (
            <GiftVoucherLineItem
              key={`${v.id}-${v.value}`}
              line={v}
              currencyCode={currencyCode}
              updating={updating}
              onQuantity={(qty) =>
                sendBasket({ type: 'GIFT_VOUCHER_QUANTITY_CHANGED', giftVoucherId: v.id, qty, value: v.value })
              }
              onRemove={() => sendBasket({ type: 'GIFT_VOUCHER_REMOVED', giftVoucherId: v.id, value: v.value })}
            />
          ))}
          {checkout.tickets.map((t) => (
            <TicketLineItem
              key={t.ticket_id}
              line={t}
              currencyCode={currencyCode}
              qty={basket.pendingQty[t.ticket_id] ?? t.qty}
              warning={basket.lineWarnings[t.ticket_id]}
              updating={updating}
              onQuantity={(qty) =>
                sendBasket({
                  type: 'QUANTITY_CHANGED',
                  ticketId: t.ticket_id,
                  qty,
                  maxCanReserve: t.max_can_reserve,
                  minPerCustomer: t.min_per_customer,
                })
              }
              onRemove={() => sendBasket({ type: 'TICKET_REMOVED', ticketId: t.ticket_id })}
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
            onChoose={(refundProtection) => sendBasket({ type: 'REFUND_PROTECTION_CHOSEN', refundProtection })}
          />
        ) : null}

        <CodePanel
          result={basket.codeResult}
          hasDiscounts={Object.keys(checkout.discounts_applied).length > 0}
          busy={updating}
          onSubmit={(code) => sendBasket({ type: 'CODE_SUBMITTED', code })}
        />
      </div>

      <aside className="basket__summary">
        <div className="card sticky">
          <OrderSummary checkout={checkout} />
          <LoadingButton
            loading={reserving}
            disabled={!rules.canReserve}
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
      </aside>

      <div className="basket__more">
        <ContinueShopping organisers={checkout.organisers} />
      </div>
    </div>
  );
}
