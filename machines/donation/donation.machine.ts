/**
 * The donation step (spec 000 §2 Donation step, §4 "Marketing, donation, Gift Aid", §5 Donation):
 * a preset amount or a custom one (each clears the other), at least MIN_DONATION, saved with
 * save_donation; or 'Skip donation', which goes straight on without a call. The output says which;
 * the root turns it into the next step (gift_aid after a donation, else login).
 */
import { assertEvent, assign, setup } from 'xstate';
import { MIN_DONATION, parseAmount, type RequestOf, type ResponseOf } from '../../contract';
import { DONATION_MESSAGES } from '../../contract/messages/donation';
import { providedByApp } from '../providedByApp';

export type DonationEvent =
  | { type: 'PRESET_CHOSEN'; amount: number }
  | { type: 'CUSTOM_AMOUNT_TYPED'; text: string }
  /** The charity the buyer sees on the screen: the checkout's, from the query cache. */
  | { type: 'DONATE_CLICKED'; charityId: number }
  | { type: 'SKIP_CLICKED' };

export type DonationOutcome = { kind: 'donated'; amount: number } | { kind: 'skipped' };

export interface DonationContext {
  /** The charity of the last Donate click. */
  charityId: number | null;
  /** The preset chosen, minor units; null while a custom amount is typed. */
  preset: number | null;
  /** The custom amount as typed. */
  custom: string;
  /** The rule or the failed call the buyer is told about. */
  problem: string | null;
  /** How the step ended; set on every way out, so null only while the buyer chooses. */
  outcome: DonationOutcome | null;
}

/** The amount the buyer means, in minor units, or null when nothing valid is chosen. */
export function chosenAmount(context: Pick<DonationContext, 'preset' | 'custom'>): number | null {
  return context.preset ?? parseAmount(context.custom);
}

export const donationMachine = setup({
  types: {
    context: {} as DonationContext,
    events: {} as DonationEvent,
    output: {} as DonationOutcome,
    children: {} as { saveDonation: 'saveDonation' },
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide saveDonation.
  actors: {
    /** Rejects with an Error whose message is the text to show. */
    saveDonation: providedByApp.call<ResponseOf<'saveDonation'>, RequestOf<'saveDonation'>>('saveDonation'),
  },
  actions: {
    choosePreset: assign(({ event }) => {
      assertEvent(event, 'PRESET_CHOSEN');
      return { preset: event.amount, custom: '', problem: null };
    }),
    typeCustom: assign(({ event }) => {
      assertEvent(event, 'CUSTOM_AMOUNT_TYPED');
      return { preset: null, custom: event.text, problem: null };
    }),
    askForAnAmount: assign({ problem: DONATION_MESSAGES.chooseAmount }),
    keepCharity: assign(({ event }) => {
      assertEvent(event, 'DONATE_CLICKED');
      return { charityId: event.charityId };
    }),
    showSaveFailure: assign((_, params: { error: unknown }) => ({
      problem:
        params.error instanceof Error && params.error.message ? params.error.message : DONATION_MESSAGES.unableToSave,
    })),
    keepDonation: assign(({ context }) => ({
      outcome: { kind: 'donated' as const, amount: chosenAmount(context) ?? 0 },
    })),
    keepSkipped: assign({ outcome: { kind: 'skipped' as const } }),
  },
  guards: {
    amountIsEnough: ({ context }) => (chosenAmount(context) ?? 0) >= MIN_DONATION,
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: no target names the donation chart by its id.
  id: 'donation',
  description: 'Choose an amount for the charity, or skip the donation.',
  context: { charityId: null, preset: null, custom: '', problem: null, outcome: null },
  output: ({ context }) => context.outcome!,
  initial: 'choosing',
  states: {
    choosing: {
      on: {
        PRESET_CHOSEN: { actions: 'choosePreset', description: 'A preset clears the custom amount.' },
        CUSTOM_AMOUNT_TYPED: { actions: 'typeCustom', description: 'A custom amount clears the preset.' },
        DONATE_CLICKED: [
          { guard: 'amountIsEnough', target: 'saving', actions: 'keepCharity' },
          { actions: 'askForAnAmount', description: 'Choose an amount or click Skip donation.' },
        ],
        SKIP_CLICKED: { target: 'skipped', actions: 'keepSkipped', description: 'Straight on, without a call.' },
      },
    },
    saving: {
      tags: ['saving'],
      invoke: {
        src: 'saveDonation',
        id: 'saveDonation',
        input: ({ context }) => ({
          amount_before_booking_fee: chosenAmount(context) ?? 0,
          charity_id: context.charityId ?? 0,
        }),
        onDone: { target: 'donated', actions: 'keepDonation' },
        onError: {
          target: 'choosing',
          actions: { type: 'showSaveFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    donated: { type: 'final' },
    skipped: { type: 'final' },
  },
});
