import { describe, expect, it } from 'vitest';
import type { GiftAidForm } from '../../contract';
import { walk, type Expectation, type WalkEvent } from '../testing/walk';
import { viewGiftAid, type GiftAidView } from './giftAid.connect';
import { giftAidMachine } from './giftAid.machine';

/** Spec 000 §8: the notification of a failed update_donation. */
const UNABLE = 'Unable to update Donation. Please try again later';
const SERVER_TEXT = 'There was a problem setting your gift aid status. Please try again.';

/**
 * Spec 000 §5, written out again here: with Gift Aid on, all three confirmations; from a donation
 * of 20, line 1 and postcode for a UK resident, the overseas address otherwise; off may continue.
 */
function missing(form: GiftAidForm, amount: number): string[] {
  if (!form.isGiftAid) return [];
  const out: string[] = [];
  const c = form.confirmations;
  if (!c.taxpayer || !c.ownMoney || !c.notSweepstake) out.push('confirmations');
  if (amount >= 2000) {
    if (form.ukBased) {
      if (form.address1.trim() === '') out.push('address1');
      if (form.postcode.trim() === '') out.push('postcode');
    } else if (form.overseasAddress.trim() === '') out.push('overseasAddress');
  }
  return out;
}

/** The form after one of the buyer's edits. */
function edited(form: GiftAidForm, event: WalkEvent): GiftAidForm {
  switch (event.type) {
    case 'GIFT_AID_TOGGLED':
      return { ...form, isGiftAid: event.on as boolean };
    case 'CONFIRMATION_TOGGLED':
      return { ...form, confirmations: { ...form.confirmations, [event.which as string]: event.checked as boolean } };
    case 'RESIDENCE_CHOSEN':
      return { ...form, ukBased: event.ukBased as boolean };
    case 'FIELD_TYPED':
      return { ...form, [event.field as string]: event.value as string };
    case 'SUBSCRIBE_TOGGLED':
      return { ...form, subscribe: event.checked as boolean };
  }
  return form;
}

/** The update_donation payload of spec 000 §7 for a complete form. */
function payload(form: GiftAidForm) {
  if (!form.isGiftAid) return { is_gift_aid: 'false', subscribe: String(form.subscribe) };
  return {
    is_gift_aid: 'true',
    subscribe: String(form.subscribe),
    uk_based: String(form.ukBased),
    address1: form.ukBased ? form.address1 : form.overseasAddress,
    postcode: form.ukBased ? form.postcode : '',
  };
}

const EVENTS: Record<string, WalkEvent[]> = {
  GIFT_AID_TOGGLED: [
    { type: 'GIFT_AID_TOGGLED', on: true },
    { type: 'GIFT_AID_TOGGLED', on: false },
  ],
  CONFIRMATION_TOGGLED: [
    { type: 'CONFIRMATION_TOGGLED', which: 'taxpayer', checked: true },
    { type: 'CONFIRMATION_TOGGLED', which: 'ownMoney', checked: true },
    { type: 'CONFIRMATION_TOGGLED', which: 'notSweepstake', checked: true },
    { type: 'CONFIRMATION_TOGGLED', which: 'ownMoney', checked: false },
  ],
  RESIDENCE_CHOSEN: [
    { type: 'RESIDENCE_CHOSEN', ukBased: false },
    { type: 'RESIDENCE_CHOSEN', ukBased: true },
  ],
  FIELD_TYPED: [
    { type: 'FIELD_TYPED', field: 'address1', value: '12 Quay Street' },
    { type: 'FIELD_TYPED', field: 'postcode', value: 'BS1 4RN' },
    { type: 'FIELD_TYPED', field: 'overseasAddress', value: '4 Rue Oberkampf, Paris' },
    { type: 'FIELD_TYPED', field: 'postcode', value: '  ' },
  ],
  SUBSCRIBE_TOGGLED: [{ type: 'SUBSCRIBE_TOGGLED', checked: true }],
  'xstate.done.actor.updateDonation': [{ type: 'xstate.done.actor.updateDonation', output: { success: true } }],
  'xstate.error.actor.updateDonation': [
    { type: 'xstate.error.actor.updateDonation', error: new Error(SERVER_TEXT) },
    { type: 'xstate.error.actor.updateDonation', error: new Error('') },
  ],
};

const EMPTY_FORM: GiftAidForm = {
  isGiftAid: false,
  confirmations: { taxpayer: false, ownMoney: false, notSweepstake: false },
  subscribe: false,
  ukBased: true,
  address1: '',
  postcode: '',
  overseasAddress: '',
};

async function walkAt(amount: number) {
  return walk<GiftAidView>({
    name: `giftAid at ${amount}`,
    machine: giftAidMachine,
    fakes: (kit) => ({ actors: { updateDonation: kit.controlled() } }),
    events: { ...EVENTS, CONTINUE_CLICKED: [{ type: 'CONTINUE_CLICKED', donationAmount: amount }] },
    // The form's contents matter only through the rules' verdict, so states are told apart by it.
    serializeState: (snapshot) => {
      const { form, showProblems, problem } = snapshot.context as {
        form: GiftAidForm;
        showProblems: boolean;
        problem: string | null;
      };
      return JSON.stringify({
        value: snapshot.value,
        on: form.isGiftAid,
        missing: missing(form, amount),
        showProblems,
        problem,
      });
    },
    extraPaths: [
      {
        // An overseas taxpayer completes the declaration with the overseas address only.
        events: [
          EVENTS.GIFT_AID_TOGGLED![0]!,
          ...EVENTS.CONFIRMATION_TOGGLED!.slice(0, 3),
          EVENTS.RESIDENCE_CHOSEN![0]!,
          EVENTS.FIELD_TYPED![2]!,
          EVENTS.SUBSCRIBE_TOGGLED![0]!,
          { type: 'CONTINUE_CLICKED', donationAmount: amount },
          EVENTS['xstate.done.actor.updateDonation']![0]!,
        ],
      },
    ],
    view: (snapshot) => viewGiftAid(snapshot as never, amount),
    initial: () => ({
      view: {
        form: EMPTY_FORM,
        uplift: Math.round(amount / 4),
        addressNeeded: amount >= 2000,
        problems: {},
        problem: null,
        saving: false,
      },
      running: [],
    }),
    askIgnored: true,
    oracle: ({ event, view, earlier, unchanged }): Expectation<GiftAidView> | undefined => {
      // While the choice is sent, the form and its button do nothing.
      if (view.saving && !event.type.startsWith('xstate.')) return unchanged();
      const tried = earlier.some((step) => step.event.type === 'CONTINUE_CLICKED');
      // What the buyer saw before this step: a message for each missing part, once they have tried.
      expect(Object.keys(view.problems).sort()).toEqual(shownProblems(view.form, amount, tried).sort());
      const editing = (form: GiftAidForm, problem: string | null, afterTry: boolean): Expectation<GiftAidView> => ({
        view: { form, problems: messagesFor(shownProblems(form, amount, afterTry)), problem, saving: false },
        running: [],
      });
      switch (event.type) {
        case 'GIFT_AID_TOGGLED':
        case 'CONFIRMATION_TOGGLED':
        case 'RESIDENCE_CHOSEN':
        case 'FIELD_TYPED':
        case 'SUBSCRIBE_TOGGLED':
          return editing(edited(view.form, event), null, tried);
        case 'CONTINUE_CLICKED':
          if (missing(view.form, amount).length === 0) {
            return {
              view: { form: view.form, saving: true },
              running: ['updateDonation'],
              started: { updateDonation: [payload(view.form)] },
            };
          }
          // Nothing is sent; each missing part is named beside its field.
          return editing(view.form, view.problem, true);
        case 'xstate.done.actor.updateDonation':
          return { view: {}, running: [], output: { isGiftAid: view.form.isGiftAid } };
        case 'xstate.error.actor.updateDonation':
          return editing(view.form, (event.error as Error).message || UNABLE, tried);
      }
      return undefined;
    },
  });
}

function shownProblems(form: GiftAidForm, amount: number, tried: boolean): string[] {
  return tried ? missing(form, amount) : [];
}

/** Our words for the form's rules (spec 000 §5 gives none), written here independently of the chart's. */
function messagesFor(parts: string[]): Record<string, string> {
  const texts: Record<string, string> = {
    confirmations: 'Please confirm all three statements to add Gift Aid',
    address1: 'Type the first line of your address',
    postcode: 'Type your postcode',
    overseasAddress: 'Type your address',
  };
  return Object.fromEntries(parts.map((part) => [part, texts[part]!]));
}

describe('giftAid machine', () => {
  it.each([500, 2500])(
    'is walked at 100 percent with a donation of %i pence: the rules of spec 000 §5 decide what is sent',
    async (amount) => {
      const result = await walkAt(amount);
      expect(result.states.missing).toEqual([]);
      expect(result.transitions.missing).toEqual([]);
    },
  );
});
