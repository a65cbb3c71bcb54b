/**
 * The one labelled field of the step screens: the label, an optional hint, the control (given by
 * the caller, with the ids to wire) and its error, tied together with `aria-describedby` and
 * `aria-invalid`. `look` keeps each form's own class names.
 */
import { useId, type FocusEvent, type ReactNode } from 'react';
import { t } from '../../i18n/runtime.ts';

/**
 * A field's blur handler that tells its chart the buyer left the field, unless they left it for the
 * form's own submit button: that press checks every field itself, and a message drawn on the way
 * would move the button from under the pointer before the press ends, losing it.
 */
export function onLeaving(leave: () => void): (event: FocusEvent) => void {
  return (event) => {
    const to = event.relatedTarget;
    if (!(to instanceof HTMLButtonElement && to.type === 'submit')) leave();
  };
}

export interface FieldLook {
  field: string;
  label?: string;
  hint?: string;
  error: string;
  /** The element the error is written in. */
  errorTag: 'span' | 'p';
}

export const FIELD_LOOKS = {
  /** The shared form look (sign in, payment). */
  form: { field: 'field', label: 'field__label', hint: 'field__hint', error: 'field__error', errorTag: 'span' },
  address: {
    field: 'address-field',
    label: 'address-field__label',
    hint: 'muted',
    error: 'address-field__error',
    errorTag: 'span',
  },
  giftAid: { field: 'gift-aid__field', error: 'field-problem', errorTag: 'p' },
  transfer: { field: 'transfer__field', label: 'transfer__label', error: 'transfer__problem', errorTag: 'p' },
  questions: { field: 'questions__field', label: 'questions__label', error: 'questions__problem', errorTag: 'p' },
} as const satisfies Record<string, FieldLook>;

/** What the control is given: its id and the ARIA attributes that tie it to the hint and the error. */
export interface FieldControl {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

export function Field({
  label,
  hint,
  error,
  optional = false,
  alert = false,
  look = FIELD_LOOKS.form,
  notes,
  children,
}: {
  label: ReactNode;
  hint?: string | undefined;
  error?: string | null | undefined;
  /** The id of a note the caller draws beside the control (a counter), read after the hint. */
  notes?: string;
  /** Says '(optional)' after the label. */
  optional?: boolean;
  /** The error is announced as soon as it appears. */
  alert?: boolean;
  look?: FieldLook;
  children: (control: FieldControl) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', notes ?? '', error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  const ErrorTag = look.errorTag;
  return (
    <div className={look.field}>
      <label className={look.label} htmlFor={id}>
        {label}
        {optional ? <span className="muted">{t('ui.optional')}</span> : null}
      </label>
      {hint ? (
        <span className={look.hint} id={hintId}>
          {hint}
        </span>
      ) : null}
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {error ? (
        <ErrorTag className={look.error} id={errorId} role={alert ? 'alert' : undefined}>
          {error}
        </ErrorTag>
      ) : null}
    </div>
  );
}
