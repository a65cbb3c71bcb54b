/**
 * Paying through Square (spec 001 §4, §7 get_square_credentials and pay-with-square, §8), invoked
 * by the payment chart once the buyer's details are saved: the credentials first ('Unable to get
 * Square credentials. Please try again later'), then the card form (Square's Web Payments SDK
 * when keyed, else the sandbox's card form) until the buyer submits it, the card tokenised (a
 * refusal keeps the form, with the form's words), then pay-with-square with the billing address:
 * its address error or Square's final message ends the attempt.
 */
import { assign, setup } from 'xstate';
import type { BillingAddress, ResponseOf } from '../../contract';
import { PAYMENT_MESSAGES } from '../../contract/messages/payment';
import { SQUARE_MESSAGES } from '../../contract/messages/square';
import { messageOf } from '../../contract/errors.ts';
import { failureOf, type HoldLost } from '../../contract/outcome.ts';
import { providedByApp } from '../providedByApp';

export type SquareCredentials = ResponseOf<'getSquareCredentials'>;

export interface SquareInput {
  address: BillingAddress;
}

export type SquareOutcome = { kind: 'paid' } | { kind: 'failed'; message: string } | HoldLost;

export interface SquareContext {
  address: BillingAddress;
  credentials: SquareCredentials | null;
  token: string | null;
  /** The card form's own refusal (a mistyped number), shown on the form. */
  cardError: string | null;
  /** How the attempt ended; set on every way into `done`, so null only while it goes on. */
  outcome: SquareOutcome | null;
}

export type SquareEvent = { type: 'CARD_SUBMITTED' };

export const squareMachine = setup({
  types: {
    context: {} as SquareContext,
    input: {} as SquareInput,
    events: {} as SquareEvent,
    output: {} as SquareOutcome,
    children: {} as {
      getSquareCredentials: 'getSquareCredentials';
      tokeniseCard: 'tokeniseCard';
      payWithSquare: 'payWithSquare';
    },
    tags: {} as 'loading' | 'takingCard' | 'paying',
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide all three actors.
  actors: {
    getSquareCredentials: providedByApp.call<SquareCredentials, void>('getSquareCredentials'),
    /** The card form's card as a single-use token; rejects with the form's words. */
    tokeniseCard: providedByApp.call<string, SquareCredentials>('tokeniseCard'),
    /** Resolves with Square's answer; rejects with a refusal in the address error's words, or a `holdLost` outcome. */
    payWithSquare: providedByApp.call<
      ResponseOf<'payWithSquare'>,
      { billing_address_data: BillingAddress; source_id: string }
    >('payWithSquare'),
  },
  actions: {
    keepCredentials: assign((_, params: { credentials: SquareCredentials }) => ({ credentials: params.credentials })),
    keepToken: assign((_, params: { token: string }) => ({ token: params.token, cardError: null })),
    showCardError: assign((_, params: { message: string }) => ({ cardError: params.message })),
    keepPaid: assign({ outcome: { kind: 'paid' as const } }),
    keepFailure: assign((_, params: { message: string }) => ({
      outcome: { kind: 'failed' as const, message: params.message },
    })),
    keepHoldLost: assign((_, params: { message: string }) => ({
      outcome: { kind: 'holdLost' as const, message: params.message },
    })),
  },
  guards: {
    paid: (_, params: { reply: ResponseOf<'payWithSquare'> }) => params.reply.response.success,
    holdLost: (_, params: { error: unknown }) => failureOf(params.error).kind === 'holdLost',
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: no target names the Square chart by its id.
  id: 'square',
  description: 'Square’s credentials, its card form, then pay-with-square.',
  context: ({ input }) => ({ address: input.address, credentials: null, token: null, cardError: null, outcome: null }),
  output: ({ context }) => context.outcome!,
  initial: 'gettingCredentials',
  states: {
    gettingCredentials: {
      tags: ['loading'],
      invoke: {
        src: 'getSquareCredentials',
        id: 'getSquareCredentials',
        onDone: {
          target: 'takingCard',
          actions: { type: 'keepCredentials', params: ({ event }) => ({ credentials: event.output }) },
        },
        onError: { target: 'done', actions: { type: 'keepFailure', params: { message: SQUARE_MESSAGES.credentials } } },
      },
    },
    takingCard: {
      tags: ['takingCard'],
      description: 'The card form is on screen (Square’s, or the sandbox’s) until the buyer submits it.',
      on: { CARD_SUBMITTED: 'tokenising' },
    },
    tokenising: {
      tags: ['takingCard', 'paying'],
      invoke: {
        src: 'tokeniseCard',
        id: 'tokeniseCard',
        input: ({ context }) => context.credentials!,
        onDone: { target: 'paying', actions: { type: 'keepToken', params: ({ event }) => ({ token: event.output }) } },
        onError: {
          target: 'takingCard',
          actions: {
            type: 'showCardError',
            params: ({ event }) => ({ message: messageOf(event.error, PAYMENT_MESSAGES.unableToPay) }),
          },
        },
      },
    },
    paying: {
      tags: ['paying'],
      invoke: {
        src: 'payWithSquare',
        id: 'payWithSquare',
        // Stryker disable next-line StringLiteral: paying is entered only with the token just kept; the fallback is for the type.
        input: ({ context }) => ({ billing_address_data: context.address, source_id: context.token ?? '' }),
        onDone: [
          {
            guard: { type: 'paid', params: ({ event }) => ({ reply: event.output }) },
            target: 'done',
            actions: 'keepPaid',
          },
          {
            target: 'done',
            actions: {
              type: 'keepFailure',
              params: ({ event }) => ({ message: event.output.response.message || PAYMENT_MESSAGES.unableToPay }),
            },
            description: 'Square’s final message is shown.',
          },
        ],
        onError: [
          {
            guard: { type: 'holdLost', params: ({ event }) => ({ error: event.error }) },
            target: 'done',
            actions: { type: 'keepHoldLost', params: ({ event }) => ({ message: messageOf(event.error, '') }) },
          },
          {
            target: 'done',
            actions: {
              type: 'keepFailure',
              params: ({ event }) => ({ message: messageOf(event.error, PAYMENT_MESSAGES.unableToPay) }),
            },
            description: 'The address error, or Unable to pay.',
          },
        ],
      },
    },
    done: { type: 'final' },
  },
});
