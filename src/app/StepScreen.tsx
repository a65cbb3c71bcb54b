import { lazy, Suspense, type ComponentType } from 'react';
import type { Step } from '../../contract';
import { Spinner } from '../../ui/Spinner';
import { basket } from '../steps/basket/step';
import { determining } from '../steps/determining/step';
import { t } from '../../i18n/runtime.ts';

/**
 * A later step's screen, from the steps' registry (`src/steps/steps.ts`), which is a chunk of its
 * own: every visit starts at determining or the basket, whose modules are in the entry, and the
 * rest of the registry loads with the first later step (or the reservation's chart, before it).
 */
const LaterStep = lazy(async () => {
  const { STEP_MODULES } = await import('../steps/steps');
  function LaterStepScreen({ step }: { step: Step }) {
    const Screen = STEP_MODULES[step].Screen as ComponentType<{ step: Step }>;
    return <Screen step={step} />;
  }
  return { default: LaterStepScreen };
});

/** The screen for the machine's current step; every step but determining and the basket is its own chunk. */
export function StepScreen({ step }: { step: Step }) {
  if (step === 'determining') return <determining.Screen step={step} />;
  if (step === 'basket') return <basket.Screen step={step} />;
  return (
    <Suspense
      fallback={
        <div className="step step--centred">
          <Spinner size="large" label={t('ui.loading')} />
        </div>
      }
    >
      <LaterStep step={step} />
    </Suspense>
  );
}
