import type { ReactNode } from 'react';
import type { Step } from '../../contract';
import { stepRow } from '../../contract/steps';
import { basketEditableOn } from '../../machines/checkout/checkout.connect';
import { useCheckout, useCheckoutData } from '../app/checkoutContext';
import { OrderSummaryPanel } from '../components/OrderSummaryPanel';
import { t } from '../../i18n/runtime.ts';
import { useHeadingFocus } from './useHeadingFocus';

/**
 * The frame of every step after the basket: its heading and content, with the order summary beside it.
 * The heading takes focus when the step replaces another. All it needs is the step: its heading is the
 * step's title (`step.<step>` in the catalogue) unless the screen gives another, the hold's countdown
 * shows on a step that holds the tickets (the step table's `holdsTickets`), and 'Edit basket' is offered
 * on a step whose state in the root chart carries the `basketEditable` tag, while the chart accepts it.
 */
export function StepLayout({
  step,
  title,
  children,
}: {
  step: Step;
  /** A heading other than the step's title: the charity's own, the payment's by method. */
  title?: string | undefined;
  children: ReactNode;
}) {
  const checkout = useCheckoutData();
  const view = useCheckout();
  // Every step that replaces another starts with focus on its heading.
  const headingRef = useHeadingFocus();
  const countdownRef = stepRow(step)?.holdsTickets ? view.countdownRef : undefined;
  const onEditBasket = basketEditableOn(step) && view.canEditBasket ? view.editBasket : undefined;
  return (
    <div className="step-layout" data-step={step}>
      <section className="step step-layout__main" aria-labelledby="step-title">
        <h1 id="step-title" className="step__title" tabIndex={-1} ref={headingRef}>
          {title ?? t(`step.${step}`)}
        </h1>
        {children}
      </section>
      {checkout ? (
        <OrderSummaryPanel checkout={checkout} countdownRef={countdownRef} onEditBasket={onEditBasket} />
      ) : null}
    </div>
  );
}
