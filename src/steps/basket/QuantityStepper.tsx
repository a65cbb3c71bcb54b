import { useId, useState } from 'react';
import { Icon } from '../../components/Icon';

/**
 * A quantity input (minimum 1) with − and + buttons for thumbs. While the buyer is mid-edit (an
 * empty field, say) the draft stays local. Ticket quantities are reported as typed (the basket
 * machine debounces them); a change that is sent at once, like a gift voucher's, waits until the
 * field is left, so typing '12' does not send '1' first.
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
  const [draft, setDraft] = useState<string | null>(null);
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
    <div className={`stepper${readOnly ? ' stepper--readonly' : ''}`}>
      <label htmlFor={id} className="visually-hidden">
        Quantity of {label}
      </label>
      {readOnly ? null : (
        <button
          type="button"
          className="stepper__button"
          aria-label={`One fewer ${label}`}
          disabled={disabled || value <= 1}
          onClick={() => commit(String(value - 1))}
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
        readOnly={readOnly}
        disabled={disabled}
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
          aria-label={`One more ${label}`}
          disabled={disabled}
          onClick={() => commit(String(value + 1))}
        >
          <Icon name="plus" />
        </button>
      )}
    </div>
  );
}
