import { describe, expect, it } from 'vitest';
import { walk, type Expectation } from '../testing/walk';
import { viewDonation, type DonationView } from './donation.connect';
import { donationMachine } from './donation.machine';
import { DONATION_MESSAGES, GIFT_AID_MESSAGES } from '../../contract/messages/donation';

const CHARITY_ID = 7;

/** The custom amounts the walk types, and what each means in pence (spec 000 §5: step 0.01). */
const TYPED: Record<string, number | null> = { '12.50': 1250, '1.00': 100, '0.99': 99, abc: null };

/** Spec 000 §8: the notification of a failed save_donation, and a server's own text. */
const UNABLE = 'Unable to save Donation. Please try again later';
const SERVER_TEXT = 'There was a problem setting your donation amount. Please try again.';

describe('donation machine', () => {
  it('is walked at 100 %: presets and custom amounts clear each other, at least 1 is saved, Skip goes straight on', async () => {
    const result = await walk<DonationView>({
      name: 'donation',
      machine: donationMachine,
      fakes: (kit) => ({ actors: { saveDonation: kit.controlled() } }),
      events: {
        PRESET_CHOSEN: [{ type: 'PRESET_CHOSEN', amount: 500 }],
        DONATE_CLICKED: [{ type: 'DONATE_CLICKED', charityId: CHARITY_ID }],
        CUSTOM_AMOUNT_TYPED: Object.keys(TYPED).map((text) => ({ type: 'CUSTOM_AMOUNT_TYPED', text })),
        'xstate.done.actor.saveDonation': [{ type: 'xstate.done.actor.saveDonation', output: { success: true } }],
        'xstate.error.actor.saveDonation': [
          { type: 'xstate.error.actor.saveDonation', error: new Error(SERVER_TEXT) },
          { type: 'xstate.error.actor.saveDonation', error: new Error('') },
        ],
      },
      view: (snapshot) => viewDonation(snapshot as never),
      initial: () => ({ view: { preset: null, custom: '', amount: null, problem: null, saving: false }, running: [] }),
      askIgnored: true,
      oracle: ({ event, view, unchanged }): Expectation<DonationView> | undefined => {
        // While the donation is sent, the buyer's choices and buttons do nothing.
        if (view.saving && !event.type.startsWith('xstate.')) return unchanged();
        const choosing = (v: Partial<DonationView>): Expectation<DonationView> => ({
          view: { ...v, saving: false },
          running: [],
        });
        switch (event.type) {
          case 'PRESET_CHOSEN':
            // Choosing a preset donation clears the custom amount.
            return choosing({ preset: 500, custom: '', amount: 500, problem: null });
          case 'CUSTOM_AMOUNT_TYPED': {
            const text = event.text as string;
            // ... and vice versa.
            return choosing({ preset: null, custom: text, amount: TYPED[text] ?? null, problem: null });
          }
          case 'DONATE_CLICKED':
            if (view.amount !== null && view.amount >= 100) {
              return {
                view: { amount: view.amount, saving: true, problem: view.problem },
                running: ['saveDonation'],
                started: { saveDonation: [{ amount_before_booking_fee: view.amount, charity_id: CHARITY_ID }] },
              };
            }
            return choosing({
              preset: view.preset,
              custom: view.custom,
              problem: 'Choose an amount or click Skip donation',
            });
          case 'SKIP_CLICKED':
            // Straight to the next step, and nothing is sent.
            return { view: { saving: false }, running: [], output: { kind: 'skipped' } };
          case 'xstate.done.actor.saveDonation':
            return { view: {}, running: [], output: { kind: 'donated', amount: view.amount } };
          case 'xstate.error.actor.saveDonation': {
            const message = (event.error as Error).message;
            // The buyer keeps the amount and is told why, in the server's words when it gave some.
            return choosing({
              preset: view.preset,
              custom: view.custom,
              amount: view.amount,
              problem: message || UNABLE,
            });
          }
        }
        return undefined;
      },
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });

  it('gives the server the words of spec 000 §8 for its refusals, which the donation and Gift Aid steps show as sent', () => {
    expect(DONATION_MESSAGES.problemSettingAmount).toBe(SERVER_TEXT);
    expect(DONATION_MESSAGES.selectAnAmount).toBe('Please select an amount.');
    expect(GIFT_AID_MESSAGES.problemSettingStatus).toBe(
      'There was a problem setting your gift aid status. Please try again.',
    );
  });
});
