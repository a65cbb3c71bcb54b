/** The delivery screen's messages and the support code shown with a delivery that did not complete (spec 001 §8). */
import { messages } from '../../i18n/lazy.ts';
import { t } from '../../i18n/runtime.ts';

export const DELIVERY_MESSAGES = messages({
  unableToDeliverToBitTicket: 'delivery.unableToDeliverToBitTicket',
  unableToDeliverToWallet: 'delivery.unableToDeliverToWallet',
  deliveryFailed: 'delivery.deliveryFailed',
});

export const DELIVERY_FAILED_CODE = 2961;

/** The order-completed screen that follows delivery (spec 001 §2 Order completed). */
export const ORDER_COMPLETED_MESSAGES = {
  reference: (saleReference: string) => t('delivery.reference', { saleReference }),
  get complete() {
    return t('delivery.complete');
  },
  walletSent: (email: string) => t('delivery.walletSent', { email }),
};
