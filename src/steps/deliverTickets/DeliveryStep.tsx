import type { ActorRefFrom } from 'xstate';
import type { deliveryMachine } from '../../../machines/delivery/delivery.machine';
import { useSelector } from '@xstate/react';
import { deliverySenders, viewDelivery, type StageStatus } from '../../../machines/delivery/delivery.connect';
import { Alert } from '../../../ui/Alert';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { StepLayout } from '../StepLayout';
import { useStepChild } from '../useStepChild';
import './delivery.css';
import { t, type MessageKey } from '../../../i18n/runtime.ts';

type DeliveryActor = ActorRefFrom<typeof deliveryMachine>;

const STATE_TEXT: Record<StageStatus, MessageKey> = {
  waiting: 'delivery.state.waiting',
  delivering: 'delivery.state.delivering',
  delivered: 'delivery.state.delivered',
  failed: 'delivery.state.failed',
};

function Stage({ label, status }: { label: string; status: StageStatus }) {
  return (
    <li className={`delivery__stage delivery__stage--${status}`} data-status={status}>
      <span className="delivery__mark">
        {status === 'delivering' ? (
          <Spinner size="small" />
        ) : status === 'delivered' ? (
          <Icon name="check" />
        ) : status === 'failed' ? (
          <Icon name="close" />
        ) : (
          <Icon name="ticket" />
        )}
      </span>
      <span>{label}</span>
      <span className="delivery__state">{t(STATE_TEXT[status])}</span>
    </li>
  );
}

function DeliveryProgress({ actor }: { actor: DeliveryActor }) {
  const view = useSelector(actor, viewDelivery);
  const send = deliverySenders((event) => actor.send(event));
  return (
    <div className="card stack delivery">
      <ol className="delivery__stages" aria-live="polite">
        <Stage label={t('delivery.stage.tickets')} status={view.tickets} />
        <Stage label={t('delivery.stage.wallet')} status={view.wallet} />
      </ol>
      {view.complete ? <p className="muted">{t('delivery.takingYouOn')}</p> : null}
      {view.problem ? (
        <Alert type="error">
          {view.problem}
          {view.errorCode !== null ? (
            <p className="delivery__code">{t('delivery.errorCode', { code: view.errorCode })}</p>
          ) : null}
        </Alert>
      ) : null}
      {view.canRetry ? (
        <button type="button" className="button button--block" onClick={send.retry}>
          {t('delivery.tryAgain')}
        </button>
      ) : null}
    </div>
  );
}

/** Delivering tickets: into the ticket wallet, then the wallet by e-mail (spec 001 §2 Delivery progress). */
export default function DeliveryStep() {
  const child = useStepChild<typeof deliveryMachine>('delivery');
  return (
    <StepLayout step="deliver_tickets">
      {child ? (
        <DeliveryProgress actor={child} />
      ) : (
        <div className="card">
          <Spinner label={t('ui.loading')} />
        </div>
      )}
    </StepLayout>
  );
}
