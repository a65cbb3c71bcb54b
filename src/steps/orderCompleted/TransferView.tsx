/** The transfer_tickets sub-view: the transfer form, loaded when first opened, under its own heading. */
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Spinner } from '../../../ui/Spinner';
import { BackLink } from './BackLink';

// The transfer form is its own chunk, loaded only when a buyer opens it.
const TransferTickets = lazy(() => import('./transfer/TransferTickets'));

export function TransferView({ onBack, onTransferred }: { onBack: () => void; onTransferred: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="order-subview" aria-labelledby="transfer-title">
      <BackLink onBack={onBack} />
      <h2 id="transfer-title" className="order-subview__title" tabIndex={-1} ref={heading}>
        Transfer tickets
      </h2>
      <Suspense fallback={<Spinner label="Loading" />}>
        <TransferTickets onBack={onBack} onTransferred={onTransferred} />
      </Suspense>
    </section>
  );
}
