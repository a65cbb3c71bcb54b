import { LoadingButton } from '../../ui/LoadingButton';
import { useCheckoutActor, useCheckoutView } from '../app/checkoutContext';
import { StepLayout } from './StepLayout';
import { canEditBasketOn, LATER_STEP_TITLES, type LaterStep as LaterStepName } from './stepTitles';

/** A step after the reservation whose own screen comes later: its heading, the summary and 'Continue'. */
export default function LaterStep({ step }: { step: LaterStepName }) {
  const actor = useCheckoutActor();
  const view = useCheckoutView();
  const title = LATER_STEP_TITLES[step];
  return (
    <StepLayout
      step={step}
      title={title}
      countdownRef={view.countdownRef}
      onEditBasket={canEditBasketOn(step) ? () => actor.send({ type: 'EDIT_BASKET_CONFIRMED' }) : undefined}
    >
      <div className="card">
        <LoadingButton
          loading={view.isAdvancing}
          className="button--block"
          onClick={() => actor.send({ type: 'STEP_COMPLETED' })}
        >
          Continue
        </LoadingButton>
      </div>
    </StepLayout>
  );
}
