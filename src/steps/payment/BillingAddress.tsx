/**
 * The billing address fields of the payment step: plain fields until the shared address form
 * takes their place. Billing requires the postcode (spec 001 §5).
 */
import { useId } from 'react';
import type { BillingAddress as Address } from '../../../contract';
import { Alert } from '../../../ui/Alert';

const FIELDS: { key: keyof Address; label: string; autoComplete: string; wide?: boolean }[] = [
  { key: 'first_name', label: 'First name', autoComplete: 'billing given-name' },
  { key: 'last_name', label: 'Last name', autoComplete: 'billing family-name' },
  { key: 'address_1', label: 'Address line 1', autoComplete: 'billing address-line1', wide: true },
  { key: 'address_2', label: 'Address line 2 (optional)', autoComplete: 'billing address-line2', wide: true },
  { key: 'town', label: 'Town or city', autoComplete: 'billing address-level2' },
  { key: 'postcode', label: 'Postcode or zip code', autoComplete: 'billing postal-code' },
];

export function BillingAddress({
  address,
  problems,
  disabled,
  onChange,
}: {
  address: Address;
  problems: { postcode?: string | undefined; address?: string | undefined };
  disabled: boolean;
  onChange: (field: keyof Address, value: string) => void;
}) {
  const id = useId();
  return (
    <fieldset className="payment__fieldset" disabled={disabled}>
      <legend className="section-title">Billing address</legend>
      {problems.address ? <Alert type="error">{problems.address}</Alert> : null}
      <div className="payment__grid">
        {FIELDS.map((f) => {
          const error = f.key === 'postcode' ? problems.postcode : undefined;
          const inputId = `${id}-${f.key}`;
          return (
            <div key={f.key} className={`field${f.wide ? ' payment__wide' : ''}`}>
              <label className="field__label" htmlFor={inputId}>
                {f.label}
              </label>
              <input
                id={inputId}
                className="input"
                autoComplete={f.autoComplete}
                value={address[f.key]}
                required={f.key === 'postcode'}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${inputId}-error` : undefined}
                onChange={(e) => onChange(f.key, e.target.value)}
              />
              {error ? (
                <span className="field__error" id={`${inputId}-error`}>
                  {error}
                </span>
              ) : null}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
