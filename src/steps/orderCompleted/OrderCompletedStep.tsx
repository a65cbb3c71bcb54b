/**
 * Order completed (spec 001 §2): the overview (the reference, the confirmation, the tiles and more
 * events from the organiser), and its sub-views, transfer tickets and find a place to stay, each
 * with a Back link to the overview. The screen's chart (machines/orderCompleted) is created here,
 * in this step's own chunk.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { orderCompletedSenders, viewOrderCompleted } from '../../../machines/orderCompleted/orderCompleted.connect';
import { callApi } from '../../api/client';
import { useCheckoutData } from '../../app/checkoutContext';
import { Alert } from '../../../ui/Alert';
import { StepLayout } from '../StepLayout';
import { LATER_STEP_TITLES } from '../stepTitles';
import { FindAPlace } from './FindAPlace';
import { Overview } from './Overview';
import { TransferView } from './TransferView';
import { accommodationMapQuery, appOrderCompletedMachine } from './orderCompletedActors';
import '../delivery/delivery.css';
import './orderCompleted.css';

/** The sale's e-mail and reference (get_simple_info); a failure is silent (spec 001 §8). */
function useSimpleInfo() {
  return useQuery({ queryKey: ['simpleInfo'] as const, queryFn: () => callApi('getSimpleInfo'), retry: false }).data;
}

export default function OrderCompletedStep() {
  const queryClient = useQueryClient();
  const machine = useMemo(() => appOrderCompletedMachine(queryClient), [queryClient]);
  const actor = useActorRef(machine);
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
    <StepLayout step="order_completed" title={LATER_STEP_TITLES.order_completed}>
      {view.subView === 'transfer_tickets' ? (
        <TransferView onBack={send.back} onTransferred={send.transferred} />
      ) : view.subView === 'find_a_place' && checkout && mapConfig ? (
        <FindAPlace checkout={checkout} config={mapConfig} mapEventId={view.mapEventId} onChoose={send.chooseMapEvent} onBack={send.back} />
      ) : (
        <Overview checkout={checkout} info={info} view={view} send={send} accommodationMap={mapConfig !== null} />
      )}
      {view.notice ? (
        // Shown where the checkout's notifications are (the page's one notifications region is the checkout's own).
        <div className="toasts order-notice">
          <div className="toasts__item">
            <Alert type={view.notice.kind} onDismiss={send.dismissNotice} dismissLabel="Dismiss notification">
              {view.notice.text}
            </Alert>
          </div>
        </div>
      ) : null}
    </StepLayout>
  );
}

function sameView(a: ReturnType<typeof viewOrderCompleted>, b: ReturnType<typeof viewOrderCompleted>) {
  return JSON.stringify(a) === JSON.stringify(b);
}
