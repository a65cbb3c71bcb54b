/**
 * The payment plan form (spec 001 §2, §3, §5, §9): the plan options (never '1') each with its
 * schedule, the buyer's saved cards (card type, last 4, expiry, default) or a new card, whose
 * default flag starts on. The chart keeps the choice; the saved cards are server data (a query),
 * which also names the new card's form: the sandbox's fields here, or Stripe's form when paying.
 */
import { useQuery } from '@tanstack/react-query';
import { formatMoney } from '../../../contract/money';
import { planOptions, type Checkout } from '../../../contract';
import type { PaymentView } from '../../../machines/payment/payment.connect';
import type { paymentSenders } from '../../../machines/payment/payment.connect';
import { NEW_CARD } from '../../../machines/instalment/instalment.types';
import { callApi } from '../../api/client';
import { queryKey } from '../../api/queries';
import { SandboxCardFields } from './SandboxCardFields';
import { cardUi } from './cardUi';
import { t } from '../../../i18n/runtime.ts';

/** The buyer's saved cards, and the publishable key naming the form a new card is typed into. */
export function savedPaymentMethodsQuery() {
  return { queryKey: queryKey('savedPaymentMethods'), queryFn: () => callApi('getSavedPaymentMethods') };
}

const BRAND: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' };

export function InstalmentPlan({
  view,
  send,
  checkout,
}: {
  view: PaymentView;
  send: ReturnType<typeof paymentSenders>;
  checkout: Checkout;
}) {
  const cards = useQuery(savedPaymentMethodsQuery());
  const saved = cards.data?.payment_methods ?? [];
  // With Stripe keyed the new card goes into Stripe's form when the buyer pays; else the sandbox's fields (also when unknown).
  const newCardForm = cards.data ? cardUi(cards.data.public_key) : cards.isError ? 'sandbox' : null;
  const options = planOptions(checkout);
  const plan = view.form.plan;
  return (
    <div className="plan stack">
      <fieldset className="payment__fieldset" disabled={view.paying}>
        <legend className="section-title">{t('plan.choose')}</legend>
        <div className="choice-group plan__options">
          {options.map((o) => (
            <label
              key={o.option}
              className={`choice plan__option${plan.option === o.option ? ' choice--selected' : ''}`}
            >
              <input
                type="radio"
                name="plan-option"
                checked={plan.option === o.option}
                onChange={() => send.choosePlanOption(o.option)}
              />
              <span className="plan__label">{o.label}</span>
              <ol className="plan__schedule" aria-label={t('plan.schedule', { label: o.label })}>
                {o.schedule.map((s, i) => (
                  <li key={i}>
                    <span>{i === 0 ? t('plan.today', { date: s.uk_due }) : s.uk_due}</span>
                    <span>{formatMoney(s.value, checkout.currency.code)}</span>
                  </li>
                ))}
              </ol>
            </label>
          ))}
        </div>
        {view.problems.planOption ? (
          <span className="field__error" role="alert">
            {view.problems.planOption}
          </span>
        ) : null}
      </fieldset>
      <fieldset className="payment__fieldset" disabled={view.paying}>
        <legend className="section-title">{t('plan.cardLegend')}</legend>
        <div className="choice-group">
          {saved.map((m) => (
            <label
              key={m.payment_method_id}
              className={`choice${plan.card === m.payment_method_id ? ' choice--selected' : ''}`}
            >
              <input
                type="radio"
                name="plan-card"
                checked={plan.card === m.payment_method_id}
                onChange={() => send.choosePlanCard(m.payment_method_id)}
              />
              <span>
                {t('plan.savedCard', {
                  brand: BRAND[m.card_type] ?? m.card_type,
                  last4: m.last4digits,
                  expiry: m.expiry,
                  isDefault: m.is_default ? 'yes' : 'no',
                })}
              </span>
            </label>
          ))}
          <label className={`choice${plan.card === NEW_CARD ? ' choice--selected' : ''}`}>
            <input
              type="radio"
              name="plan-card"
              checked={plan.card === NEW_CARD}
              onChange={() => send.choosePlanCard(NEW_CARD)}
            />
            <span>{t('plan.newCard')}</span>
          </label>
        </div>
        {plan.card === NEW_CARD ? (
          <>
            {newCardForm === 'stripe' ? (
              <p className="muted">{t('plan.stripeForm')}</p>
            ) : newCardForm === 'sandbox' ? (
              <SandboxCardFields
                disabled={view.paying}
                extraCards={[{ number: '4000000000000341', says: t('plan.declinedLater') }]}
              />
            ) : null}
            <label className="payment__box">
              <input type="checkbox" checked={plan.makeDefault} onChange={send.togglePlanDefault} />
              <span>{t('plan.makeDefault')}</span>
            </label>
          </>
        ) : null}
        {view.problems.planCard ? (
          <span className="field__error" role="alert">
            {view.problems.planCard}
          </span>
        ) : null}
      </fieldset>
      <p className="muted">{t('plan.savedNote')}</p>
    </div>
  );
}
