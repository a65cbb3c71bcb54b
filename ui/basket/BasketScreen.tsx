/**
 * The basket screen drawn from its data alone: the checkout, the buyer, the basket chart's view and
 * what the buttons send. The app draws it from the machines (BasketStep); the server draws the same
 * markup into the page, so a filled basket is on screen before any script has run.
 */
import { useEffect, useId, useRef, type Ref } from 'react';
import type { Checkout, GiftVoucherLine, TicketLine, User } from '../../contract';
import { basketRules, type BasketView } from '../../contract/basketRules.ts';
import { Alert } from '../Alert';
import { LoadingButton } from '../LoadingButton';
import { OrderSummary } from '../OrderSummary';
import { Spinner } from '../Spinner';
import { formatMoney } from '../../contract/money';
import { orderSummary } from '../summary';
import { BasketWarnings } from './BasketWarnings';
import { CodePanel } from './CodePanel';
import { ContinueShopping } from './ContinueShopping';
import { EmptyBasket } from './EmptyBasket';
import { GiftVoucherLineItem } from './GiftVoucherLineItem';
import { offersRefundProtection, RefundProtectionChoice } from './RefundProtectionChoice';
import { reserveBlockedReason } from './reserveBlocked';
import { TicketLineItem } from './TicketLineItem';
import { t } from '../../i18n/runtime.ts';
import { rich } from '../rich';

export function isEmptyBasket(c: Checkout): boolean {
  return c.tickets.length === 0 && c.gift_vouchers.length === 0;
}

/** What the screen asks of the basket chart (the app's are machines/basket/basket.connect.ts's senders). */
export interface BasketSenders {
  changeQuantity(line: TicketLine, qty: number): void;
  changeVoucherQuantity(line: GiftVoucherLine, qty: number): void;
  remove(line: TicketLine): void;
  removeVoucher(line: GiftVoucherLine): void;
  setRefundProtection(yes: boolean): void;
  applyCode(code: string): void;
}

const nothing = () => undefined;

/** The senders of the basket the server paints: inert until the app draws it again. */
export const PAINTED_SENDERS: BasketSenders = {
  changeQuantity: nothing,
  changeVoucherQuantity: nothing,
  remove: nothing,
  removeVoucher: nothing,
  setRefundProtection: nothing,
  applyCode: nothing,
};

type BasketControls = BasketView & BasketSenders;

export interface BasketScreenProps {
  checkout: Checkout | null | undefined;
  user: User | null;
  basket: BasketControls;
  expiredMessage: string | null;
  reserving: boolean;
  onReserve: () => void;
  headingRef?: Ref<HTMLHeadingElement>;
  /**
   * Drawn by the server into the page: shown at once but inert (no control can be pressed or
   * focused) until the app has drawn it again and its controls work.
   */
  painted?: boolean;
}

/** The basket step: review the lines, apply codes, choose refund protection, reserve. */
export function BasketScreen({
  checkout,
  user,
  basket,
  expiredMessage,
  reserving,
  onReserve,
  headingRef,
  painted = false,
}: BasketScreenProps) {
  return (
    <section className="step" data-step="basket" aria-labelledby="step-title" inert={painted || undefined}>
      <h1 id="step-title" className="step__title" tabIndex={-1} ref={headingRef}>
        {t('basket.title')}
      </h1>
      {!checkout ? (
        <Spinner size="large" />
      ) : isEmptyBasket(checkout) ? (
        <>
          <BasketWarnings checkout={checkout} expiredMessage={expiredMessage} timeslotWarnings={[]} />
          <EmptyBasket showMailingList={!user || !user.subscribed} />
        </>
      ) : (
        <FilledBasket
          checkout={checkout}
          basket={basket}
          isSignedIn={user !== null}
          expiredMessage={expiredMessage}
          reserving={reserving}
          onReserve={onReserve}
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
  onReserve,
}: {
  checkout: Checkout;
  basket: BasketControls;
  isSignedIn: boolean;
  expiredMessage: string | null;
  reserving: boolean;
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
  const removeLine = (key: string, remove: () => void) => {
    removal.current = { key, index: lineKeys.indexOf(key) };
    remove();
  };

  return (
    <div className="basket">
      <div className="basket__warnings">
        <BasketWarnings checkout={checkout} expiredMessage={expiredMessage} timeslotWarnings={rules.timeslotWarnings} />
      </div>

      <div className="basket__lines">
        <ul className="card lines" aria-label={t('basket.lines')} aria-busy={updating} ref={listRef}>
          {checkout.gift_vouchers.map((v) => (
            <GiftVoucherLineItem
              key={`${v.id}-${v.value}`}
              line={v}
              currencyCode={currencyCode}
              updating={updating}
              onQuantity={(qty) => basket.changeVoucherQuantity(v, qty)}
              onRemove={() => removeLine(`v${v.id}-${v.value}`, () => basket.removeVoucher(v))}
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
              onRemove={() => removeLine(`t${t.ticket_id}`, () => basket.remove(t))}
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
              <p>{rich('basket.alreadyBought', {}, { a: (text) => <a href="/signin/">{text}</a> })}</p>
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
              <span>{t('basket.total')}</span>
              <strong>{total}</strong>
            </p>
            <LoadingButton
              loading={reserving}
              disabled={!rules.canReserve}
              aria-describedby={reason ? reasonId : undefined}
              className="button--block button--large reserve-button"
              onClick={onReserve}
            >
              {t('basket.reserve')}
              <span className="badge">
                {rules.itemCount}
                <span className="visually-hidden"> {t('basket.itemWord', { count: rules.itemCount })}</span>
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
