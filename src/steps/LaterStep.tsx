import { LoadingButton } from '../components/LoadingButton';
import { OrderSummaryPanel } from '../components/OrderSummaryPanel';
import { useCheckoutActor, useCheckoutData, useCheckoutView } from '../app/checkoutContext';
import { canEditBasketOn, LATER_STEP_TITLES, type LaterStep as LaterStepName } from './stepTitles';

/** A step after the reservation whose own screen comes later: its heading, the summary and 'Continue'. */
export default function LaterStep({ step }: { step: LaterStepName }) {
  const actor = useCheckoutActor();
  const view = useCheckoutView();
  const checkout = useCheckoutData();
  const title = LATER_STEP_TITLES[step];
  return (
    <div className="step-layout" data-step={step}>
      <section className="step step-layout__main" aria-labelledby="step-title">
        <h1 id="step-title" className="step__title">
          {title}
        </h1>
        <div className="card">
          <LoadingButton
            loading={view.isAdvancing}
            className="button--block"
            onClick={() => actor.send({ type: 'STEP_COMPLETED' })}
          >
            Continue
          </LoadingButton>
        </div>
      </section>
      {checkout ? (
        <OrderSummaryPanel
          checkout={checkout}
          countdownRef={view.countdownRef}
          onEditBasket={canEditBasketOn(step) ? () => actor.send({ type: 'EDIT_BASKET_CONFIRMED' }) : undefined}
        />
      ) : null}
    </div>
  );
}
