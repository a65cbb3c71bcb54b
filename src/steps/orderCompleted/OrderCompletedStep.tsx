/**
 * Order completed (spec 001 §2): the overview (the reference, the confirmation, the tiles and more
 * events from the organiser), and its sub-views, transfer tickets and find a place to stay, each
 * with a Back link to the overview. The screen's chart (machines/orderCompleted) is the root
 * checkout's child on this step.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ActorRefFrom } from 'xstate';
import { useSelector } from '@xstate/react';
import type { orderCompletedMachine } from '../../../machines/orderCompleted/orderCompleted.machine';
import { orderCompletedSenders, viewOrderCompleted } from '../../../machines/orderCompleted/orderCompleted.connect';
import { callApi } from '../../api/client';
import { queryKey } from '../../api/queries';
import { useCheckoutData } from '../../app/checkoutContext';
import { Alert } from '../../../ui/Alert';
import { StepLayout } from '../StepLayout';
import { useStepChild } from '../useStepChild';
import { Spinner } from '../../../ui/Spinner';
import { FindAPlace } from './FindAPlace';
import { Overview } from './Overview';
import { TransferView } from './TransferView';
import { accommodationMapQuery } from './orderCompletedActors';
import '../deliverTickets/delivery.css';
import './orderCompleted.css';
import { t } from '../../../i18n/runtime.ts';

/** The sale's e-mail and reference (get_simple_info); a failure is silent (spec 001 §8). */
function useSimpleInfo() {
  return useQuery({ queryKey: queryKey('simpleInfo'), queryFn: () => callApi('getSimpleInfo'), retry: false }).data;
}

type OrderCompletedActor = ActorRefFrom<typeof orderCompletedMachine>;

export default function OrderCompletedStep() {
  const actor = useStepChild<typeof orderCompletedMachine>('orderCompleted');
  return (
    <StepLayout step="order_completed">
      {actor ? <OrderCompleted actor={actor} /> : <Spinner label={t('ui.loading')} />}
    </StepLayout>
  );
}

function OrderCompleted({ actor }: { actor: OrderCompletedActor }) {
  const view = useSelector(actor, viewOrderCompleted, sameView);
  const send = useMemo(() => orderCompletedSenders(actor.send), [actor]);
  const checkout = useCheckoutData();
  const info = useSimpleInfo();
  const map = useQuery(accommodationMapQuery()).data;
  const mapConfig = map?.url && map.affiliate_id ? { url: map.url, affiliateId: map.affiliate_id } : null;

  // Back on the overview, focus returns to the step's heading (each sub-view focuses its own).
  const previous = useRef(view.subView);
  useEffect(() => {
    if (previous.current !== 'overview' && view.subView === 'overview') document.getElementById('step-title')?.focus();
    previous.current = view.subView;
  }, [view.subView]);

  return (
    <>
      {view.subView === 'transfer_tickets' ? (
        <TransferView orderCompleted={actor} transferred={view.transferred} onBack={send.back} />
      ) : view.subView === 'find_a_place' && checkout && mapConfig ? (
        <FindAPlace
          checkout={checkout}
          config={mapConfig}
          mapEventId={view.mapEventId}
          onChoose={send.chooseMapEvent}
          onBack={send.back}
        />
      ) : (
        <Overview checkout={checkout} info={info} view={view} send={send} accommodationMap={mapConfig !== null} />
      )}
      {view.notice ? (
        // Shown where the checkout's notifications are (the page's one notifications region is the checkout's own).
        <div className="toasts order-notice">
          <div className="toasts__item">
            <Alert type={view.notice.kind} onDismiss={send.dismissNotice} dismissLabel={t('ui.dismissNotification')}>
              {view.notice.text}
            </Alert>
          </div>
        </div>
      ) : null}
    </>
  );
}

function sameView(a: ReturnType<typeof viewOrderCompleted>, b: ReturnType<typeof viewOrderCompleted>) {
  return JSON.stringify(a) === JSON.stringify(b);
}
