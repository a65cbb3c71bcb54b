/** The bank-transfer waiting screen's words (spec 001 §2 Bank transfer waiting, §4 Bank transfer status, §8). */
import { messages } from '../../i18n/lazy.ts';

export const BANK_TRANSFER_MESSAGES = messages({
  cancelled: 'bankTransfer.cancelled',
  unableToGetStatus: 'bankTransfer.unableToGetStatus',
  expired: 'bankTransfer.expired',
  afterThree: 'bankTransfer.afterThree',
  afterSix: 'bankTransfer.afterSix',
  afterNine: 'bankTransfer.afterNine',
  tryDifferentMethod: 'bankTransfer.tryDifferentMethod',
  /* Not worded by the spec: the first wait, the stop at 60, the success and the default failure. */
  waiting: 'bankTransfer.waiting',
  notYetConfirmed: 'bankTransfer.notYetConfirmed',
  succeeded: 'bankTransfer.succeeded',
  failed: 'bankTransfer.failed',
});
