import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `waiver` step. */
export const waiver = stepModule({
  step: 'waiver',
  title: 'Activity terms and conditions',
  Screen: lazy(() => import('./WaiverStep')),
});
