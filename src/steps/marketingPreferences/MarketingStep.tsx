/** Keep updated (spec 000 §2): event updates, each basket organiser's own sign-up, the newsletter. */
import { useMemo } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { connectMarketing } from '../../../machines/marketing/marketing.connect';
import type { marketingMachine } from '../../../machines/marketing/marketing.machine';
import { Alert } from '../../../ui/Alert';
import { LoadingButton } from '../../../ui/LoadingButton';
import { Spinner } from '../../../ui/Spinner';
import { StepLayout } from '../StepLayout';
import { useStepChild } from '../useStepChild';
import './marketing.css';
import { t } from '../../../i18n/runtime.ts';
import { rich } from '../../../ui/rich.tsx';

function Preferences({ actor }: { actor: ActorRefFrom<typeof marketingMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = useMemo(() => connectMarketing(snapshot, actor.send), [snapshot, actor]);
  if (view.loading) {
    return (
      <div className="card step--centred">
        <Spinner label={t('ui.loading')} />
      </div>
    );
  }
  return (
    <form className="card stack marketing" noValidate onSubmit={(e) => e.preventDefault()}>
      <fieldset className="marketing__boxes" disabled={view.saving}>
        <legend className="visually-hidden">{t('marketing.legend')}</legend>
        {view.eventUpdates.shown ? (
          <label className="marketing__box">
            <input type="checkbox" checked={view.eventUpdates.checked} onChange={view.toggleEventUpdates} />
            <span>{rich('marketing.eventUpdates', {}, { tag: (text) => <span className="tag">{text}</span> })}</span>
          </label>
        ) : null}
        {view.organisers.map((o) => (
          <label key={o.id} className="marketing__box">
            <input type="checkbox" checked={o.checked} onChange={() => view.toggleOrganiser(o.id)} />
            <span>{o.message}</span>
          </label>
        ))}
        {view.newsletter.shown ? (
          <label className="marketing__box">
            <input type="checkbox" checked={view.newsletter.checked} onChange={view.toggleNewsletter} />
            <span>{t('marketing.newsletter')}</span>
          </label>
        ) : null}
      </fieldset>
      {view.error ? <Alert type="error">{view.error}</Alert> : null}
      <LoadingButton loading={view.saving} className="button--block" onClick={view.save}>
        {t('ui.continue')}
      </LoadingButton>
    </form>
  );
}

export default function MarketingStep() {
  const child = useStepChild<typeof marketingMachine>('marketing');
  return (
    <StepLayout step="marketing_preferences">
      {child ? (
        <Preferences actor={child} />
      ) : (
        <div className="card step--centred">
          <Spinner label={t('ui.loading')} />
        </div>
      )}
    </StepLayout>
  );
}
