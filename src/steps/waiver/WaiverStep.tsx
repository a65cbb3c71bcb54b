/**
 * The waiver step (spec 001 §2 "Waiver (Activity Terms and Conditions)"): the sale's waiver link,
 * which opens the organisers' activity terms, with copy-link and share buttons so the buyer can
 * pass it to everyone taking part, and Continue.
 */
import { useSelector } from '@xstate/react';
import { waiverPath } from '../../../contract';
import { WAIVER_MESSAGES } from '../../../contract/messages/waiver';
import { viewWaiver, waiverSenders } from '../../../machines/waiver/waiver.connect';
import type { waiverMachine } from '../../../machines/waiver/waiver.machine';
import { Icon } from '../../../ui/Icon';
import { LoadingButton } from '../../../ui/LoadingButton';
import { useCheckout, useCheckoutData } from '../../app/checkoutContext';
import { Field } from '../../components/Field';
import { StepLayout } from '../StepLayout';
import { useStepChild } from '../useStepChild';
import './waiver.css';
import { t } from '../../../i18n/runtime.ts';

export default function WaiverStep() {
  const view = useCheckout();
  const checkout = useCheckoutData();
  const title = t('step.waiver');
  const actor = useStepChild<typeof waiverMachine>('waiver');
  const waiver = viewWaiver(useSelector(actor, (s) => s));
  const send = waiverSenders(actor);
  const reference = checkout?.sale_reference ?? null;
  const link = reference ? new URL(waiverPath(reference), window.location.origin).href : null;
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  return (
    <StepLayout step="waiver">
      {link ? (
        <div className="card stack waiver">
          <p>{t('waiver.lead')}</p>
          <p>
            <a className="inline-link waiver__link" href={link} target="_blank" rel="noopener">
              {t('waiver.read')}
              <span className="visually-hidden">{t('waiver.newTab')}</span>
            </a>
          </p>
          <Field label={t('waiver.linkLabel')}>
            {(control) => (
              <input
                {...control}
                className="input waiver__url"
                type="text"
                readOnly
                value={link}
                onFocus={(e) => e.currentTarget.select()}
              />
            )}
          </Field>
          <div className="waiver__actions">
            <button
              type="button"
              className="button button--secondary"
              disabled={waiver.copying}
              onClick={() => send.copyLink(link)}
            >
              <Icon name="copy" />
              {WAIVER_MESSAGES.copyLink}
            </button>
            {canShare ? (
              <button type="button" className="button button--secondary" onClick={() => send.share(link, title)}>
                <Icon name="share" />
                {WAIVER_MESSAGES.share}
              </button>
            ) : (
              // Without the device's share sheet the link goes by e-mail.
              <a
                className="button button--secondary"
                href={`mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(link)}`}
              >
                <Icon name="share" />
                {WAIVER_MESSAGES.shareByEmail}
              </a>
            )}
          </div>
        </div>
      ) : null}
      <div className="card">
        <LoadingButton loading={view.isAdvancing} className="button--block" onClick={view.continueStep}>
          {t('ui.continue')}
        </LoadingButton>
      </div>
    </StepLayout>
  );
}
