import type { Checkout } from '../../contract';
import { Alert } from '../Alert';
import { t } from '../../i18n/runtime.ts';

/** Everything the buyer should read before the basket itself, most important first. */
export function BasketWarnings({
  checkout,
  expiredMessage,
  timeslotWarnings,
}: {
  checkout: Checkout;
  /** The machine's expiry notice while the buyer is back here because the hold ran out. */
  expiredMessage: string | null;
  timeslotWarnings: readonly string[];
}) {
  const hasAny =
    expiredMessage !== null ||
    checkout.reserving_error !== null ||
    checkout.had_mismatching_currencies ||
    checkout.basket_errors.length > 0 ||
    checkout.basket_success.length > 0 ||
    timeslotWarnings.length > 0;
  if (!hasAny) return null;
  return (
    <div className="stack">
      {expiredMessage ? <Alert type="warning">{expiredMessage}</Alert> : null}
      {checkout.reserving_error ? <Alert type="warning">{checkout.reserving_error}</Alert> : null}
      {checkout.had_mismatching_currencies ? <Alert type="warning">{t('basket.mismatchingCurrencies')}</Alert> : null}
      {checkout.basket_errors.map((text) => (
        <Alert key={`e:${text}`} type="warning">
          {text}
        </Alert>
      ))}
      {checkout.basket_success.map((text) => (
        <Alert key={`s:${text}`} type="success">
          {text}
        </Alert>
      ))}
      {timeslotWarnings.map((text) => (
        <Alert key={`t:${text}`} type="warning">
          {text}
        </Alert>
      ))}
    </div>
  );
}
