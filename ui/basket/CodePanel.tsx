import { useId, useState } from 'react';
import { Alert } from '../Alert';
import { Icon } from '../Icon';
import { LoadingButton } from '../LoadingButton';

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
        <span>DISCOUNT OR VOUCHER CODE?</span>
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
          Discount or voucher code
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
          placeholder="Enter code"
        />
        <LoadingButton type="submit" loading={busy} disabled={code.trim() === ''} className="button--secondary">
          Apply
        </LoadingButton>
      </form>
      {result === 'invalid' ? <Alert type="error">Invalid code</Alert> : null}
      {result !== 'invalid' && applied ? <Alert type="success">Code applied</Alert> : null}
    </details>
  );
}
