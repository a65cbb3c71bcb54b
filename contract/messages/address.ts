/** The address form's messages, delivery and billing, keyed as `addressProblems` names them (spec 001 §5 Address and Gift voucher, §8). */
export const ADDRESS_MESSAGES = {
  unableToSetDelivery: 'Unable to set the delivery Address. Please try again later',
  /** Billing (spec 001 §5, §8); the payment step shows them too. */
  completeAddress: 'Please complete your address',
  billingPostcode: 'Type your postcode or zip code',
  unableToFindBilling: 'We were unable to find your address. Please try a different address',
  voucherFrom: 'Who is the gift voucher from?',
  voucherTo: 'Who is the gift voucher for?',
  /*
   * Spec 001 §5 says the delivery messages ask for the recipients' first name, last name, first
   * line of address, town/city, postcode and state, without giving their words; these are ours.
   */
  firstName: "Type the recipient's first name",
  lastName: "Type the recipient's last name",
  address1: 'Type the first line of the address',
  town: 'Type the town or city',
  postcode: 'Type the postcode',
  state: 'Choose the state',
  country: 'Choose the country',
  /* Our words for a saved address that was deleted meanwhile, which the spec does not give. */
  savedAddressGone: 'That saved address is no longer available. Choose another or enter a new one.',
};
