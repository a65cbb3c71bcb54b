import { describe, expect, it } from 'vitest';
import { walk, type Expectation } from '../testing/walk';
import { holdLost, isCallFailure } from '../../contract/outcome.ts';
import { viewInstalment, type InstalmentView } from './instalment.connect';
import { instalmentMachine } from './instalment.machine';

/** Spec 001 §8 (instalment, and the card provider's message shown as the payment error) and §4 Instalment result statuses. */
const ERROR = 'There was an error with your payment. Please try again.';
const STRIPE_UNREACHABLE = 'There was an error with taking you to Stripe. Please try again.';
const CARD_REFUSED = 'Your card number is incorrect.';
const DECLINED = 'Your card was declined.';
const HELD = 'Your tickets are no longer held for you. Please reserve them again.';
const CARD = { id: 'pm_sandbox_1', brand: 'visa', last4: '4242', month: 12, year: 2034, funding: 'credit' };
/** create_setup_intent's answers: the sandbox's form saves the card, or Stripe's SetupIntent (keyed). */
const SANDBOX_SETUP = { public_key: 'pk_sandbox_holdfast', client_secret: null };
const STRIPE_SETUP = { public_key: 'pk_test_holdfast', client_secret: 'seti_1_secret_2' };

const NEW = { option: '3', contactNumber: '07700 900123', card: 'new', makeDefault: true };
const NEW_NOT_DEFAULT = { ...NEW, makeDefault: false };
const SAVED = { option: '2', contactNumber: '07700 900123', card: 'pm_saved_9', makeDefault: true };

const idle: InstalmentView = {
  savingCard: false,
  takingCard: false,
  confirmingCard: false,
  stripeSetup: null,
  paying: false,
  redirecting: false,
};

describe('instalment machine', () => {
  it('is walked at 100 %: a new card saved first (Stripe’s SetupIntent or the sandbox’s form) or a saved card, then each result status of pay_with_instalment', async () => {
    const result = await walk<InstalmentView>({
      name: 'instalment',
      machine: instalmentMachine,
      fakes: (kit) => ({
        actors: {
          createSetupIntent: kit.controlled(),
          confirmSetup: kit.controlled(),
          saveNewCard: kit.controlled(),
          payWithInstalment: kit.controlled(),
        },
        actions: { goToUrl: kit.spy('goToUrl') },
      }),
      askIgnored: true,
      input: NEW,
      variants: [
        { name: 'new card', input: NEW },
        { name: 'new card, not the default', input: NEW_NOT_DEFAULT },
        { name: 'saved card', input: SAVED },
      ],
      events: {
        'xstate.done.actor.createSetupIntent': [
          { type: 'xstate.done.actor.createSetupIntent', output: SANDBOX_SETUP },
          { type: 'xstate.done.actor.createSetupIntent', output: STRIPE_SETUP },
        ],
        'xstate.error.actor.createSetupIntent': [
          { type: 'xstate.error.actor.createSetupIntent', error: holdLost(HELD) },
          { type: 'xstate.error.actor.createSetupIntent', error: new Error('500') },
        ],
        CARD_SUBMITTED: [{ type: 'CARD_SUBMITTED' }],
        CARD_FORM_FAILED: [{ type: 'CARD_FORM_FAILED' }],
        'xstate.done.actor.confirmSetup': [
          { type: 'xstate.done.actor.confirmSetup', output: { status: 'saved', setupIntentId: 'seti_1' } },
          { type: 'xstate.done.actor.confirmSetup', output: { status: 'incomplete' } },
        ],
        'xstate.error.actor.confirmSetup': [
          { type: 'xstate.error.actor.confirmSetup', error: new Error(DECLINED) },
          { type: 'xstate.error.actor.confirmSetup', error: new Error('') },
        ],
        'xstate.done.actor.saveNewCard': [{ type: 'xstate.done.actor.saveNewCard', output: CARD }],
        'xstate.error.actor.saveNewCard': [
          { type: 'xstate.error.actor.saveNewCard', error: new Error(CARD_REFUSED) },
          { type: 'xstate.error.actor.saveNewCard', error: new Error('') },
          { type: 'xstate.error.actor.saveNewCard', error: 'network down' },
        ],
        'xstate.done.actor.payWithInstalment': [
          { type: 'xstate.done.actor.payWithInstalment', output: { status: 'success', url: null } },
          {
            type: 'xstate.done.actor.payWithInstalment',
            output: { status: 'redirect_to_url', url: 'https://bank.example/3ds' },
          },
          { type: 'xstate.done.actor.payWithInstalment', output: { status: 'unsuccessful', url: null } },
          { type: 'xstate.done.actor.payWithInstalment', output: { status: 'redirect_to_url', url: null } },
          {
            type: 'xstate.done.actor.payWithInstalment',
            output: { status: 'unsuccessful', url: 'https://bank.example/3ds' },
          },
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
              started: {
                payWithInstalment: [
                  { instalment_option: '2', contact_number: '07700 900123', selected_payment_method_id: 'pm_saved_9' },
                ],
              },
            }
          : // A new card: the server says first how it is saved.
            {
              view: { ...idle, savingCard: true },
              running: ['createSetupIntent'],
              started: { createSetupIntent: [undefined] },
            },
      oracle: ({ event, view, unchanged }, variant): Expectation<InstalmentView> | undefined => {
        // Spec 001 §9: the new card is the default unless the buyer said otherwise.
        const makeDefault = variant === 'new card, not the default' ? 'false' : 'true';
        const failed = (message: string): Expectation<InstalmentView> => ({
          view: idle,
          running: [],
          output: { kind: 'failed', message },
        });
        switch (event.type) {
          case 'xstate.done.actor.createSetupIntent':
            // Keyed: Stripe's form for this SetupIntent is shown; nothing is called until the buyer pays.
            if (event.output === STRIPE_SETUP)
              return { view: { ...idle, savingCard: true, takingCard: true, stripeSetup: STRIPE_SETUP }, running: [] };
            // Otherwise the sandbox's form saves the card, as before.
            return {
              view: { ...idle, savingCard: true },
              running: ['saveNewCard'],
              started: { saveNewCard: [undefined] },
            };
          case 'xstate.error.actor.createSetupIntent':
            if (isCallFailure(event.error) && event.error.kind === 'holdLost')
              return { view: idle, running: [], output: { kind: 'holdLost', message: event.error.message } };
            return failed(ERROR);
          case 'CARD_SUBMITTED':
            if (!view.takingCard || view.confirmingCard) return unchanged();
            // Stripe.js confirms the SetupIntent the server made, with the card in Stripe's form.
            return {
              view: { ...idle, savingCard: true, takingCard: true, confirmingCard: true, stripeSetup: STRIPE_SETUP },
              running: ['confirmSetup'],
              started: { confirmSetup: [STRIPE_SETUP] },
            };
          case 'CARD_FORM_FAILED':
            if (!view.takingCard || view.confirmingCard) return unchanged();
            return failed(STRIPE_UNREACHABLE);
          case 'xstate.done.actor.confirmSetup': {
            const confirmation = event.output as { status: string };
            // Fields left incomplete: the form stays, for the buyer to correct.
            if (confirmation.status !== 'saved')
              return { view: { ...idle, savingCard: true, takingCard: true, stripeSetup: STRIPE_SETUP }, running: [] };
            // The plan is set up on the card the SetupIntent saved; the server checks it with Stripe.
            return {
              view: { ...idle, paying: true },
              running: ['payWithInstalment'],
              started: {
                payWithInstalment: [
                  {
                    instalment_option: '3',
                    contact_number: '07700 900123',
                    setup_intent: { id: 'seti_1', make_default_payment_method: makeDefault },
                  },
                ],
              },
            };
          }
          case 'xstate.error.actor.confirmSetup': {
            // Stripe's words (the card provider's message); without any, the spec's error.
            const message = (event.error as Error).message;
            return failed(message || ERROR);
          }
          case 'xstate.done.actor.saveNewCard':
            // Spec 001 §7: the new card's fields, with the default flag (true by default, §9).
            return {
              view: { ...idle, paying: true },
              running: ['payWithInstalment'],
              started: {
                payWithInstalment: [
                  {
                    instalment_option: '3',
                    contact_number: '07700 900123',
                    new_payment_method: { ...CARD, make_default_payment_method: makeDefault },
                  },
                ],
              },
            };
          case 'xstate.error.actor.saveNewCard': {
            // The card form's own words; without any, the spec's error.
            const error = event.error;
            return failed(error instanceof Error && error.message ? error.message : ERROR);
          }
          case 'xstate.done.actor.payWithInstalment': {
            const reply = event.output as { status: string; url: string | null };
            if (reply.status === 'success') return { view: idle, running: [], output: { kind: 'paid' } };
            // A redirect with nowhere to go is as good as unsuccessful; any other status is unsuccessful, url or not.
            if (reply.status === 'redirect_to_url' && reply.url)
              return { view: { ...idle, redirecting: true }, running: [], sent: { goToUrl: [{ url: reply.url }] } };
            return failed(ERROR);
          }
          case 'xstate.error.actor.payWithInstalment':
            // The basket shows the server's reason, and no words of the chart's own when it gave none.
            if (isCallFailure(event.error) && event.error.kind === 'holdLost')
              return { view: idle, running: [], output: { kind: 'holdLost', message: event.error.message } };
            return failed(ERROR);
        }
        return undefined;
      },
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });
});
