import { Suspense, type ComponentType } from 'react';
import type { Step } from '../../contract';
import { Spinner } from '../../ui/Spinner';
import { STEP_MODULES } from '../steps/steps';

/**
 * The screen for the machine's current step, from the steps' registry. Determining and basket are
 * what every visit starts with (in the entry); every other step's screen is its own chunk.
 */
export function StepScreen({ step }: { step: Step }) {
  const Screen = STEP_MODULES[step].Screen as ComponentType<{ step: Step }>;
  if (step === 'determining' || step === 'basket') return <Screen step={step} />;
  return (
    <Suspense
      fallback={
        <div className="step step--centred">
          <Spinner size="large" label="Loading" />
        </div>
      }
    >
      <Screen step={step} />
    </Suspense>
  );
}
