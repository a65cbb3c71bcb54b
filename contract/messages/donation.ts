/** The donation step's messages (spec 000 §5 Donation, §8); the server's refusals of save_donation use them too. */
export const DONATION_MESSAGES = {
  chooseAmount: 'Choose an amount or click Skip donation',
  unableToSave: 'Unable to save Donation. Please try again later',
  problemSettingAmount: 'There was a problem setting your donation amount. Please try again.',
  selectAnAmount: 'Please select an amount.',
};

/** The Gift Aid step's messages (spec 000 §8); the server's refusals of update_donation use them too. */
export const GIFT_AID_MESSAGES = {
  unableToUpdate: 'Unable to update Donation. Please try again later',
  problemSettingStatus: 'There was a problem setting your gift aid status. Please try again.',
};

/** The spec gives no texts for the Gift Aid form's own rules (spec 000 §5); these say what is missing, by field. */
export const GIFT_AID_FIELD_MESSAGES = {
  confirmations: 'Please confirm all three statements to add Gift Aid',
  address1: 'Type the first line of your address',
  postcode: 'Type your postcode',
  overseasAddress: 'Type your address',
};
