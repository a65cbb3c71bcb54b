import { describe, expect, it } from 'vitest';
import { walk, type Expectation } from '../testing/walk';
import { holdLost, type CallFailure } from '../../contract/outcome.ts';
import { viewSquare, type SquareView } from './square.connect';
import { squareMachine } from './square.machine';

/** Spec 001 §8. */
const CREDENTIALS = 'Unable to get Square credentials. Please try again later';
const UNABLE = 'Unable to pay. Please try again later';
const ADDRESS_ERROR = 'We were unable to find your address. Please try a different address';
const DECLINED = 'Your card was declined.';
const CARD_REFUSED = 'Your card number is incorrect.';
const HELD = 'Your tickets are no longer held for you. Please reserve them again.';

const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '1 Quay St',
  address_2: '',
  town: 'Plymouth',
  postcode: 'PL1 2LD',
  state: '',
  country_code: 'GB',
};
const SANDBOX = { app_id: 'holdfast-square-sandbox', location_id: 'loc', checkout_js: '' };
const KEYED = {
  app_id: 'sandbox-sq0idb-abc',
  location_id: 'L1',
  checkout_js: 'https://sandbox.web.squarecdn.com/v1/square.js',
};

describe('square machine', () => {
  it('is walked at 100 %: credentials, the card form (sandbox or Square’s), the token, then pay-with-square', async () => {
    const result = await walk<SquareView>({
      name: 'square',
      machine: squareMachine,
      fakes: (kit) => ({
        actors: {
          getSquareCredentials: kit.controlled(),
          tokeniseCard: kit.controlled(),
          payWithSquare: kit.controlled(),
        },
      }),
      askIgnored: true,
      input: { address: ADDRESS },
      serializeState: (s) =>
        JSON.stringify({
          value: s.value,
          c: (s.context as { credentials: unknown }).credentials,
          e: (s.context as { cardError: unknown }).cardError,
        }),
      events: {
        'xstate.done.actor.getSquareCredentials': [
          { type: 'xstate.done.actor.getSquareCredentials', output: SANDBOX },
          { type: 'xstate.done.actor.getSquareCredentials', output: KEYED },
        ],
        'xstate.error.actor.getSquareCredentials': [
          { type: 'xstate.error.actor.getSquareCredentials', error: new Error('500') },
        ],
        'xstate.done.actor.tokeniseCard': [{ type: 'xstate.done.actor.tokeniseCard', output: 'cnon:sandbox-1' }],
        'xstate.error.actor.tokeniseCard': [
          { type: 'xstate.error.actor.tokeniseCard', error: new Error(CARD_REFUSED) },
        ],
        'xstate.done.actor.payWithSquare': [
          {
            type: 'xstate.done.actor.payWithSquare',
            output: { response: { success: true, payment: { id: 'sq_1', status: 'COMPLETED' } } },
          },
          { type: 'xstate.done.actor.payWithSquare', output: { response: { success: false, message: DECLINED } } },
          { type: 'xstate.done.actor.payWithSquare', output: { response: { success: false } } },
        ],
        'xstate.error.actor.payWithSquare': [
          { type: 'xstate.error.actor.payWithSquare', error: holdLost(HELD) },
          { type: 'xstate.error.actor.payWithSquare', error: holdLost('') },
          { type: 'xstate.error.actor.payWithSquare', error: new Error(ADDRESS_ERROR) },
          { type: 'xstate.error.actor.payWithSquare', error: new Error('') },
        ],
      },
      view: (snapshot) => viewSquare(snapshot as never),
      initial: () => ({
        view: { loading: true, showCard: false, paying: false, form: null },
        running: ['getSquareCredentials'],
        started: { getSquareCredentials: [undefined] },
      }),
      oracle: ({ event, view, unchanged }): Expectation<SquareView> | undefined => {
        const ended = (message: string): Expectation<SquareView> => ({
          view: { showCard: false, paying: false },
          running: [],
          output: { kind: 'failed', message },
        });
        switch (event.type) {
          case 'xstate.done.actor.getSquareCredentials': {
            const c = event.output as typeof SANDBOX;
            // The sandbox's own app id means the sandbox card form; any other, Square's SDK.
            // The form is set up with the app and location the server named.
            return {
              view: {
                loading: false,
                showCard: true,
                paying: false,
                form: c === SANDBOX ? 'sandbox' : 'square',
                credentials: { app_id: c.app_id, location_id: c.location_id },
                cardError: null,
              },
              running: [],
            };
          }
          case 'xstate.error.actor.getSquareCredentials':
            return ended(CREDENTIALS);
          case 'CARD_SUBMITTED':
            if (!view.showCard || view.paying) return unchanged();
            return {
              view: { showCard: true, paying: true },
              running: ['tokeniseCard'],
              started: { tokeniseCard: [view.form === 'sandbox' ? SANDBOX : KEYED] },
            };
          case 'xstate.error.actor.tokeniseCard':
            // The form stays, with its words.
            return { view: { showCard: true, paying: false, cardError: CARD_REFUSED }, running: [] };
          case 'xstate.done.actor.tokeniseCard':
            return {
              view: { showCard: false, paying: true, cardError: null },
              running: ['payWithSquare'],
              started: { payWithSquare: [{ billing_address_data: ADDRESS, source_id: 'cnon:sandbox-1' }] },
            };
          case 'xstate.done.actor.payWithSquare': {
            const reply = event.output as { response: { success: boolean; message?: string } };
            if (reply.response.success) return { view: { paying: false }, running: [], output: { kind: 'paid' } };
            // Square's final message, else the spec's.
            return ended(reply.response.message ?? UNABLE);
          }
          case 'xstate.error.actor.payWithSquare': {
            const error = event.error as CallFailure | Error;
            // The basket shows the server's reason, and no words of the chart's own when it gave none.
            if ('kind' in error && error.kind === 'holdLost')
              return { view: { paying: false }, running: [], output: { kind: 'holdLost', message: error.message } };
            return ended(error.message || UNABLE);
          }
        }
        return undefined;
      },
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });
});
