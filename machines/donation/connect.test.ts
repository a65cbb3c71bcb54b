import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { donationSenders, viewDonation } from './donation.connect';
import { donationMachine } from './donation.machine';
import { giftAidSenders, viewGiftAid } from './giftAid.connect';
import { giftAidMachine } from './giftAid.machine';

/** The screens' buttons and fields, each as the event the spec's action is. */
describe('donation and Gift Aid senders', () => {
  it('turn each donation control into its event', () => {
    const sent: unknown[] = [];
    const send = donationSenders((event) => sent.push(event));
    send.choosePreset(500);
    send.typeCustom('12.50');
    send.donate(7);
    send.skip();
    expect(sent).toEqual([
      { type: 'PRESET_CHOSEN', amount: 500 },
      { type: 'CUSTOM_AMOUNT_TYPED', text: '12.50' },
      { type: 'DONATE_CLICKED', charityId: 7 },
      { type: 'SKIP_CLICKED' },
    ]);
  });

  it('turn each Gift Aid control into its event', () => {
    const sent: unknown[] = [];
    const send = giftAidSenders((event) => sent.push(event));
    send.toggleGiftAid(true);
    send.toggleConfirmation('ownMoney', true);
    send.chooseResidence(false);
    send.typeField('overseasAddress', '4 Rue X');
    send.toggleSubscribe(true);
    send.continueStep(2500);
    expect(sent).toEqual([
      { type: 'GIFT_AID_TOGGLED', on: true },
      { type: 'CONFIRMATION_TOGGLED', which: 'ownMoney', checked: true },
      { type: 'RESIDENCE_CHOSEN', ukBased: false },
      { type: 'FIELD_TYPED', field: 'overseasAddress', value: '4 Rue X' },
      { type: 'SUBSCRIBE_TOGGLED', checked: true },
      { type: 'CONTINUE_CLICKED', donationAmount: 2500 },
    ]);
  });

  it('show a fresh donation with nothing chosen, and Gift Aid’s 25 % and address rule from the amount', () => {
    const donation = createActor(donationMachine).start();
    expect(viewDonation(donation.getSnapshot())).toEqual({
      preset: null,
      custom: '',
      amount: null,
      problem: null,
      saving: false,
    });
    const giftAid = createActor(giftAidMachine).start();
    expect(viewGiftAid(giftAid.getSnapshot(), 1999)).toMatchObject({
      uplift: 500,
      addressNeeded: false,
      problems: {},
      saving: false,
    });
    expect(viewGiftAid(giftAid.getSnapshot(), 2000)).toMatchObject({ uplift: 500, addressNeeded: true });
    expect(viewGiftAid(giftAid.getSnapshot(), 1999).form.isGiftAid).toBe(false);
  });
});
