/** The donation step's messages (spec 000 §5 Donation, §8); the server's refusals of save_donation use them too. */
import { messages } from '../../i18n/lazy.ts';

export const DONATION_MESSAGES = messages({
  chooseAmount: 'donation.chooseAmount',
  unableToSave: 'donation.unableToSave',
  problemSettingAmount: 'donation.problemSettingAmount',
  selectAnAmount: 'donation.selectAnAmount',
});

/** The Gift Aid step's messages (spec 000 §8); the server's refusals of update_donation use them too. */
export const GIFT_AID_MESSAGES = messages({
  unableToUpdate: 'giftAid.unableToUpdate',
  problemSettingStatus: 'giftAid.problemSettingStatus',
});

/** The spec gives no texts for the Gift Aid form's own rules (spec 000 §5); these say what is missing, by field. */
export const GIFT_AID_FIELD_MESSAGES = messages({
  confirmations: 'giftAid.confirmations',
  address1: 'giftAid.address1',
  postcode: 'giftAid.postcode',
  overseasAddress: 'giftAid.overseasAddress',
});
