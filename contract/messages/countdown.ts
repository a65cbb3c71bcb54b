/** What the reservation countdown says and shows (spec 000 §2 countdown), in the catalogue. */
import { messages } from '../../i18n/lazy.ts';
import { t } from '../../i18n/runtime.ts';

export const COUNTDOWN_MESSAGES = messages({
  timeUp: 'countdown.timeUp',
  lastMinute: 'countdown.lastMinute',
  moreTimeOffer: 'countdown.moreTimeOffer',
  /** Shown and said while a started payment keeps the hold (up to the grace past its deadline). */
  paymentInProgress: 'countdown.paymentInProgress',
});

/** 'N minutes left to complete your order.', the plural in the buyer's language. */
export const minutesLeftMessage = (minutes: number) => t('countdown.minutesLeft', { minutes });
