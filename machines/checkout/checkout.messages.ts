/** The root chart's texts live with the other spec strings in the contract; the root reads them from here. */
export { MESSAGES } from '../../contract/messages/checkout.ts';
