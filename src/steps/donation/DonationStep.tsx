import type { ActorRefFrom } from 'xstate';
import type { donationMachine } from '../../../machines/donation/donation.machine';
import { useId, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { donationFee, feeTermsOf, type Charity } from '../../../contract';
import { formatMoney } from '../../../contract/money';
import { donationSenders, viewDonation } from '../../../machines/donation/donation.connect';
import { Alert } from '../../../ui/Alert';
import { LoadingButton } from '../../../ui/LoadingButton';
import { useCheckoutData } from '../../app/checkoutContext';
import { StepLayout } from '../StepLayout';
import { useStepChild } from '../useStepChild';
import './donation.css';
import { t } from '../../../i18n/runtime.ts';

type DonationActor = ActorRefFrom<typeof donationMachine>;

/** The charity's description as plain text: markup from the server is never injected into the page. */
function plainText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
}

/** Spec 000 §9: the base fee is shown in pence; the percentage as the charity set it. */
function feeNote(charity: Charity): string {
  const percent = Math.round(charity.booking_fee * 100) / 100;
  return t('donation.feeNote', {
    baseFee: charity.base_fee,
    percent,
    vat: charity.booking_fee_includes_vat ? 'yes' : 'no',
  });
}

function DonationForm({ actor, charity, currency }: { actor: DonationActor; charity: Charity; currency: string }) {
  const view = useSelector(actor, viewDonation);
  const send = donationSenders((event) => actor.send(event));
  const money = (minor: number) => formatMoney(minor, currency);
  const customId = useId();
  const problemId = useId();
  const fee = view.amount !== null && view.amount > 0 ? donationFee(view.amount, feeTermsOf(charity)) : null;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send.donate(charity.id);
  };
  return (
    <form className="card stack donation" onSubmit={onSubmit} noValidate>
      <div className="donation__charity">
        {charity.logo ? <img className="donation__logo" src={charity.logo} alt="" width={56} height={56} /> : null}
        <div>
          <p className="donation__name">{charity.name}</p>
          <p className="muted">{plainText(charity.description_html)}</p>
        </div>
      </div>
      <fieldset className="donation__amounts">
        <legend className="section-title">{t('donation.chooseAmountLegend')}</legend>
        <div className="donation__presets">
          {charity.donation_options.map((amount) => (
            <button
              key={amount}
              type="button"
              className={`choice donation__preset${view.preset === amount ? ' choice--selected' : ''}`}
              aria-pressed={view.preset === amount}
              onClick={() => send.choosePreset(amount)}
            >
              {money(amount)}
            </button>
          ))}
        </div>
        <label className="donation__custom" htmlFor={customId}>
          <span>{t('donation.otherAmount')}</span>
          <span className="donation__custom-input">
            <span aria-hidden="true">{money(0).replace(/[\d.,\s]/g, '')}</span>
            <input
              id={customId}
              className="input"
              type="number"
              inputMode="decimal"
              min={1}
              step={0.01}
              value={view.custom}
              aria-invalid={view.problem !== null || undefined}
              aria-describedby={view.problem ? problemId : undefined}
              onChange={(e) => send.typeCustom(e.target.value)}
            />
          </span>
        </label>
      </fieldset>
      <p className="muted donation__fee">
        {feeNote(charity)}
        {fee !== null ? t('donation.feeForThis', { fee: money(fee) }) : null}
      </p>
      {view.problem ? (
        <div id={problemId}>
          <Alert type="error">{view.problem}</Alert>
        </div>
      ) : null}
      <LoadingButton type="submit" loading={view.saving} className="button--block">
        {view.amount !== null && view.amount > 0
          ? t('donation.donateAmount', { amount: money(view.amount) })
          : t('donation.donate')}
      </LoadingButton>
      <button type="button" className="link-button donation__skip" disabled={view.saving} onClick={send.skip}>
        {t('donation.skip')}
      </button>
    </form>
  );
}

/** The donation step: a preset or custom amount for the basket's charity, or 'Skip donation'. */
export default function DonationStep() {
  const checkout = useCheckoutData();
  const charity = checkout?.charity ?? null;
  const actor = useStepChild<typeof donationMachine>('donation');
  return (
    <StepLayout step="donation" title={charity?.donation_checkout_title || undefined}>
      {charity && checkout && actor ? (
        <DonationForm actor={actor} charity={charity} currency={checkout.currency.code} />
      ) : null}
    </StepLayout>
  );
}
