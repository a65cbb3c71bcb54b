/** The transfer screen's words (spec 001 §2 Transfer tickets, §5 Transfer row, §8). */
import { messages } from '../../i18n/lazy.ts';

export const TRANSFER_MESSAGES = messages({
  isGift: 'transfers.isGift',
  sendNow: 'transfers.sendNow',
  schedule: 'transfers.schedule',
  message: 'transfers.message',
  sendTickets: 'transfers.sendTickets',
  transferred: 'transfers.transferred',
  enterName: 'transfers.enterName',
  enterEmail: 'transfers.enterEmail',
  enterDate: 'transfers.enterDate',
  enterTime: 'transfers.enterTime',
  /** Spec 001 §5 says a delivery date cannot be in the past; its words for that are not shown. */
  pastDate: 'transfers.pastDate',
  unableToSend: 'transfers.unableToSend',
  fullName: 'transfers.fullName',
  email: 'transfers.email',
  deliveryDate: 'transfers.deliveryDate',
  deliveryTime: 'transfers.deliveryTime',
});
