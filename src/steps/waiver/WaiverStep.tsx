import { LoadingButton } from '../../../ui/LoadingButton';
import { useCheckout } from '../../app/checkoutContext';
import { StepLayout } from '../StepLayout';
import { stepModuleOf } from '../steps';

/** The activity terms and conditions: the heading, the summary and 'Continue'. */
export default function WaiverStep() {
  const view = useCheckout();
  const { title, basketEditable } = stepModuleOf('waiver');
  return (
    <StepLayout step="waiver" title={title} countdownRef={view.countdownRef} onEditBasket={basketEditable ? view.editBasket : undefined}>
      <div className="card">
        <LoadingButton loading={view.isAdvancing} className="button--block" onClick={view.continueStep}>
          Continue
        </LoadingButton>
      </div>
    </StepLayout>
  );
}
