/**
 * The reservation countdown. The server's deadline arrives as seconds remaining; each TICK carries
 * the milliseconds that really passed, so a throttled background tab catches up instead of
 * drifting. Reaching zero tells the parent with COUNTDOWN_EXPIRED.
 */
import { assign, fromCallback, sendParent, setup, type EventObject } from 'xstate';
import type { CountdownEvent } from '../checkout/checkout.types';

export interface CountdownContext {
  remainingMs: number;
}

export const countdownMachine = setup({
  types: {
    context: {} as CountdownContext,
    events: {} as CountdownEvent,
  },
  actors: {
    /** Sends `{ type: 'TICK', elapsedMs }` about once a second, measured with a monotonic clock. */
    ticker: fromCallback<EventObject>(() => {
      throw new Error('The ticker is provided by the app');
    }),
  },
  actions: {
    setRemaining: assign({
      remainingMs: ({ event }) =>
        event.type === 'START' || event.type === 'SYNC' ? Math.max(0, event.secondsRemaining * 1000) : 0,
    }),
    subtractElapsed: assign({
      remainingMs: ({ context, event }) =>
        event.type === 'TICK' ? Math.max(0, context.remainingMs - event.elapsedMs) : context.remainingMs,
    }),
    clearRemaining: assign({ remainingMs: 0 }),
    reportExpired: sendParent({ type: 'COUNTDOWN_EXPIRED' }),
  },
  guards: {
    tickReachesZero: ({ context, event }) => event.type === 'TICK' && context.remainingMs - event.elapsedMs <= 0,
    deadlinePassed: ({ event }) => (event.type === 'START' || event.type === 'SYNC') && event.secondsRemaining <= 0,
  },
}).createMachine({
  id: 'countdown',
  description: 'Counts the reservation hold down to zero from the server’s seconds_remaining.',
  context: { remainingMs: 0 },
  initial: 'idle',
  states: {
    idle: {
      description: 'Before the basket is reserved.',
      on: {
        START: { target: 'running', actions: 'setRemaining' },
        SYNC: { actions: 'setRemaining' },
      },
    },
    running: {
      invoke: { src: 'ticker', id: 'ticker' },
      on: {
        TICK: [
          { guard: 'tickReachesZero', target: 'expired', actions: 'clearRemaining' },
          { actions: 'subtractElapsed' },
        ],
        SYNC: [
          {
            guard: 'deadlinePassed',
            target: 'expired',
            actions: 'clearRemaining',
            description: 'The server says the hold has already ended.',
          },
          { actions: 'setRemaining', description: 'The server’s figure replaces our estimate.' },
        ],
        START: { target: 'running', reenter: true, actions: 'setRemaining' },
        STOP: { target: 'stopped' },
      },
    },
    expired: {
      entry: 'reportExpired',
      on: { START: { target: 'running', actions: 'setRemaining' } },
    },
    stopped: {
      description: 'Payment is complete or the sale was destroyed; the time left no longer matters.',
      on: { START: { target: 'running', actions: 'setRemaining' } },
    },
  },
});
