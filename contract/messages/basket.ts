/** The basket rules' messages (spec 000 §5 "Basket"), shown beside a line or above the basket. */
import { messages } from '../../i18n/lazy.ts';
import { t } from '../../i18n/runtime.ts';

export const requiredTicketsMessage = () => t('basket.requiredTickets');
export const maximumWarning = (n: number) => t('basket.maximumWarning', { n });
export const minimumWarning = (n: number) => t('basket.minimumWarning', { n });

/** The spec's notifications when a basket call fails (spec 000 §8), by the call that failed. */
export const BASKET_FAILURES = messages({
  updateTicketQuantity: 'basket.failure.updateTicketQuantity',
  updateGiftVoucherQuantity: 'basket.failure.updateGiftVoucherQuantity',
  updateRefundProtection: 'basket.failure.updateRefundProtection',
  setCode: 'basket.failure.setCode',
  removeFromBasket: 'basket.failure.removeFromBasket',
  removeGiftVoucherFromBasket: 'basket.failure.removeGiftVoucherFromBasket',
});
