import { useId, useState } from 'react';
import { Alert } from '../Alert';
import { Icon } from '../Icon';
import { LoadingButton } from '../LoadingButton';
import { t } from '../../i18n/runtime.ts';

/** The collapsible 'DISCOUNT OR VOUCHER CODE?' panel. */
export function CodePanel({
  result,
  hasDiscounts,
  busy,
  onSubmit,
}: {
  /** The answer to the last code sent, from the basket machine. */
  result: 'applied' | 'invalid' | null;
  hasDiscounts: boolean;
  busy: boolean;
  onSubmit: (code: string) => void;
}) {
  const inputId = useId();
  const [code, setCode] = useState('');
  const [open, setOpen] = useState(result !== null || hasDiscounts);
  const applied = result === 'applied' || hasDiscounts;
  return (
    <details className="card code-panel" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="code-panel__summary">
        <span>{t('basket.codeQuestion')}</span>
        <Icon name="chevron" className="code-panel__chevron" />
      </summary>
      <form
        className="code-panel__form"
        onSubmit={(e) => {
          e.preventDefault();
          const trimmed = code.trim();
          if (trimmed) onSubmit(trimmed);
        }}
      >
        <label htmlFor={inputId} className="visually-hidden">
          {t('basket.codeLabel')}
        </label>
        <input
          id={inputId}
          className="input"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          placeholder={t('basket.codePlaceholder')}
        />
        <LoadingButton type="submit" loading={busy} disabled={code.trim() === ''} className="button--secondary">
          {t('basket.codeApply')}
        </LoadingButton>
      </form>
      {result === 'invalid' ? <Alert type="error">{t('basket.codeInvalid')}</Alert> : null}
      {result !== 'invalid' && applied ? <Alert type="success">{t('basket.codeApplied')}</Alert> : null}
    </details>
  );
}
