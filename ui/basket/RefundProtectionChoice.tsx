import { useId } from 'react';
import type { Checkout } from '../../contract';
import { Icon } from '../Icon';
import { formatMoney } from '../../contract/money';
import { t } from '../../i18n/runtime.ts';
import { rich } from '../rich';

/** Offered only when the basket has coverable lines and protection costs something. */
export function offersRefundProtection(c: Pick<Checkout, 'has_refund_protection' | 'refund_protection_cost'>): boolean {
  return c.has_refund_protection && c.refund_protection_cost > 0;
}

/** Events in the basket that refund protection cannot cover. */
function uncoveredEventTitles(c: Pick<Checkout, 'events' | 'tickets'>): string[] {
  const inBasket = new Set(c.tickets.map((t) => t.event_id));
  return c.events.filter((e) => inBasket.has(e.id) && !e.refund_protection).map((e) => e.title);
}

/**
 * Yes or no to refund protection. The buyer's choice shows at once (the basket machine keeps it
 * until the server's checkout shows it, or rolls it back if the call fails). While the basket is
 * updating the radios are held with aria-disabled rather than disabled, so a keyboard user who
 * chose with the arrow keys keeps focus on the radio.
 */
export function RefundProtectionChoice({
  checkout,
  chosen: choice = null,
  disabled,
  onChoose,
}: {
  checkout: Checkout;
  /** The buyer's choice not yet on the server; null shows the server's. */
  chosen?: boolean | null;
  /** Another change is with the server: the choice cannot change now. */
  disabled: boolean;
  onChoose: (refundProtection: boolean) => void;
}) {
  const name = useId();
  const uncovered = uncoveredEventTitles(checkout);
  const chosen = choice ?? checkout.refund_protection === 1;
  const choose = (yes: boolean) => {
    if (!disabled && yes !== chosen) onChoose(yes);
  };
  return (
    <fieldset className="card refund" aria-disabled={disabled || undefined}>
      <legend className="refund__legend">
        <Icon name="shield" />
        {t('basket.refundProtection')}
      </legend>
      <p className="muted">{t('basket.refundProtectionAbout')}</p>
      <div className="choice-group">
        <label className={`choice${chosen ? ' choice--selected' : ''}`}>
          <input
            type="radio"
            name={name}
            checked={chosen}
            aria-disabled={disabled || undefined}
            onChange={() => choose(true)}
          />
          <span>
            {rich(
              'basket.refundProtectionYes',
              { amount: formatMoney(checkout.refund_protection_cost, checkout.currency.code) },
              { strong: (amount) => <strong>{amount}</strong> },
            )}
          </span>
        </label>
        <label className={`choice${!chosen ? ' choice--selected' : ''}`}>
          <input
            type="radio"
            name={name}
            checked={!chosen}
            aria-disabled={disabled || undefined}
            onChange={() => choose(false)}
          />
          <span>{t('basket.refundProtectionNo')}</span>
        </label>
      </div>
      {uncovered.length > 0 ? (
        <div className="refund__uncovered">
          <p>{t('basket.notCovered')}</p>
          <ul>
            {uncovered.map((title) => (
              <li key={title}>{title}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </fieldset>
  );
}
