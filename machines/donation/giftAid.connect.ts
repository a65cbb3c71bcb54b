/** What the Gift Aid screen shows, and the events it may send. */
import type { SnapshotFrom } from 'xstate';
import {
  GIFT_AID_ADDRESS_FROM,
  giftAidProblems,
  giftAidUplift,
  type GiftAidField,
  type GiftAidForm,
} from '../../contract/donation';
import type { Confirmation, GiftAidEvent, GiftAidTextField, giftAidMachine } from './giftAid.machine';
import { GIFT_AID_FIELD_MESSAGES } from '../../contract/messages/donation';

export interface GiftAidView {
  form: GiftAidForm;
  /** What Gift Aid adds to the donation (25 %), minor units. */
  uplift: number;
  /** Whether this donation needs the donor's address (20 or more) when Gift Aid is on. */
  addressNeeded: boolean;
  /** The rules' messages by field, once the buyer has tried to continue. */
  problems: Partial<Record<GiftAidField, string>>;
  problem: string | null;
  saving: boolean;
}

/** The donation amount comes from the checkout (server data), not from the chart. */
export function viewGiftAid(snapshot: SnapshotFrom<typeof giftAidMachine>, donationAmount: number): GiftAidView {
  const { form, showProblems, problem } = snapshot.context;
  return {
    form,
    uplift: giftAidUplift(donationAmount),
    addressNeeded: donationAmount >= GIFT_AID_ADDRESS_FROM,
    problems: showProblems
      ? Object.fromEntries(
          giftAidProblems(form, donationAmount).map((field) => [field, GIFT_AID_FIELD_MESSAGES[field]]),
        )
      : {},
    problem,
    saving: snapshot.hasTag('saving'),
  };
}

export function giftAidSenders(send: (event: GiftAidEvent) => void) {
  return {
    toggleGiftAid: (on: boolean) => send({ type: 'GIFT_AID_TOGGLED', on }),
    toggleConfirmation: (which: Confirmation, checked: boolean) =>
      send({ type: 'CONFIRMATION_TOGGLED', which, checked }),
    chooseResidence: (ukBased: boolean) => send({ type: 'RESIDENCE_CHOSEN', ukBased }),
    typeField: (field: GiftAidTextField, value: string) => send({ type: 'FIELD_TYPED', field, value }),
    toggleSubscribe: (checked: boolean) => send({ type: 'SUBSCRIBE_TOGGLED', checked }),
    continueStep: (donationAmount: number) => send({ type: 'CONTINUE_CLICKED', donationAmount }),
  };
}
