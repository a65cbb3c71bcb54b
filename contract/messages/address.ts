/** The address form's messages, delivery and billing, keyed as `addressProblems` names them (spec 001 §5 Address and Gift voucher, §8). */
import { messages } from '../../i18n/lazy.ts';

export const ADDRESS_MESSAGES = messages({
  unableToSetDelivery: 'address.unableToSetDelivery',
  /** Billing (spec 001 §5, §8); the payment step shows them too. */
  completeAddress: 'address.completeAddress',
  billingPostcode: 'address.billingPostcode',
  unableToFindBilling: 'address.unableToFindBilling',
  voucherFrom: 'address.voucherFrom',
  voucherTo: 'address.voucherTo',
  /*
   * Spec 001 §5 says the delivery messages ask for the recipients' first name, last name, first
   * line of address, town/city, postcode and state, without giving their words; these are ours.
   */
  firstName: 'address.firstName',
  lastName: 'address.lastName',
  address1: 'address.address1',
  town: 'address.town',
  postcode: 'address.postcode',
  state: 'address.state',
  country: 'address.country',
  /* Our words for a saved address that was deleted meanwhile, which the spec does not give. */
  savedAddressGone: 'address.savedAddressGone',
});
