/**
 * The sandbox processor's card fields, for a plan's new card and for Square's sandbox: number,
 * expiry and CVC, kept in the card element (never in a chart) until the chart's actor sends them
 * to the sandbox to be saved or tokenised. Test cards are listed beside the fields.
 */
import { useEffect, useState } from 'react';
import { SANDBOX_CARDS } from '../../../contract';
import { Field } from '../../components/Field';
import { sandboxCardElement, type SandboxCard } from './sandboxCardElement';
import { t } from '../../../i18n/runtime.ts';
import { rich } from '../../../ui/rich.tsx';

const CODE = { code: (text: string) => <code>{text}</code> };

export function SandboxCardFields({
  disabled,
  extraCards = [],
}: {
  disabled: boolean;
  extraCards?: { number: string; says: string }[];
}) {
  const [card, setCard] = useState<SandboxCard>(() => sandboxCardElement.get());
  useEffect(() => () => sandboxCardElement.clear(), []);
  const change = (field: keyof SandboxCard, value: string) => {
    sandboxCardElement.set({ [field]: value });
    setCard(sandboxCardElement.get());
  };
  return (
    <div className="sandbox-fields stack" data-testid="sandbox-card-fields">
      <Field label={t('sandbox.cardNumber')}>
        {(control) => (
          <input
            {...control}
            className="input"
            inputMode="numeric"
            autoComplete="cc-number"
            value={card.number}
            disabled={disabled}
            onChange={(e) => change('number', e.target.value)}
          />
        )}
      </Field>
      <div className="payment__grid">
        <Field label={t('sandbox.expiry')}>
          {(control) => (
            <input
              {...control}
              className="input"
              autoComplete="cc-exp"
              placeholder={t('sandbox.expiryPlaceholder')}
              value={card.expiry}
              disabled={disabled}
              onChange={(e) => change('expiry', e.target.value)}
            />
          )}
        </Field>
        <Field label={t('sandbox.cvc')}>
          {(control) => (
            <input
              {...control}
              className="input"
              inputMode="numeric"
              autoComplete="cc-csc"
              value={card.cvc}
              disabled={disabled}
              onChange={(e) => change('cvc', e.target.value)}
            />
          )}
        </Field>
      </div>
      <details className="muted sandbox-fields__cards">
        <summary>{t('sandbox.testCards')}</summary>
        <ul>
          <li>{rich('sandbox.approved', { number: SANDBOX_CARDS.success }, CODE)}</li>
          <li>{rich('sandbox.declined', { number: SANDBOX_CARDS.decline }, CODE)}</li>
          <li>{rich('sandbox.insufficient', { number: SANDBOX_CARDS.insufficientFunds }, CODE)}</li>
          {extraCards.map((c) => (
            <li key={c.number}>
              <code>{c.number}</code> {c.says}
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
