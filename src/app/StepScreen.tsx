import { lazy, Suspense } from 'react';
import type { Step } from '../api/contract';
import { Spinner } from '../components/Spinner';
import { BasketStep } from '../steps/basket/BasketStep';
import { DeterminingStep } from '../steps/DeterminingStep';

// Determining and basket are what every visit starts with; every other step is its own chunk.
const CaptchaStep = lazy(() => import('../steps/captcha/CaptchaStep'));
const ReserveStep = lazy(() => import('../steps/ReserveStep'));
const LaterStep = lazy(() => import('../steps/LaterStep'));

/** The screen for the machine's current step. */
export function StepScreen({ step }: { step: Step }) {
  switch (step) {
    case 'determining':
      return <DeterminingStep />;
    case 'basket':
      return <BasketStep />;
    default:
      return (
        <Suspense
          fallback={
            <div className="step step--centred">
              <Spinner size="large" label="Loading" />
            </div>
          }
        >
          {step === 'captcha' ? <CaptchaStep /> : step === 'reserve' ? <ReserveStep /> : <LaterStep step={step} />}
        </Suspense>
      );
  }
}
