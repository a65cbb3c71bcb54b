/** The transfer_tickets sub-view: the transfer form, loaded when first opened, under its own heading. */
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { orderCompletedMachine } from '../../../machines/orderCompleted/orderCompleted.machine';
import type { transfersMachine } from '../../../machines/transfers/transfers.machine';
import { Spinner } from '../../../ui/Spinner';
import { BackLink } from './BackLink';
import { t } from '../../../i18n/runtime.ts';

// The transfer form is its own chunk, loaded only when a buyer opens it.
const TransferTickets = lazy(() => import('./transfer/TransferTickets'));

/**
 * The form is the order-completed chart's child `transfers` while it runs; once it has sent the
 * tickets it ends, and the sub-view says so (`transferred`).
 */
export function TransferView({
  orderCompleted,
  transferred,
  onBack,
}: {
  orderCompleted: ActorRefFrom<typeof orderCompletedMachine>;
  transferred: boolean;
  onBack: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const form = useSelector(orderCompleted, (s) => s.children.transfers) as
    ActorRefFrom<typeof transfersMachine> | undefined;
  return (
    <section className="order-subview" aria-labelledby="transfer-title">
      <BackLink onBack={onBack} />
      <h2 id="transfer-title" className="order-subview__title" tabIndex={-1} ref={heading}>
        {t('completed.transfer')}
      </h2>
      <Suspense fallback={<Spinner label={t('ui.loading')} />}>
        <TransferTickets form={form} transferred={transferred} onBack={onBack} />
      </Suspense>
    </section>
  );
}
