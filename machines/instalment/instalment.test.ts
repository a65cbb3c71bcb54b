import { describe, expect, it } from 'vitest';
import { walk, type Expectation } from '../testing/walk';
import { holdLost, isCallFailure } from '../../contract/outcome.ts';
import { viewInstalment, type InstalmentView } from './instalment.connect';
import { instalmentMachine } from './instalment.machine';

/** Spec 001 §8 (instalment) and §4 Instalment result statuses. */
const ERROR = 'There was an error with your payment. Please try again.';
const CARD_REFUSED = 'Your card number is incorrect.';
const HELD = 'Your tickets are no longer held for you. Please reserve them again.';
const CARD = { id: 'pm_sandbox_1', brand: 'visa', last4: '4242', month: 12, year: 2034, funding: 'credit' };

const NEW = { option: '3', contactNumber: '07700 900123', card: 'new', makeDefault: true };
const SAVED = { option: '2', contactNumber: '07700 900123', card: 'pm_saved_9', makeDefault: true };

const idle: InstalmentView = { savingCard: false, paying: false, redirecting: false };

describe('instalment machine', () => {
  it('is walked at 100 %: a new card saved first or a saved card, then each result status of pay_with_instalment', async () => {
    const result = await walk<InstalmentView>({
      name: 'instalment',
      machine: instalmentMachine,
      fakes: (kit) => ({ actors: { saveNewCard: kit.controlled(), payWithInstalment: kit.controlled() }, actions: { goToUrl: kit.spy('goToUrl') } }),
      askIgnored: true,
      input: NEW,
      variants: [{ name: 'new card', input: NEW }, { name: 'saved card', input: SAVED }],
      events: {
        'xstate.done.actor.saveNewCard': [{ type: 'xstate.done.actor.saveNewCard', output: CARD }],
        'xstate.error.actor.saveNewCard': [
          { type: 'xstate.error.actor.saveNewCard', error: new Error(CARD_REFUSED) },
          { type: 'xstate.error.actor.saveNewCard', error: new Error('') },
          { type: 'xstate.error.actor.saveNewCard', error: 'network down' },
        ],
        'xstate.done.actor.payWithInstalment': [
          { type: 'xstate.done.actor.payWithInstalment', output: { status: 'success', url: null } },
          { type: 'xstate.done.actor.payWithInstalment', output: { status: 'redirect_to_url', url: 'https://bank.example/3ds' } },
          { type: 'xstate.done.actor.payWithInstalment', output: { status: 'unsuccessful', url: null } },
          { type: 'xstate.done.actor.payWithInstalment', output: { status: 'redirect_to_url', url: null } },
          { type: 'xstate.done.actor.payWithInstalment', output: { status: 'unsuccessful', url: 'https://bank.example/3ds' } },
        ],
        'xstate.error.actor.payWithInstalment': [
          { type: 'xstate.error.actor.payWithInstalment', error: holdLost(HELD) },
          { type: 'xstate.error.actor.payWithInstalment', error: holdLost('') },
          { type: 'xstate.error.actor.payWithInstalment', error: new Error('500') },
        ],
      },
      view: (snapshot) => viewInstalment(snapshot as never),
      initial: (variant): Expectation<InstalmentView> =>
        variant === 'saved card'
          ? {
              view: { ...idle, paying: true },
              running: ['payWithInstalment'],
              started: { payWithInstalment: [{ instalment_option: '2', contact_number: '07700 900123', selected_payment_method_id: 'pm_saved_9' }] },
            }
          : { view: { ...idle, savingCard: true }, running: ['saveNewCard'], started: { saveNewCard: [undefined] } },
      oracle: ({ event }): Expectation<InstalmentView> | undefined => {
        switch (event.type) {
          case 'xstate.done.actor.saveNewCard':
            // Spec 001 §7: the new card's fields, with the default flag (true by default, §9).
            return {
              view: { ...idle, paying: true },
              running: ['payWithInstalment'],
              started: { payWithInstalment: [{ instalment_option: '3', contact_number: '07700 900123', new_payment_method: { ...CARD, make_default_payment_method: 'true' } }] },
            };
          case 'xstate.error.actor.saveNewCard': {
            // The card form's own words; without any, the spec's error.
            const error = event.error;
            const message = error instanceof Error && error.message ? error.message : ERROR;
            return { view: idle, running: [], output: { type: 'failed', message } };
          }
          case 'xstate.done.actor.payWithInstalment': {
            const reply = event.output as { status: string; url: string | null };
            if (reply.status === 'success') return { view: idle, running: [], output: { type: 'paid' } };
            // A redirect with nowhere to go is as good as unsuccessful; any other status is unsuccessful, url or not.
            if (reply.status === 'redirect_to_url' && reply.url) return { view: { ...idle, redirecting: true }, running: [], sent: { goToUrl: [{ url: reply.url }] } };
            return { view: idle, running: [], output: { type: 'failed', message: ERROR } };
          }
          case 'xstate.error.actor.payWithInstalment':
            // The basket shows the server's reason, and no words of the chart's own when it gave none.
            if (isCallFailure(event.error) && event.error.kind === 'holdLost') return { view: idle, running: [], output: { type: 'reserving', message: event.error.message } };
            return { view: idle, running: [], output: { type: 'failed', message: ERROR } };
        }
        return undefined;
      },
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });
});
