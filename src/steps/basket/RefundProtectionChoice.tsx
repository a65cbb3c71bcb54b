import { useId } from 'react';
import type { Checkout } from '../../api/contract';
import { Icon } from '../../components/Icon';
import { formatMoney } from '../../format/money';

/** Offered only when the basket has coverable lines and protection costs something. */
export function offersRefundProtection(c: Pick<Checkout, 'has_refund_protection' | 'refund_protection_cost'>): boolean {
  return c.has_refund_protection && c.refund_protection_cost > 0;
}

/** Events in the basket that refund protection cannot cover. */
function uncoveredEventTitles(c: Pick<Checkout, 'events' | 'tickets'>): string[] {
  const inBasket = new Set(c.tickets.map((t) => t.event_id));
  return c.events.filter((e) => inBasket.has(e.id) && !e.refund_protection).map((e) => e.title);
}

export function RefundProtectionChoice({
  checkout,
  disabled,
  onChoose,
}: {
  checkout: Checkout;
  disabled: boolean;
  onChoose: (refundProtection: boolean) => void;
}) {
  const name = useId();
  const uncovered = uncoveredEventTitles(checkout);
  const chosen = checkout.refund_protection === 1;
  return (
    <fieldset className="card refund" disabled={disabled}>
      <legend className="refund__legend">
        <Icon name="shield" />
        Refund protection
      </legend>
      <p className="muted">
        Get a full refund of your tickets if you cannot attend for a reason covered by the policy, such as illness,
        travel disruption or a family emergency.
      </p>
      <div className="choice-group">
        <label className={`choice${chosen ? ' choice--selected' : ''}`}>
          <input type="radio" name={name} checked={chosen} onChange={() => onChoose(true)} />
          <span>
            Yes, protect my order for <strong>{formatMoney(checkout.refund_protection_cost, checkout.currency.code)}</strong>
          </span>
        </label>
        <label className={`choice${checkout.refund_protection === 0 ? ' choice--selected' : ''}`}>
          <input type="radio" name={name} checked={!chosen} onChange={() => onChoose(false)} />
          <span>No, I do not want refund protection</span>
        </label>
      </div>
      {uncovered.length > 0 ? (
        <div className="refund__uncovered">
          <p>Not covered by refund protection:</p>
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
