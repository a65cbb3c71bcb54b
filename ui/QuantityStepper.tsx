import { useId, useState } from 'react';
import { Icon } from './Icon';
import { t } from '../i18n/runtime.ts';

/** Said beside the input while it holds 0, nothing or not a whole number: nothing is sent. */
export const minimumOneNote = () => t('ui.minimumOne');

/**
 * A quantity input (minimum 1) with − and + buttons for thumbs. While the buyer is mid-edit (an
 * empty field, say) the draft stays local, and a note says why it is not saved. Ticket quantities
 * are reported as typed (the basket machine debounces them); a change that is sent at once, like
 * a gift voucher's, waits until the field is left, so typing '12' does not send '1' first.
 *
 * While the basket is being updated the controls are held with aria-disabled and readOnly rather
 * than `disabled`, so keyboard focus stays on the control the buyer was using.
 */
export function QuantityStepper({
  value,
  label,
  readOnly,
  disabled,
  onChange,
  reportWhileTyping = true,
}: {
  value: number;
  /** What is being counted, for the accessible name: 'Quantity of Standing'. */
  label: string;
  readOnly: boolean;
  disabled: boolean;
  onChange: (qty: number) => void;
  reportWhileTyping?: boolean;
}) {
  const id = useId();
  const noteId = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const invalid = draft !== null && !(Number.isInteger(Number(draft)) && Number(draft) >= 1 && draft.trim() !== '');
  const commit = (text: string) => {
    const qty = Number(text);
    if (Number.isInteger(qty) && qty >= 1) {
      setDraft(null);
      if (qty !== value) onChange(qty);
    } else {
      setDraft(text);
    }
  };
  return (
    <div className="stepper-field">
      <div className={`stepper${readOnly ? ' stepper--readonly' : ''}`}>
        <label htmlFor={id} className="visually-hidden">
          {t('ui.quantityOf', { name: label })}
        </label>
        {readOnly ? null : (
          <button
            type="button"
            className="stepper__button"
            aria-label={t('ui.oneFewer', { name: label })}
            aria-disabled={disabled || value <= 1 || undefined}
            onClick={() => {
              if (!disabled && value > 1) commit(String(value - 1));
            }}
          >
            <Icon name="minus" />
          </button>
        )}
        <input
          id={id}
          className="stepper__input"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={draft ?? String(value)}
          readOnly={readOnly || disabled}
          aria-disabled={disabled || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={readOnly ? undefined : noteId}
          onChange={(e) => (reportWhileTyping ? commit(e.target.value) : setDraft(e.target.value))}
          onBlur={() => {
            if (!reportWhileTyping && draft !== null) commit(draft);
            setDraft(null);
          }}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            // Enter never submits a form here; for a field reported on leaving, it reports now.
            e.preventDefault();
            if (!reportWhileTyping && draft !== null) commit(draft);
          }}
        />
        {readOnly ? null : (
          <button
            type="button"
            className="stepper__button"
            aria-label={t('ui.oneMore', { name: label })}
            aria-disabled={disabled || undefined}
            onClick={() => {
              if (!disabled) commit(String(value + 1));
            }}
          >
            <Icon name="plus" />
          </button>
        )}
      </div>
      {readOnly ? null : (
        <p id={noteId} className="stepper__note" role="status">
          {invalid ? minimumOneNote() : null}
        </p>
      )}
    </div>
  );
}
