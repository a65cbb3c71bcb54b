/**
 * The reservation countdown. The server's deadline arrives as seconds remaining; each TICK carries
 * the milliseconds that really passed, so a throttled background tab catches up instead of
 * drifting. Reaching zero tells the parent with COUNTDOWN_EXPIRED.
 *
 * More time on the clock (WCAG 2.2.1 Timing Adjustable): shortly before the hold ends the
 * countdown offers 'More time'; the server moves the same hold's deadline on (extendHold) a
 * limited number of times and refuses beyond with a message the buyer reads.
 *
 * Payment in progress: a START that says a payment has started (paymentSecondsRemaining above 0)
 * counts down the time the hold is kept for that payment (its deadline plus the grace) instead of
 * the hold's own; the buyer is told the tickets are held until the payment finishes, and the
 * server's figure for the hold's own deadline (SYNC) no longer applies.
 */
import { assertEvent, assign, sendParent, setup, type EventObject } from 'xstate';
import type { ResponseOf } from '../../contract';
import { providedByApp } from '../providedByApp';
import { MORE_TIME_MESSAGES } from '../../contract/messages/moreTime';

/** Spec 000 §4: a one-second timer counts seconds_remaining down. */
export const TICK_INTERVAL_MS = 1000;
/** 'More time' is offered this long before the hold ends (or at half a shorter hold). */
export const MORE_TIME_OFFER_MS = 60_000;
/** Shown when the call for more time failed without a reason from the server. */

/** How long before the end 'More time' is offered: a minute, or half the hold when it is shorter. */
export function offerThresholdMs(holdMs: number): number {
  return Math.min(MORE_TIME_OFFER_MS, holdMs / 2);
}

/** What the parent sends the countdown (its child 'countdown'). */
export type ParentCountdownEvent =
  /** paymentSecondsRemaining above 0: a payment has started, and the hold is kept that long for it. */
  | { type: 'START'; secondsRemaining: number; paymentSecondsRemaining?: number }
  | { type: 'SYNC'; secondsRemaining: number }
  | { type: 'TICK'; elapsedMs: number }
  | { type: 'STOP' };

export type CountdownEvent = ParentCountdownEvent | { type: 'MORE_TIME_CLICKED' };
export type ExtendHoldReply = ResponseOf<'extendHold'>;

export interface CountdownContext {
  remainingMs: number;
  /** The hold's length as the reservation started it, for the offer's threshold. */
  holdMs: number;
  /** Why the server gave no more time, shown to the buyer. */
  refusal: string | null;
}

export type CountdownTag = 'offering' | 'extending' | 'refused' | 'paying';

const secondsOf = (event: { secondsRemaining: number }) => Math.max(0, event.secondsRemaining * 1000);
const paymentSecondsOf = (event: { paymentSecondsRemaining?: number }) =>
  Math.max(0, (event.paymentSecondsRemaining ?? 0) * 1000);

/** A new hold, or a payment in progress when the server says one has started. */
const START = [
  {
    guard: 'paymentStarted',
    target: '#countdown.paymentInProgress',
    reenter: true,
    actions: 'startPayment',
    description: 'A payment has started: the hold is kept until it finishes, up to the grace.',
  },
  { target: '#countdown.running', reenter: true, actions: 'startHold' },
] as const;

export const countdownMachine = setup({
  types: {
    context: {} as CountdownContext,
    events: {} as CountdownEvent,
    tags: {} as CountdownTag,
    children: {} as { ticker: 'ticker'; extendHold: 'extendHold' },
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide these actors.
  actors: {
    /** Sends `{ type: 'TICK', elapsedMs }` every `intervalMs`, measured with a monotonic clock. */
    ticker: providedByApp.callback<EventObject, { intervalMs: number }>('The ticker'),
    /** POST extend_hold; rejects with an Error whose message is the server's refusal. */
    extendHold: providedByApp.call<ExtendHoldReply, void>('extendHold'),
  },
  actions: {
    startHold: assign(({ event }) => {
      assertEvent(event, 'START');
      return { remainingMs: secondsOf(event), holdMs: secondsOf(event), refusal: null };
    }),
    startPayment: assign(({ event }) => {
      assertEvent(event, 'START');
      return { remainingMs: paymentSecondsOf(event), holdMs: secondsOf(event), refusal: null };
    }),
    takeServerFigure: assign(({ event }) => {
      assertEvent(event, 'SYNC');
      return { remainingMs: secondsOf(event) };
    }),
    subtractElapsed: assign(({ context, event }) => {
      assertEvent(event, 'TICK');
      return { remainingMs: Math.max(0, context.remainingMs - event.elapsedMs) };
    }),
    takeExtension: assign((_, params: { reply: ExtendHoldReply }) => ({
      remainingMs: Math.max(0, params.reply.seconds_remaining * 1000),
    })),
    keepRefusal: assign((_, params: { error: unknown }) => ({
      refusal: params.error instanceof Error && params.error.message ? params.error.message : MORE_TIME_MESSAGES.failed,
    })),
    clearRemaining: assign({ remainingMs: 0 }),
    reportExpired: sendParent({ type: 'COUNTDOWN_EXPIRED' }),
  },
  guards: {
    paymentStarted: ({ event }) => {
      assertEvent(event, 'START');
      return paymentSecondsOf(event) > 0;
    },
    tickReachesZero: ({ context, event }) => {
      assertEvent(event, 'TICK');
      return context.remainingMs - event.elapsedMs <= 0;
    },
    deadlinePassed: ({ event }) => {
      assertEvent(event, 'SYNC');
      return event.secondsRemaining <= 0;
    },
    isWithinOfferThreshold: ({ context }) => context.remainingMs <= offerThresholdMs(context.holdMs),
    isBeforeOfferThreshold: ({ context }) => context.remainingMs > offerThresholdMs(context.holdMs),
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: no target names the countdown by its id.
  id: 'countdown',
  description:
    'Counts the reservation hold down to zero from the server’s seconds_remaining, offering more time near the end.',
  context: { remainingMs: 0, holdMs: 0, refusal: null },
  initial: 'idle',
  states: {
    idle: {
      description: 'Before the basket is reserved.',
      on: {
        START,
        SYNC: { actions: 'takeServerFigure' },
      },
    },
    running: {
      invoke: { src: 'ticker', id: 'ticker', input: { intervalMs: TICK_INTERVAL_MS } },
      initial: 'counting',
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
          { actions: 'takeServerFigure', description: 'The server’s figure replaces our estimate.' },
        ],
        START,
        STOP: { target: 'stopped' },
      },
      states: {
        counting: {
          always: {
            guard: 'isWithinOfferThreshold',
            target: 'offering',
            description: 'MORE_TIME_OFFER_MS before the end (or half a shorter hold).',
          },
        },
        offering: {
          tags: ['offering'],
          description: '“More time” is offered and announced once to screen readers.',
          always: {
            guard: 'isBeforeOfferThreshold',
            target: 'counting',
            description: 'The server gave more time another way (another tab).',
          },
          on: { MORE_TIME_CLICKED: { target: 'extending' } },
        },
        extending: {
          tags: ['extending'],
          invoke: {
            src: 'extendHold',
            id: 'extendHold',
            onDone: {
              target: 'counting',
              actions: { type: 'takeExtension', params: ({ event }) => ({ reply: event.output }) },
            },
            onError: {
              target: 'refused',
              actions: { type: 'keepRefusal', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        refused: {
          tags: ['refused'],
          description: 'No more time: the server’s reason is shown until the hold ends.',
        },
      },
    },
    paymentInProgress: {
      tags: ['paying'],
      description:
        'Payment in progress: the tickets are held until the payment finishes, up to the grace past the hold’s deadline.',
      invoke: { src: 'ticker', id: 'ticker', input: { intervalMs: TICK_INTERVAL_MS } },
      on: {
        TICK: [
          {
            guard: 'tickReachesZero',
            target: 'expired',
            actions: 'clearRemaining',
            description: 'The grace has run out too.',
          },
          { actions: 'subtractElapsed' },
        ],
        START,
        STOP: { target: 'stopped' },
      },
    },
    expired: {
      entry: 'reportExpired',
      on: { START },
    },
    stopped: {
      description: 'Payment is complete or the sale was destroyed; the time left no longer matters.',
      on: { START },
    },
  },
});
