import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `after_sale_messages` step. */
export const afterSaleMessages = stepModule({
  step: 'after_sale_messages',
  Screen: lazy(() => import('./AfterSaleMessagesStep')),
});
