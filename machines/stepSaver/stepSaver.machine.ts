/**
 * Saves each change of step with update_basket_state, one request at a time. A step entered
 * while a save is in flight is kept (the latest wins) and saved right after, so the server
 * always ends on the step the buyer sees. A step the server has just named (`known`: the checkout
 * read that led to it says the buyer is on it) is no change, and is not saved while nothing is in
 * flight; behind a save in flight it is, since that save lands after the read.
 */
import { assign, sendParent, setup } from 'xstate';
import type { Step } from '../../contract';
import { providedByApp } from '../providedByApp';

export type StepSaverEvent = { type: 'SAVE'; state: Step; known?: boolean };

export interface StepSaverContext {
  saving: Step | null;
  queued: Step | null;
}

export const stepSaverMachine = setup({
  types: {
    context: {} as StepSaverContext,
    events: {} as StepSaverEvent,
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide updateBasketState.
  actors: {
    updateBasketState: providedByApp.call<{ seconds_remaining: number }, { state: Step }>('updateBasketState'),
  },
  actions: {
    startSaving: assign({ saving: ({ event }) => event.state, queued: null }),
    keepForLater: assign({ queued: ({ event }) => event.state }),
    takeQueued: assign({ saving: ({ context }) => context.queued, queued: null }),
    finish: assign({ saving: null }),
    /** The reply names the step it was for: its seconds mean something only for a step that holds tickets. */
    reportSaved: sendParent(({ context }, params: { secondsRemaining: number }) => ({
      type: 'STEP_SAVED' as const,
      // Stryker disable next-line StringLiteral: a reply comes only while a step is being saved; the fallback is for the type.
      state: context.saving ?? 'basket',
      secondsRemaining: params.secondsRemaining,
    })),
    reportFailed: sendParent({ type: 'STEP_SAVE_FAILED' }),
  },
  guards: {
    hasQueued: ({ context }) => context.queued !== null,
    knownToServer: ({ event }) => event.known === true,
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: no target names the step saver by its id.
  id: 'stepSaver',
  description: 'Saves every change of step to the server, in order, one request at a time.',
  context: { saving: null, queued: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        SAVE: [
          {
            guard: 'knownToServer',
            description: 'The server has just said the buyer is on this step: nothing to save.',
          },
          { target: 'saving', actions: 'startSaving' },
        ],
      },
    },
    saving: {
      invoke: {
        src: 'updateBasketState',
        id: 'updateBasketState',
        // Stryker disable next-line StringLiteral: saving is entered only with a step to save; the fallback is for the type.
        input: ({ context }) => ({ state: context.saving ?? 'basket' }),
        onDone: [
          {
            guard: 'hasQueued',
            target: 'saving',
            reenter: true,
            actions: [
              { type: 'reportSaved', params: ({ event }) => ({ secondsRemaining: event.output.seconds_remaining }) },
              'takeQueued',
            ],
          },
          {
            target: 'idle',
            actions: [
              { type: 'reportSaved', params: ({ event }) => ({ secondsRemaining: event.output.seconds_remaining }) },
              'finish',
            ],
          },
        ],
        onError: [
          { guard: 'hasQueued', target: 'saving', reenter: true, actions: ['reportFailed', 'takeQueued'] },
          { target: 'idle', actions: ['reportFailed', 'finish'] },
        ],
      },
      on: {
        SAVE: { actions: 'keepForLater', description: 'Saved when the request in flight returns.' },
      },
    },
  },
});
