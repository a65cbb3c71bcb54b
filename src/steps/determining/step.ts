import { stepModule } from '../stepModule';
import { DeterminingStep } from './DeterminingStep';

/** The `determining` step. */
export const determining = stepModule({
  step: 'determining',
  Screen: DeterminingStep,
});
