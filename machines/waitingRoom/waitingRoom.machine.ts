/**
 * The queue page: find this browser's place (joining with a proof of work when it has none), then
 * ask again when the server says, until admission (go to the tickets) or the sell-out (a waiting
 * list is offered, and the queue is asked again in case held tickets are released). The server also
 * pushes: 'sold out' comes as a status (`STATUS_PUSHED`), and 'ask now' (`NUDGED`: it may be this
 * buyer's turn, or the queue opened again) ends the wait for the next poll.
 *
 * Side effects are named: `fetchStatus`, `join` (proof of work and joining) and `joinWaitingList`
 * are actors, `enterShop` leaves for the event page, `pollDelay` is the server's interval.
 */
import { assign, setup } from 'xstate';
import type { QueueStatus } from '../../contract/waitingRoom.ts';
import { providedByApp } from '../providedByApp';

export interface WaitingRoomContext {
  status: QueueStatus | null;
  /** What the waiting list answered, or why it failed. */
  listMessage: string | null;
  listFailed: boolean;
}

export type WaitingRoomEvent =
  | { type: 'RETRY_CLICKED' }
  | { type: 'NUDGED' }
  | { type: 'STATUS_PUSHED'; status: QueueStatus }
  | { type: 'WAITING_LIST_SUBMITTED'; ticketTypeId: number; email: string; quantity: number };

export interface WaitingListRequest {
  ticketTypeId: number;
  email: string;
  quantity: number;
}

export const waitingRoomMachine = setup({
  types: {
    context: {} as WaitingRoomContext,
    events: {} as WaitingRoomEvent,
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide all three actors.
  actors: {
    fetchStatus: providedByApp.call<QueueStatus>('fetchStatus'),
    join: providedByApp.call<QueueStatus>('join'),
    joinWaitingList: providedByApp.call<{ joined: boolean; message: string }, WaitingListRequest>('joinWaitingList'),
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide the navigation.
  actions: {
    enterShop: (_, _params: { url: string }) => {},
    /** The status the server answered (a place, the sell-out, the admission). */
    keepStatus: assign((_, params: { status: QueueStatus }) => ({ status: params.status })),
    clearListAnswer: assign({ listMessage: null, listFailed: false }),
    keepListJoined: assign((_, params: { message: string }) => ({ listMessage: params.message, listFailed: false })),
    keepListRefused: assign((_, params: { message: string }) => ({ listMessage: params.message, listFailed: true })),
    showListFailed: assign({ listMessage: null, listFailed: true }),
  },
  delays: {
    // Stryker disable next-line OptionalChaining: waiting and sold out are only entered with the status that named them.
    pollDelay: ({ context }) => context.status?.poll_ms ?? 5000,
    retryDelay: 5000,
  },
  guards: {
    hasNoPlace: (_, params: { status: QueueStatus }) => params.status.state === 'no-place',
    isAdmitted: (_, params: { status: QueueStatus }) => params.status.state === 'admitted',
    isSoldOut: (_, params: { status: QueueStatus }) => params.status.state === 'sold-out',
    /** The waiting list took the buyer's address. */
    isOnList: (_, params: { reply: { joined: boolean } }) => params.reply.joined,
  },
}).createMachine({
  id: 'waitingRoom',
  type: 'parallel',
  context: { status: null, listMessage: null, listFailed: false },
  states: {
    queue: {
      initial: 'checking',
      states: {
        checking: {
          invoke: {
            id: 'fetchStatus',
            src: 'fetchStatus',
            onDone: [
              { guard: { type: 'hasNoPlace', params: ({ event }) => ({ status: event.output }) }, target: 'joining' },
              {
                guard: { type: 'isAdmitted', params: ({ event }) => ({ status: event.output }) },
                target: 'admitted',
                actions: { type: 'keepStatus', params: ({ event }) => ({ status: event.output }) },
              },
              {
                guard: { type: 'isSoldOut', params: ({ event }) => ({ status: event.output }) },
                target: 'soldOut',
                actions: { type: 'keepStatus', params: ({ event }) => ({ status: event.output }) },
              },
              { target: 'waiting', actions: { type: 'keepStatus', params: ({ event }) => ({ status: event.output }) } },
            ],
            onError: 'offline',
          },
        },
        joining: {
          invoke: {
            id: 'join',
            src: 'join',
            onDone: [
              {
                guard: { type: 'hasNoPlace', params: ({ event }) => ({ status: event.output }) },
                target: 'joinFailed',
              },
              {
                guard: { type: 'isAdmitted', params: ({ event }) => ({ status: event.output }) },
                target: 'admitted',
                actions: { type: 'keepStatus', params: ({ event }) => ({ status: event.output }) },
              },
              {
                guard: { type: 'isSoldOut', params: ({ event }) => ({ status: event.output }) },
                target: 'soldOut',
                actions: { type: 'keepStatus', params: ({ event }) => ({ status: event.output }) },
              },
              { target: 'waiting', actions: { type: 'keepStatus', params: ({ event }) => ({ status: event.output }) } },
            ],
            onError: 'joinFailed',
          },
        },
        joinFailed: {
          on: { RETRY_CLICKED: 'joining' },
        },
        waiting: {
          after: { pollDelay: 'checking' },
          on: {
            NUDGED: 'checking',
            STATUS_PUSHED: [
              {
                guard: { type: 'isSoldOut', params: ({ event }) => ({ status: event.status }) },
                target: 'soldOut',
                actions: { type: 'keepStatus', params: ({ event }) => ({ status: event.status }) },
              },
              { target: 'checking' },
            ],
          },
        },
        soldOut: {
          after: { pollDelay: 'checking' },
          on: {
            NUDGED: 'checking',
            STATUS_PUSHED: [
              {
                guard: { type: 'isSoldOut', params: ({ event }) => ({ status: event.status }) },
                target: 'soldOut',
                reenter: true,
                actions: { type: 'keepStatus', params: ({ event }) => ({ status: event.status }) },
              },
              { target: 'checking' },
            ],
          },
        },
        offline: {
          after: { retryDelay: 'checking' },
        },
        admitted: {
          type: 'final',
          // Stryker disable next-line OptionalChaining,StringLiteral: admitted is only entered with the status that admitted the buyer.
          entry: { type: 'enterShop', params: ({ context }) => ({ url: context.status?.event_url ?? '/' }) },
        },
      },
    },
    waitingList: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            WAITING_LIST_SUBMITTED: { target: 'sending', actions: 'clearListAnswer' },
          },
        },
        sending: {
          invoke: {
            id: 'joinWaitingList',
            src: 'joinWaitingList',
            input: ({ event }) => {
              const e = event as Extract<WaitingRoomEvent, { type: 'WAITING_LIST_SUBMITTED' }>;
              return { ticketTypeId: e.ticketTypeId, email: e.email, quantity: e.quantity };
            },
            onDone: [
              {
                guard: { type: 'isOnList', params: ({ event }) => ({ reply: event.output }) },
                target: 'joined',
                actions: { type: 'keepListJoined', params: ({ event }) => ({ message: event.output.message }) },
              },
              {
                target: 'idle',
                actions: { type: 'keepListRefused', params: ({ event }) => ({ message: event.output.message }) },
              },
            ],
            onError: { target: 'idle', actions: 'showListFailed' },
          },
        },
        joined: {},
      },
    },
  },
});
