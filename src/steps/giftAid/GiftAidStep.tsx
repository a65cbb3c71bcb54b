import type { ActorRefFrom } from 'xstate';
import { Field, FIELD_LOOKS } from '../../components/Field';
import type { giftAidMachine } from '../../../machines/donation/giftAid.machine';
import { useId, type FormEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { Charity } from '../../../contract';
import { formatMoney } from '../../../contract/money';
import { giftAidSenders, viewGiftAid } from '../../../machines/donation/giftAid.connect';
import type { Confirmation } from '../../../machines/donation/giftAid.machine';
import { Alert } from '../../../ui/Alert';
import { LoadingButton } from '../../../ui/LoadingButton';
import { useCheckoutData } from '../../app/checkoutContext';
import { StepLayout } from '../StepLayout';
import { useStepChild } from '../useStepChild';
import '../donation/donation.css';
import { t, type MessageKey } from '../../../i18n/runtime.ts';

type GiftAidActor = ActorRefFrom<typeof giftAidMachine>;

/** HMRC's model declaration, one statement per confirmation. */
const CONFIRMATIONS: { which: Confirmation; key: MessageKey }[] = [
  { which: 'taxpayer', key: 'giftAid.taxpayer' },
  { which: 'ownMoney', key: 'giftAid.ownMoney' },
  { which: 'notSweepstake', key: 'giftAid.notSweepstake' },
];

function FieldProblem({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <p id={id} className="field-problem">
      {text}
    </p>
  ) : null;
}

function TextField({
  label,
  value,
  problem,
  onChange,
  autoComplete,
  multiline,
}: {
  label: string;
  value: string;
  problem: string | undefined;
  onChange: (value: string) => void;
  autoComplete: string;
  multiline?: boolean;
}) {
  return (
    <Field label={label} error={problem} look={FIELD_LOOKS.giftAid}>
      {(control) =>
        multiline ? (
          <textarea
            {...control}
            className="input"
            value={value}
            autoComplete={autoComplete}
            rows={3}
            onChange={(e) => onChange(e.target.value)}
          />
        ) : (
          <input
            {...control}
            className="input"
            value={value}
            autoComplete={autoComplete}
            type="text"
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }
    </Field>
  );
}

function GiftAidForm({
  actor,
  charity,
  amount,
  currency,
}: {
  actor: GiftAidActor;
  charity: Charity;
  amount: number;
  currency: string;
}) {
  const view = useSelector(actor, (snapshot) => viewGiftAid(snapshot, amount));
  const send = giftAidSenders((event) => actor.send(event));
  const money = (minor: number) => formatMoney(minor, currency);
  const confirmProblemId = useId();
  const { form, problems } = view;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send.continueStep(amount);
  };
  const box = (checked: boolean, onChange: (checked: boolean) => void, children: ReactNode, extra: object = {}) => (
    <label className="choice gift-aid__box">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} {...extra} />
      <span>{children}</span>
    </label>
  );
  return (
    <form className="card stack gift-aid" onSubmit={onSubmit} noValidate>
      <p className="lead">
        {t('giftAid.lead', { charity: charity.name, uplift: money(view.uplift), amount: money(amount) })}
      </p>
      <label className="choice gift-aid__toggle">
        <input
          type="checkbox"
          role="switch"
          checked={form.isGiftAid}
          onChange={(e) => send.toggleGiftAid(e.target.checked)}
        />
        <span>{t('giftAid.add')}</span>
      </label>
      {form.isGiftAid ? (
        <>
          <fieldset
            className="gift-aid__group"
            aria-describedby={problems.confirmations ? confirmProblemId : undefined}
          >
            <legend className="section-title">{t('giftAid.pleaseConfirm')}</legend>
            <div className="choice-group">
              {CONFIRMATIONS.map(({ which, key }) => (
                <div key={which}>
                  {box(form.confirmations[which], (checked) => send.toggleConfirmation(which, checked), t(key), {
                    'aria-invalid': problems.confirmations && !form.confirmations[which] ? true : undefined,
                  })}
                </div>
              ))}
            </div>
            <FieldProblem id={confirmProblemId} text={problems.confirmations} />
          </fieldset>
          {view.addressNeeded ? (
            <fieldset className="gift-aid__group">
              <legend className="section-title">{t('giftAid.homeAddress')}</legend>
              <div className="choice-group gift-aid__residence">
                <label className="choice">
                  <input
                    type="radio"
                    name="gift-aid-residence"
                    checked={form.ukBased}
                    onChange={() => send.chooseResidence(true)}
                  />
                  <span>{t('giftAid.liveInUk')}</span>
                </label>
                <label className="choice">
                  <input
                    type="radio"
                    name="gift-aid-residence"
                    checked={!form.ukBased}
                    onChange={() => send.chooseResidence(false)}
                  />
                  <span>{t('giftAid.liveOverseas')}</span>
                </label>
              </div>
              {form.ukBased ? (
                <>
                  <TextField
                    label={t('giftAid.address1Label')}
                    value={form.address1}
                    problem={problems.address1}
                    autoComplete="address-line1"
                    onChange={(value) => send.typeField('address1', value)}
                  />
                  <TextField
                    label={t('giftAid.postcodeLabel')}
                    value={form.postcode}
                    problem={problems.postcode}
                    autoComplete="postal-code"
                    onChange={(value) => send.typeField('postcode', value)}
                  />
                </>
              ) : (
                <TextField
                  label={t('giftAid.overseasLabel')}
                  value={form.overseasAddress}
                  problem={problems.overseasAddress}
                  autoComplete="street-address"
                  multiline
                  onChange={(value) => send.typeField('overseasAddress', value)}
                />
              )}
            </fieldset>
          ) : null}
        </>
      ) : null}
      {box(form.subscribe, send.toggleSubscribe, t('giftAid.subscribe', { charity: charity.name }))}
      {view.problem ? <Alert type="error">{view.problem}</Alert> : null}
      <LoadingButton type="submit" loading={view.saving} className="button--block">
        {t('ui.continue')}
      </LoadingButton>
    </form>
  );
}

/** The Gift Aid step: the toggle, the declaration it needs, and the charity's newsletter. */
export default function GiftAidStep() {
  const checkout = useCheckoutData();
  const amount = checkout?.donation?.amount_before_booking_fee ?? checkout?.donation_amount ?? 0;
  const actor = useStepChild<typeof giftAidMachine>('giftAid');
  return (
    <StepLayout step="gift_aid">
      {checkout?.charity && actor ? (
        <GiftAidForm actor={actor} charity={checkout.charity} amount={amount} currency={checkout.currency.code} />
      ) : null}
    </StepLayout>
  );
}
