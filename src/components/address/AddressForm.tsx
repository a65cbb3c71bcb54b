import { type KeyboardEvent } from 'react';
import { Field, FIELD_LOOKS, onLeaving } from '../Field';
import { useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { COUNTRY_USA, type AddressField, type AddressProblemKey, type SavedAddress } from '../../../contract';
import { addressSenders, viewAddress } from '../../../machines/address/address.connect';
import type { addressMachine } from '../../../machines/address/address.machine';
import { useUser } from '../../app/checkoutContext';
import { Alert } from '../../../ui/Alert';
import { Icon } from '../../../ui/Icon';
import { LoadingButton } from '../../../ui/LoadingButton';
import { Spinner } from '../../../ui/Spinner';
import { countriesStatesQuery, savedAddressesQuery } from './addressQueries';
import './address.css';
import { t, type MessageKey } from '../../../i18n/runtime.ts';

export type AddressActor = ActorRefFrom<typeof addressMachine>;

/**
 * A country's name in the page's language (`<html lang>`), where the browser's Intl knows it;
 * English pages keep the names the server gives.
 */
function countryName(country: { name: string; iso_code: string }): string {
  const language = document.documentElement.lang;
  if (!country.iso_code || language.startsWith('en') || language.endsWith('-XB')) return country.name;
  try {
    return new Intl.DisplayNames([language], { type: 'region', fallback: 'none' }).of(country.iso_code) ?? country.name;
  } catch {
    return country.name;
  }
}

/** The Enter key does not submit from a text input. */
const blockEnter = (e: KeyboardEvent) => {
  if (e.key === 'Enter') e.preventDefault();
};

const TEXT_FIELDS: Array<{
  field: Exclude<AddressField, 'country' | 'state'>;
  label: MessageKey;
  autoComplete: string;
  optional?: boolean;
}> = [
  { field: 'first_name', label: 'address.field.firstName', autoComplete: 'given-name' },
  { field: 'last_name', label: 'address.field.lastName', autoComplete: 'family-name' },
  { field: 'address_1', label: 'address.field.address1', autoComplete: 'address-line1' },
  { field: 'address_2', label: 'address.field.address2', autoComplete: 'address-line2', optional: true },
  { field: 'town', label: 'address.field.town', autoComplete: 'address-level2' },
  { field: 'postcode', label: 'address.field.postcode', autoComplete: 'postal-code' },
];

/**
 * The one address form: saved addresses (signed-in buyers, with delete), the finder and its
 * possible addresses, manual entry with country and state, and the gift voucher names when asked.
 * Every change is an event to the address chart; the screen only shows its view.
 *
 * On its own it is a form with its Continue button (the delivery step). `inside` makes it a part of
 * another form (the payment step's billing address): a fieldset under that legend, without a
 * button, whose chart is asked by the other form's own button.
 */
export function AddressForm({
  actor,
  giftVouchers,
  submitLabel = t('ui.continue'),
  inside,
}: {
  actor: AddressActor;
  giftVouchers: boolean;
  submitLabel?: string;
  inside?: { legend: string; disabled: boolean };
}) {
  const view = useSelector(actor, (s) => viewAddress(s, { giftVouchers }));
  const send = addressSenders((event) => actor.send(event));
  const user = useUser();
  const saved = useQuery(savedAddressesQuery(user !== null && view.savedIds.length > 0 ? user.id : null)).data ?? [];
  const lists = useQuery(countriesStatesQuery()).data;
  const problem = (key: AddressProblemKey) => view.problems[key];

  if (view.loading) {
    return (
      <div className={`${inside ? '' : 'card '}address address--loading`}>
        <Spinner size="large" label={t('address.loading')} />
      </div>
    );
  }
  const offered: SavedAddress[] = saved.filter((a) => view.savedIds.includes(a.id));
  const countries = lists?.countries.length
    ? lists.countries
    : [
        {
          id: view.fields.country,
          name: view.fields.country === '1' ? t('address.unitedKingdom') : view.fields.country,
          iso_code: '',
        },
      ];
  const states = (lists?.states ?? []).filter((s) => s.country === COUNTRY_USA);

  const autoComplete = (token: string) => (inside ? `billing ${token}` : token);
  const parts = (
    <>
      {view.voucherNamesShown ? (
        <fieldset className="address__group">
          <legend className="section-title">{t('address.giftVouchers')}</legend>
          <Field label={t('address.giftVoucherFrom')} error={problem('gift_voucher_from')} look={FIELD_LOOKS.address}>
            {(control) => (
              <input
                {...control}
                className="input"
                value={view.giftVoucherFrom}
                autoComplete="name"
                onKeyDown={blockEnter}
                onChange={(e) => send.typeVoucherName('gift_voucher_from', e.target.value)}
                onBlur={onLeaving(() => send.leaveField('gift_voucher_from'))}
              />
            )}
          </Field>
          <Field label={t('address.giftVoucherTo')} error={problem('gift_voucher_to')} look={FIELD_LOOKS.address}>
            {(control) => (
              <input
                {...control}
                className="input"
                value={view.giftVoucherTo}
                onKeyDown={blockEnter}
                onChange={(e) => send.typeVoucherName('gift_voucher_to', e.target.value)}
                onBlur={onLeaving(() => send.leaveField('gift_voucher_to'))}
              />
            )}
          </Field>
        </fieldset>
      ) : null}

      {offered.length ? (
        <fieldset className="address__group">
          <legend className="section-title">{t('address.saved')}</legend>
          <div className="choice-group">
            {offered.map((a) => (
              <div key={a.id} className="address__saved">
                <label className={`choice address__saved-choice${view.selected === a.id ? ' choice--selected' : ''}`}>
                  <input
                    type="radio"
                    name="saved-address"
                    checked={view.selected === a.id}
                    onChange={() => send.chooseSaved(a.id)}
                  />
                  <span>
                    <span className="address__saved-name">
                      {a.first_name} {a.last_name}
                    </span>
                    <span className="address__saved-line">{a.full_address}</span>
                  </span>
                </label>
                <button
                  type="button"
                  className="icon-button address__delete"
                  aria-label={t('address.delete', { address: a.full_address })}
                  disabled={view.deleting !== null}
                  onClick={() => send.deleteSaved(a.id)}
                >
                  {view.deleting === a.id ? <Spinner size="small" /> : <Icon name="trash" />}
                </button>
              </div>
            ))}
            <label className={`choice${view.newAddress ? ' choice--selected' : ''}`}>
              <input
                type="radio"
                name="saved-address"
                checked={view.newAddress}
                onChange={() => send.chooseSaved('new')}
              />
              <span>{t('address.useNew')}</span>
            </label>
          </div>
        </fieldset>
      ) : null}

      {view.finderShown ? (
        <div className="address__group stack">
          <Field label={t('address.find')} hint={t('address.findHint')} look={FIELD_LOOKS.address}>
            {(control) => (
              <div className="address__finder">
                <input
                  {...control}
                  className="input"
                  type="search"
                  value={view.query}
                  autoComplete="off"
                  onChange={(e) => send.typeQuery(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key !== 'Enter') return;
                    e.preventDefault();
                    if (view.canFind) send.find();
                  }}
                />
                <LoadingButton
                  loading={view.searching}
                  disabled={!view.canFind}
                  className="button--secondary address__find"
                  onClick={send.find}
                >
                  {t('address.findButton')}
                </LoadingButton>
              </div>
            )}
          </Field>
          {view.possible !== null ? (
            view.possible.length ? (
              <div className="address__possible" role="group" aria-label={t('address.possible')}>
                <p className="muted" role="status">
                  {t('address.found', { count: view.possible.length })}
                </p>
                <ul className="address__possible-list">
                  {view.possible.map((p, index) => (
                    <li key={`${p.formatted_address}-${index}`}>
                      <button type="button" className="address__possible-item" onClick={() => send.pick(index)}>
                        {p.formatted_address}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <p className="muted" role="status">
                {t('address.noMatch')}
              </p>
            )
          ) : null}
          {!view.fieldsShown ? (
            <button type="button" className="link-button address__manual" onClick={send.enterManually}>
              {t('address.enterManually')}
            </button>
          ) : null}
        </div>
      ) : null}

      {view.fieldsShown ? (
        <fieldset className="address__group address__fields">
          <legend className="section-title">
            {view.status === 'address_found' ? t('address.yourAddress') : t('address.address')}
          </legend>
          {TEXT_FIELDS.map(({ field, label, autoComplete: fieldAutoComplete, optional }) => (
            <Field
              key={field}
              label={t(label)}
              optional={optional}
              error={field === 'address_2' ? undefined : problem(field)}
              look={FIELD_LOOKS.address}
            >
              {(control) => (
                <input
                  {...control}
                  className="input"
                  value={view.fields[field]}
                  autoComplete={autoComplete(fieldAutoComplete)}
                  onKeyDown={blockEnter}
                  onChange={(e) => send.typeField(field, e.target.value)}
                  onBlur={onLeaving(() => field !== 'address_2' && send.leaveField(field))}
                />
              )}
            </Field>
          ))}
          <Field label={t('address.field.country')} error={problem('country')} look={FIELD_LOOKS.address}>
            {(control) => (
              <select
                {...control}
                className="input"
                value={view.fields.country}
                onChange={(e) => send.typeField('country', e.target.value)}
              >
                {countries.map((c) => (
                  <option key={c.id} value={c.id}>
                    {countryName(c)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {view.fields.country === COUNTRY_USA ? (
            <Field label={t('address.field.state')} error={problem('state')} look={FIELD_LOOKS.address}>
              {(control) => (
                <select
                  {...control}
                  className="input"
                  value={view.fields.state}
                  onChange={(e) => send.typeField('state', e.target.value)}
                  onBlur={onLeaving(() => send.leaveField('state'))}
                >
                  <option value="">{t('address.chooseState')}</option>
                  {states.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
          <button type="button" className="link-button address__manual" onClick={send.findAgain}>
            {t('address.findInstead')}
          </button>
        </fieldset>
      ) : null}

      {view.problems.form ? <Alert type="error">{view.problems.form}</Alert> : null}
      {view.problem ? <Alert type="error">{view.problem}</Alert> : null}
    </>
  );
  if (inside) {
    return (
      <fieldset className="stack address address--inside" disabled={inside.disabled}>
        <legend className="section-title">{inside.legend}</legend>
        {parts}
      </fieldset>
    );
  }
  return (
    <form
      className="card stack address"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send.continue(giftVouchers);
      }}
    >
      {parts}
      <LoadingButton type="submit" loading={view.saving} disabled={!view.canContinue} className="button--block">
        {submitLabel}
      </LoadingButton>
    </form>
  );
}
