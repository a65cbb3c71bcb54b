import { describe, expect, it } from 'vitest';
import type { Step } from '../../contract';
import { walk, type Expectation } from '../testing/walk';
import { stepSaverMachine } from './stepSaver.machine';

/** What the step saver shows its parent: the step in flight and the one waiting behind it. */
interface SaverView {
  inFlight: Step | null;
  waiting: Step | null;
}

describe('stepSaver machine', () => {
  it('is walked at 100 %: every save reaches the server in order, and the parent hears each answer', async () => {
    const result = await walk<SaverView>({
      name: 'stepSaver',
      machine: stepSaverMachine,
      fakes: (kit) => ({ actors: { updateBasketState: kit.controlled() } }),
      parentActions: ['reportSaved', 'reportFailed'],
      askIgnored: true,
      events: {
        SAVE: [
          { type: 'SAVE', state: 'login' },
          { type: 'SAVE', state: 'payment' },
          { type: 'SAVE', state: 'basket', known: true },
        ],
        'xstate.done.actor.updateBasketState': [
          { type: 'xstate.done.actor.updateBasketState', output: { seconds_remaining: 321 } },
        ],
        'xstate.error.actor.updateBasketState': [
          { type: 'xstate.error.actor.updateBasketState', error: new Error('offline') },
        ],
      },
      view: (snapshot) => ({ inFlight: snapshot.context.saving, waiting: snapshot.context.queued }),
      initial: () => ({ view: { inFlight: null, waiting: null }, running: [] }),
      oracle: ({ event, view }): Expectation<SaverView> | undefined => {
        const idle = { view: { inFlight: null, waiting: null }, running: [] };
        /** The next save goes out as soon as one returns, if a step is waiting. */
        const next = (reply: unknown): Expectation<SaverView> =>
          view.waiting
            ? {
                view: { inFlight: view.waiting, waiting: null },
                running: ['updateBasketState'],
                started: { updateBasketState: [{ state: view.waiting }] },
                sent: { parent: [reply] },
              }
            : { ...idle, sent: { parent: [reply] } };
        switch (event.type) {
          case 'SAVE': {
            const state = event.state as Step;
            // The server has just said the buyer is on this step: with nothing in flight, no save.
            if (view.inFlight === null && event.known === true) return { view, running: [] };
            if (view.inFlight === null) {
              return {
                view: { inFlight: state, waiting: null },
                running: ['updateBasketState'],
                started: { updateBasketState: [{ state }] },
              };
            }
            // The latest step wins, known or not (the save in flight lands after the read);
            // nothing goes out while a save is in flight.
            return { view: { inFlight: view.inFlight, waiting: state }, running: ['updateBasketState'] };
          }
          case 'xstate.done.actor.updateBasketState':
            // The reply names the step it was for.
            return next({ type: 'STEP_SAVED', state: view.inFlight, secondsRemaining: 321 });
          case 'xstate.error.actor.updateBasketState':
            return next({ type: 'STEP_SAVE_FAILED' });
        }
        return undefined;
      },
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });
});
