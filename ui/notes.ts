import { t } from '../i18n/runtime.ts';
/** The notes the tooltips give (what the refund policy and the purchase terms section 4.10 say). */
export const bookingFeeNote = () => t('summary.bookingFeeNote');
export const nonRefundableNote = () => t('basket.nonRefundableNote');
