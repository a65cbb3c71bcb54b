import type { ReactNode } from 'react';
import type { AnyActorRef } from 'xstate';
import type { Step } from '../api/contract';
import { useCheckoutData } from '../app/checkoutContext';
import { OrderSummaryPanel } from '../components/OrderSummaryPanel';

/** The frame of every step after the basket: its heading and content, with the order summary beside it. */
export function StepLayout({
  step,
  title,
  children,
  countdownRef,
  onEditBasket,
}: {
  step: Step;
  title: string;
  children: ReactNode;
  countdownRef?: AnyActorRef | undefined;
  onEditBasket?: (() => void) | undefined;
}) {
  const checkout = useCheckoutData();
  return (
    <div className="step-layout" data-step={step}>
      <section className="step step-layout__main" aria-labelledby="step-title">
        <h1 id="step-title" className="step__title">
          {title}
        </h1>
        {children}
      </section>
      {checkout ? <OrderSummaryPanel checkout={checkout} countdownRef={countdownRef} onEditBasket={onEditBasket} /> : null}
    </div>
  );
}
