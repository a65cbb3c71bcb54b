import type { ActorRefFrom } from 'xstate';
import type { deliveryMachine } from '../../../machines/delivery/delivery.machine';
import { useSelector } from '@xstate/react';
import { deliverySenders, viewDelivery, type StageStatus } from '../../../machines/delivery/delivery.connect';
import { Alert } from '../../../ui/Alert';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { useCheckout } from '../../app/checkoutContext';
import { StepLayout } from '../StepLayout';
import { stepTitle } from '../steps';
import { useStepChild } from '../useStepChild';
import './delivery.css';

type DeliveryActor = ActorRefFrom<typeof deliveryMachine>;

const STATE_TEXT: Record<StageStatus, string> = {
  waiting: 'Waiting',
  delivering: 'In progress',
  delivered: 'Done',
  failed: 'Not delivered',
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
      <span className="delivery__state">{STATE_TEXT[status]}</span>
    </li>
  );
}

function DeliveryProgress({ actor }: { actor: DeliveryActor }) {
  const view = useSelector(actor, viewDelivery);
  const send = deliverySenders((event) => actor.send(event));
  return (
    <div className="card stack delivery">
      <ol className="delivery__stages" aria-live="polite">
        <Stage label="Delivering your tickets to your ticket wallet" status={view.tickets} />
        <Stage label="Sending your ticket wallet by e-mail" status={view.wallet} />
      </ol>
      {view.complete ? <p className="muted">Your tickets are delivered. Taking you on…</p> : null}
      {view.problem ? (
        <Alert type="error">
          {view.problem}
          {view.errorCode !== null ? <p className="delivery__code">Error code {view.errorCode}</p> : null}
        </Alert>
      ) : null}
      {view.canRetry ? (
        <button type="button" className="button button--block" onClick={send.retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** Delivering tickets: into the ticket wallet, then the wallet by e-mail (spec 001 §2 Delivery progress). */
export default function DeliveryStep() {
  const root = useCheckout();
  const child = useStepChild<typeof deliveryMachine>('delivery');
  return (
    <StepLayout step="deliver_tickets" title={stepTitle('deliver_tickets')} countdownRef={root.countdownRef}>
      {child ? (
        <DeliveryProgress actor={child} />
      ) : (
        <div className="card">
          <Spinner label="Loading" />
        </div>
      )}
    </StepLayout>
  );
}
