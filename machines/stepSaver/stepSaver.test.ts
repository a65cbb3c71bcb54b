import { describe, expect, it } from 'vitest';
import { walk } from '../testing/walk';
import { stepSaverMachine } from './stepSaver.machine';

describe('stepSaver machine', () => {
  it('is walked at 100 %: every save reaches the server in order, and the parent hears each answer', async () => {
    const result = await walk({
      name: 'stepSaver',
      machine: stepSaverMachine,
      fakes: (kit) => ({ actors: { updateBasketState: kit.controlled() } }),
      parentActions: ['reportSaved', 'reportFailed'],
      events: {
        SAVE: [
          { type: 'SAVE', state: 'login' },
          { type: 'SAVE', state: 'payment' },
        ],
        'xstate.done.actor.updateBasketState': [
          { type: 'xstate.done.actor.updateBasketState', output: { seconds_remaining: 321 } },
        ],
        'xstate.error.actor.updateBasketState': [
          { type: 'xstate.error.actor.updateBasketState', error: new Error('offline') },
        ],
      },
      check: ({ event, before, after, kit }) => {
        const toParent = kit.log.filter((e) => e.to === 'parent').map((e) => e.event);
        if (event.type === 'xstate.done.actor.updateBasketState') {
          expect(toParent.at(-1)).toEqual({ type: 'STEP_SAVED', secondsRemaining: 321 });
        }
        if (event.type === 'xstate.error.actor.updateBasketState') {
          expect(toParent.at(-1)).toEqual({ type: 'STEP_SAVE_FAILED' });
        }
        // A save that was waiting goes out as soon as the one in flight returns.
        if (event.type.startsWith('xstate.') && before.context.queued) {
          expect(kit.inputs.updateBasketState!.at(-1)).toEqual({ state: before.context.queued });
          expect(after.matches('saving')).toBe(true);
        }
        if (event.type === 'SAVE' && before.matches('idle')) {
          expect(kit.inputs.updateBasketState!.at(-1)).toEqual({ state: (event as unknown as { state: string }).state });
        }
      },
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });
});
