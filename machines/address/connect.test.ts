import { describe, expect, it } from 'vitest';
import { addressSenders } from './address.connect';
import { ADDRESS_MESSAGES } from '../../contract/messages/address';

/** The address form's controls, each as the event of the spec's action (spec 000 §2 Delivery address, §4 lookup). */
describe('address senders', () => {
  it('turn each control into its event', () => {
    const sent: unknown[] = [];
    const send = addressSenders((event) => sent.push(event));
    send.chooseSaved(4);
    send.deleteSaved(4);
    send.typeQuery('GL7 1AB');
    send.find();
    send.pick(2);
    send.enterManually();
    send.findAgain();
    send.typeField('town', 'Cirencester');
    send.leaveField('postcode');
    send.typeVoucherName('gift_voucher_to', 'Sam');
    send.continue(true);
    expect(sent).toEqual([
      { type: 'SAVED_ADDRESS_CHOSEN', selection: 4 },
      { type: 'DELETE_CLICKED', addressId: 4 },
      { type: 'QUERY_TYPED', text: 'GL7 1AB' },
      { type: 'FIND_CLICKED' },
      { type: 'ADDRESS_PICKED', index: 2 },
      { type: 'ENTER_MANUALLY_CLICKED' },
      { type: 'FIND_AGAIN_CLICKED' },
      { type: 'FIELD_TYPED', field: 'town', value: 'Cirencester' },
      { type: 'FIELD_LEFT', field: 'postcode' },
      { type: 'VOUCHER_NAME_TYPED', field: 'gift_voucher_to', value: 'Sam' },
      { type: 'CONTINUE_CLICKED', giftVouchers: true },
    ]);
  });
});

/** The server's refusal of a saved address deleted meanwhile, which the form shows as sent (ours: the spec gives no words). */
describe('saved address gone', () => {
  it('tells the buyer to choose another address or enter a new one', () => {
    expect(ADDRESS_MESSAGES.savedAddressGone).toBe(
      'That saved address is no longer available. Choose another or enter a new one.',
    );
  });
});
