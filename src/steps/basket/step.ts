import { stepModule } from '../stepModule';
import { BasketStep } from './BasketStep';

/** The `basket` step. */
export const basket = stepModule({
  step: 'basket',
  Screen: BasketStep,
});
