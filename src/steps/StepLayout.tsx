import type { ReactNode } from 'react';
import type { AnyActorRef } from 'xstate';
import type { Step } from '../../contract';
import { useCheckoutData } from '../app/checkoutContext';
import { OrderSummaryPanel } from '../components/OrderSummaryPanel';
import { useHeadingFocus } from './useHeadingFocus';

/**
 * The frame of every step after the basket: its heading and content, with the order summary beside it.
 * The heading takes focus when the step replaces another.
 */
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
  // Every step that replaces another starts with focus on its heading.
  const headingRef = useHeadingFocus();
  return (
    <div className="step-layout" data-step={step}>
      <section className="step step-layout__main" aria-labelledby="step-title">
        <h1 id="step-title" className="step__title" tabIndex={-1} ref={headingRef}>
          {title}
        </h1>
        {children}
      </section>
      {checkout ? <OrderSummaryPanel checkout={checkout} countdownRef={countdownRef} onEditBasket={onEditBasket} /> : null}
    </div>
  );
}
