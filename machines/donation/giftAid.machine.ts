/**
 * The Gift Aid step (spec 000 §2 Gift Aid step, §5 Gift Aid): the toggle, its three
 * confirmations, a UK or overseas address when the donation is 20 or more, and the charity's
 * newsletter box; sent with update_donation. The rules are the contract's `giftAidProblems`;
 * they are shown once the buyer has tried to continue.
 */
import { assertEvent, assign, setup } from 'xstate';
import { giftAidPayload, giftAidProblems, type GiftAidForm, type RequestOf, type ResponseOf } from '../../contract';
import { GIFT_AID_MESSAGES } from '../../contract/messages/donation';
import { providedByApp } from '../providedByApp';

export type Confirmation = keyof GiftAidForm['confirmations'];
export type GiftAidTextField = 'address1' | 'postcode' | 'overseasAddress';

export type GiftAidEvent =
  | { type: 'GIFT_AID_TOGGLED'; on: boolean }
  | { type: 'CONFIRMATION_TOGGLED'; which: Confirmation; checked: boolean }
  | { type: 'RESIDENCE_CHOSEN'; ukBased: boolean }
  | { type: 'FIELD_TYPED'; field: GiftAidTextField; value: string }
  | { type: 'SUBSCRIBE_TOGGLED'; checked: boolean }
  /** The donation being made (minor units, from the checkout): the address rule depends on it. */
  | { type: 'CONTINUE_CLICKED'; donationAmount: number };

export interface GiftAidOutcome {
  isGiftAid: boolean;
}

export interface GiftAidContext {
  form: GiftAidForm;
  /** The rules' messages are shown from the first try to continue on. */
  showProblems: boolean;
  /** A failed update_donation. */
  problem: string | null;
}

export const emptyGiftAidForm: GiftAidForm = {
  isGiftAid: false,
  confirmations: { taxpayer: false, ownMoney: false, notSweepstake: false },
  subscribe: false,
  ukBased: true,
  address1: '',
  postcode: '',
  overseasAddress: '',
};

export const giftAidMachine = setup({
  types: {
    context: {} as GiftAidContext,
    events: {} as GiftAidEvent,
    output: {} as GiftAidOutcome,
    children: {} as { updateDonation: 'updateDonation' },
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide updateDonation.
  actors: {
    /** Rejects with an Error whose message is the text to show. */
    updateDonation: providedByApp.call<ResponseOf<'updateDonation'>, RequestOf<'updateDonation'>>('updateDonation'),
  },
  actions: {
    toggleGiftAid: assign(({ context, event }) => {
      assertEvent(event, 'GIFT_AID_TOGGLED');
      return { form: { ...context.form, isGiftAid: event.on }, problem: null };
    }),
    toggleConfirmation: assign(({ context, event }) => {
      assertEvent(event, 'CONFIRMATION_TOGGLED');
      return {
        form: { ...context.form, confirmations: { ...context.form.confirmations, [event.which]: event.checked } },
        problem: null,
      };
    }),
    chooseResidence: assign(({ context, event }) => {
      assertEvent(event, 'RESIDENCE_CHOSEN');
      return { form: { ...context.form, ukBased: event.ukBased }, problem: null };
    }),
    typeField: assign(({ context, event }) => {
      assertEvent(event, 'FIELD_TYPED');
      return { form: { ...context.form, [event.field]: event.value }, problem: null };
    }),
    toggleSubscribe: assign(({ context, event }) => {
      assertEvent(event, 'SUBSCRIBE_TOGGLED');
      return { form: { ...context.form, subscribe: event.checked }, problem: null };
    }),
    revealProblems: assign({ showProblems: true }),
    showUpdateFailure: assign((_, params: { error: unknown }) => ({
      problem:
        params.error instanceof Error && params.error.message ? params.error.message : GIFT_AID_MESSAGES.unableToUpdate,
    })),
  },
  guards: {
    formIsComplete: ({ context, event }) => {
      assertEvent(event, 'CONTINUE_CLICKED');
      return giftAidProblems(context.form, event.donationAmount).length === 0;
    },
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: no target names the Gift Aid chart by its id.
  id: 'giftAid',
  description: 'Gift Aid on or off for the donation just made, with the declaration it needs.',
  context: { form: emptyGiftAidForm, showProblems: false, problem: null },
  output: ({ context }) => ({ isGiftAid: context.form.isGiftAid }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        GIFT_AID_TOGGLED: { actions: 'toggleGiftAid' },
        CONFIRMATION_TOGGLED: { actions: 'toggleConfirmation' },
        RESIDENCE_CHOSEN: { actions: 'chooseResidence' },
        FIELD_TYPED: { actions: 'typeField' },
        SUBSCRIBE_TOGGLED: { actions: 'toggleSubscribe' },
        CONTINUE_CLICKED: [
          { guard: 'formIsComplete', target: 'saving', actions: 'revealProblems' },
          { actions: 'revealProblems', description: 'What is missing is shown beside each field.' },
        ],
      },
    },
    saving: {
      tags: ['saving'],
      invoke: {
        src: 'updateDonation',
        id: 'updateDonation',
        input: ({ context }) => giftAidPayload(context.form),
        onDone: { target: 'saved' },
        onError: {
          target: 'editing',
          actions: { type: 'showUpdateFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    saved: { type: 'final' },
  },
});
