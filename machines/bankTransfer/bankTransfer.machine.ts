/**
 * The awaiting_truelayer step (spec 001 §2 Bank transfer waiting, §4 Bank transfer status, §8, §9):
 * back from the bank, the first check comes after 2 s. A returned-from flag of 0 means the buyer
 * cancelled in the bank portal. Otherwise get_truelayer_status is polled every 1.5 s (or the
 * interval the server asks for): the wait message changes after 3, 6 and 9 retries, from 9 the
 * buyer may try a different payment method, and after 60 the polling stops with the message that
 * the payment is not yet confirmed. An error with no time left ends at the basket with the spec's
 * text; a completed payment shows the reference and amount, and Continue goes on to delivery.
 */
import { assign, setup } from 'xstate';
import {
  BANK_FIRST_CHECK_MS,
  BANK_POLL_INTERVAL_MS,
  BANK_RETRY_THRESHOLDS,
  type TruelayerStatus,
} from '../../contract';
import { BANK_TRANSFER_MESSAGES } from '../../contract/messages/bankTransfer';
import type { HoldLost } from '../../contract/outcome';
import { providedByApp } from '../providedByApp';

export type BankTransferEvent =
  { type: 'CONTINUE_CLICKED' } | { type: 'SWITCH_METHOD_CLICKED' } | { type: 'RETRY_CLICKED' };

export type BankTransferOutcome =
  /** The bank paid: the root goes on to delivery. */
  | { kind: 'paid' }
  /** The buyer will try a different payment method: back to the payment step. */
  | { kind: 'changeMethod' }
  /** The payment failed and the hold is gone: the basket shows the reason. */
  | HoldLost;

export interface BankTransferContext {
  /** Status replies that said the payment is still processing. */
  retries: number;
  pollIntervalMs: number;
  /** The last status read, for the success view's reference and amount. */
  status: TruelayerStatus | null;
  /** What the failure view says, or null. */
  problem: string | null;
  outcome: BankTransferOutcome;
}

type ReturnedFrom = 0 | 1 | null;

export const bankTransferMachine = setup({
  types: {
    context: {} as BankTransferContext,
    events: {} as BankTransferEvent,
    output: {} as BankTransferOutcome,
    children: {} as { readReturnedFrom: 'readReturnedFrom'; getTruelayerStatus: 'getTruelayerStatus' },
    tags: {} as 'waiting',
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide both actors
  actors: {
    /** The checkout's truelayer_returned_from, read afresh. */
    readReturnedFrom: providedByApp.call<ReturnedFrom, void>('readReturnedFrom'),
    getTruelayerStatus: providedByApp.call<TruelayerStatus, void>('getTruelayerStatus'),
  },
  actions: {
    showCancelled: assign({ problem: BANK_TRANSFER_MESSAGES.cancelled }),
    showUnavailable: assign({ problem: BANK_TRANSFER_MESSAGES.unableToGetStatus }),
    showStatusError: assign((_, params: { status: TruelayerStatus }) => ({
      status: params.status,
      problem: params.status.truelayer_status_error || BANK_TRANSFER_MESSAGES.failed,
    })),
    clearProblem: assign({ problem: null }),
    /** A reply still processing: one more retry, at the interval the server asks for. */
    countRetry: assign(({ context }, params: { status: TruelayerStatus }) => ({
      retries: context.retries + 1,
      status: params.status,
      pollIntervalMs: params.status.poll_interval_ms ?? context.pollIntervalMs,
    })),
    keepStatus: assign((_, params: { status: TruelayerStatus }) => ({ status: params.status })),
    keepPaid: assign({ outcome: { kind: 'paid' as const } }),
    keepChangeMethod: assign({ outcome: { kind: 'changeMethod' as const } }),
    keepExpired: assign({ outcome: { kind: 'holdLost' as const, message: BANK_TRANSFER_MESSAGES.expired } }),
  },
  guards: {
    cancelledAtBank: (_, params: { returnedFrom: ReturnedFrom }) => params.returnedFrom === 0,
    isCompleted: (_, params: { status: TruelayerStatus }) =>
      params.status.payment_completed || params.status.status === 'completed',
    isError: (_, params: { status: TruelayerStatus }) => params.status.status === 'error',
    errorWithNoTimeLeft: (_, params: { status: TruelayerStatus }) =>
      params.status.status === 'error' && params.status.checkout_expires_in <= 0,
    /** This processing reply is the 60th: the polling gives up. */
    lastRetry: ({ context }) => context.retries + 1 >= BANK_RETRY_THRESHOLDS.giveUp,
    /** From 9 retries the buyer is offered a different payment method. */
    mayTryAnotherMethod: ({ context }) => context.retries >= BANK_RETRY_THRESHOLDS.slow,
  },
  delays: {
    firstCheck: BANK_FIRST_CHECK_MS,
    pollInterval: ({ context }) => context.pollIntervalMs,
  },
}).createMachine({
  id: 'bankTransfer',
  description: 'Waiting for the bank: the return flag, then the status polled until it settles.',
  context: {
    retries: 0,
    pollIntervalMs: BANK_POLL_INTERVAL_MS,
    status: null,
    problem: null,
    outcome: { kind: 'paid' },
  },
  output: ({ context }) => context.outcome,
  initial: 'starting',
  states: {
    starting: {
      tags: ['waiting'],
      description: 'The first check comes 2 s after the return from the bank.',
      after: { firstCheck: { target: 'readingReturn' } },
    },
    readingReturn: {
      tags: ['waiting'],
      invoke: {
        src: 'readReturnedFrom',
        id: 'readReturnedFrom',
        onDone: [
          {
            guard: { type: 'cancelledAtBank', params: ({ event }) => ({ returnedFrom: event.output }) },
            target: 'failed',
            actions: 'showCancelled',
            description: 'The returned-from flag is 0: You cancelled the payment in the bank portal.',
          },
          { target: 'polling' },
        ],
        onError: { target: 'unavailable', actions: 'showUnavailable' },
      },
    },
    polling: {
      tags: ['waiting'],
      description: 'get_truelayer_status, every pollInterval, only while waiting here.',
      initial: 'checking',
      on: {
        SWITCH_METHOD_CLICKED: {
          guard: 'mayTryAnotherMethod',
          target: 'changingMethod',
          actions: 'keepChangeMethod',
          description: 'Offered from 9 retries: Try a different payment method.',
        },
      },
      states: {
        checking: {
          invoke: {
            src: 'getTruelayerStatus',
            id: 'getTruelayerStatus',
            onDone: [
              {
                guard: { type: 'isCompleted', params: ({ event }) => ({ status: event.output }) },
                target: '#bankTransfer.succeeded',
                actions: { type: 'keepStatus', params: ({ event }) => ({ status: event.output }) },
              },
              {
                guard: { type: 'errorWithNoTimeLeft', params: ({ event }) => ({ status: event.output }) },
                target: '#bankTransfer.expired',
                actions: 'keepExpired',
                description: 'An error with no time left: back to the basket with the reserving error.',
              },
              {
                guard: { type: 'isError', params: ({ event }) => ({ status: event.output }) },
                target: '#bankTransfer.failed',
                actions: { type: 'showStatusError', params: ({ event }) => ({ status: event.output }) },
              },
              {
                guard: 'lastRetry',
                target: '#bankTransfer.gaveUp',
                actions: { type: 'countRetry', params: ({ event }) => ({ status: event.output }) },
                description: 'The 60th retry: the polling stops; tickets follow if the bank confirms.',
              },
              { target: 'waiting', actions: { type: 'countRetry', params: ({ event }) => ({ status: event.output }) } },
            ],
            onError: { target: '#bankTransfer.unavailable', actions: 'showUnavailable' },
          },
        },
        waiting: {
          after: { pollInterval: { target: 'checking' } },
        },
      },
    },
    unavailable: {
      description: 'Unable to get Truelayer status: the buyer may check again or try another method.',
      on: {
        RETRY_CLICKED: { target: 'polling', actions: 'clearProblem' },
        SWITCH_METHOD_CLICKED: { target: 'changingMethod', actions: 'keepChangeMethod' },
      },
    },
    gaveUp: {
      description: 'Not confirmed after 60 retries: tickets will be delivered if the bank confirms.',
      on: { SWITCH_METHOD_CLICKED: { target: 'changingMethod', actions: 'keepChangeMethod' } },
    },
    succeeded: {
      description: 'Paid: the reference and amount, and Continue.',
      on: { CONTINUE_CLICKED: { target: 'paid', actions: 'keepPaid' } },
    },
    failed: {
      description: 'The bank did not pay (or the buyer cancelled there): Try a different payment method.',
      on: { SWITCH_METHOD_CLICKED: { target: 'changingMethod', actions: 'keepChangeMethod' } },
    },
    paid: { type: 'final' },
    changingMethod: { type: 'final' },
    expired: { type: 'final' },
  },
});
