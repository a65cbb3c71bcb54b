/**
 * Order completed (spec 001 §2 "Order completed", §4 "Other", §7, §8): the sub-view the buyer is on
 * (overview, transfer_tickets, find-a-place, each with a Back link to the overview), the one dialog
 * that may be open ('How did we do?' feedback, or sharing with its copy button that says 'Copied'
 * for 2 s), the subscription to important event updates, and the buyer's referral link, read once
 * (its failure is silent: the share tile simply does not show).
 *
 * Server data (the checkout's events, the user's subscription) stays in the query cache: the chart
 * keeps only what the buyer is doing. Every side effect is a named actor or action the app provides.
 */
import { assertEvent, assign, setup } from 'xstate';
import { ORDER_COMPLETED_MESSAGES } from '../../contract/messages/orderCompleted';
import { providedByApp } from '../providedByApp';
import type { transfersMachine, TransfersInput } from '../transfers/transfers.machine';

/** A notification after feedback or subscribing (spec 001 §8). */
export interface OrderCompletedNotice {
  kind: 'success' | 'error';
  text: string;
}

export interface OrderCompletedContext {
  /** The feedback being written. */
  message: string;
  /** The event whose venue the accommodation map shows; null for the first with a venue. */
  mapEventId: number | null;
  /** The buyer's referral link, once read. */
  referrerLink: string | null;
  /** The tickets were transferred: transferring is no longer offered (spec 001 §4 Transfers). */
  transferred: boolean;
  notice: OrderCompletedNotice | null;
}

export type OrderCompletedEvent =
  /** The transfer form opens with the order's tickets that can be transferred, and the UK date today. */
  | ({ type: 'TRANSFER_OPENED' } & TransfersInput)
  | { type: 'FIND_A_PLACE_OPENED'; eventId?: number }
  | { type: 'MAP_EVENT_CHOSEN'; eventId: number }
  | { type: 'BACK_CLICKED' }
  | { type: 'TICKETS_TRANSFERRED' }
  | { type: 'FEEDBACK_OPENED' }
  | { type: 'FEEDBACK_CHANGED'; message: string }
  | { type: 'SEND_CLICKED' }
  | { type: 'SHARE_OPENED' }
  | { type: 'COPY_CLICKED'; text: string }
  | { type: 'SHARE_SHEET_CLICKED'; text: string }
  | { type: 'DIALOG_CLOSED' }
  | { type: 'SUBSCRIBE_CLICKED' }
  | { type: 'NOTICE_DISMISSED' };

export const orderCompletedMachine = setup({
  types: {
    context: {} as OrderCompletedContext,
    events: {} as OrderCompletedEvent,
    children: {} as {
      loadReferrerLink: 'loadReferrerLink';
      sendFeedback: 'sendFeedback';
      subscribeToEvents: 'subscribeToEvents';
      copyText: 'copyText';
      transfers: 'transfers';
    },
  },
  actors: {
    /** GET get_reward_referrer_link: the link string. */
    loadReferrerLink: providedByApp.call<string, void>('loadReferrerLink'),
    /** POST send_customer_feedback with the message. */
    sendFeedback: providedByApp.call<void, { message: string }>('sendFeedback'),
    /** POST subscribe_to_events; the app then reads the user again, who is now subscribed. */
    subscribeToEvents: providedByApp.call<void, void>('subscribeToEvents'),
    /** Writes the text to the clipboard. */
    copyText: providedByApp.call<void, { text: string }>('copyText'),
    /** The Transfer tickets form (machines/transfers), with the app's set_transfers. */
    transfers: providedByApp.chart<typeof transfersMachine>('transfers'),
  },
  actions: {
    /** Opens the device's own share sheet with the text (where the browser has one). */
    openShareSheet: providedByApp.action<{ text: string }>(),
    keepReferrerLink: assign((_, params: { link: string }) => ({ referrerLink: params.link })),
    keepMessage: assign({
      message: ({ event }) => {
        assertEvent(event, 'FEEDBACK_CHANGED');
        return event.message;
      },
    }),
    chooseMapEvent: assign({
      mapEventId: ({ event, context }) => {
        assertEvent(event, ['FIND_A_PLACE_OPENED', 'MAP_EVENT_CHOSEN']);
        return event.eventId ?? context.mapEventId;
      },
    }),
    clearMessage: assign({ message: '' }),
    notify: assign((_, params: OrderCompletedNotice) => ({ notice: params })),
    dismissNotice: assign({ notice: null }),
    markTransferred: assign({ transferred: true }),
  },
  guards: {
    hasMessage: ({ context }) => context.message.trim().length > 0,
    hasReferrerLink: ({ context }) => context.referrerLink !== null,
  },
  delays: {
    /** How long the copy button says 'Copied' (spec 001 §9: 2 s). */
    copiedFor: 2000,
  },
}).createMachine({
  id: 'orderCompleted',
  description: 'What a buyer does once the order is complete: the tiles, their dialogs and sub-views.',
  context: { message: '', mapEventId: null, referrerLink: null, transferred: false, notice: null },
  type: 'parallel',
  on: { NOTICE_DISMISSED: { actions: 'dismissNotice' } },
  states: {
    view: {
      initial: 'overview',
      states: {
        overview: {
          on: {
            TRANSFER_OPENED: { target: 'transfer_tickets' },
            FIND_A_PLACE_OPENED: { target: 'find_a_place', actions: 'chooseMapEvent' },
          },
        },
        transfer_tickets: {
          description: 'The Transfer tickets form is a child chart; sending the tickets ends it.',
          invoke: {
            src: 'transfers',
            id: 'transfers',
            systemId: 'transfers',
            input: ({ event }) => {
              assertEvent(event, 'TRANSFER_OPENED');
              return { tickets: event.tickets, today: event.today };
            },
            onDone: {
              actions: 'markTransferred',
              description: 'Sent: the tile goes, the tickets have been transferred.',
            },
          },
          on: {
            BACK_CLICKED: { target: 'overview' },
            TICKETS_TRANSFERRED: {
              actions: 'markTransferred',
              description: 'On success the tile goes: the tickets have been transferred.',
            },
          },
        },
        find_a_place: {
          description: 'With several events, a link per event switches the map.',
          on: {
            BACK_CLICKED: { target: 'overview' },
            MAP_EVENT_CHOSEN: { actions: 'chooseMapEvent' },
          },
        },
      },
    },
    dialog: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            FEEDBACK_OPENED: { target: 'feedback' },
            SHARE_OPENED: { target: 'share', guard: 'hasReferrerLink' },
          },
        },
        feedback: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                FEEDBACK_CHANGED: { actions: 'keepMessage' },
                SEND_CLICKED: { target: 'sending', guard: 'hasMessage' },
                DIALOG_CLOSED: { target: '#orderCompleted.dialog.closed' },
              },
            },
            sending: {
              description: 'Send is disabled while sending; the modal closes either way.',
              invoke: {
                src: 'sendFeedback',
                id: 'sendFeedback',
                input: ({ context }) => ({ message: context.message.trim() }),
                onDone: {
                  target: '#orderCompleted.dialog.closed',
                  actions: [
                    'clearMessage',
                    { type: 'notify', params: { kind: 'success', text: ORDER_COMPLETED_MESSAGES.feedbackSent } },
                  ],
                },
                onError: {
                  target: '#orderCompleted.dialog.closed',
                  actions: { type: 'notify', params: { kind: 'error', text: ORDER_COMPLETED_MESSAGES.feedbackFailed } },
                },
              },
            },
          },
        },
        share: {
          initial: 'idle',
          on: {
            DIALOG_CLOSED: { target: 'closed' },
            SHARE_SHEET_CLICKED: { actions: { type: 'openShareSheet', params: ({ event }) => ({ text: event.text }) } },
          },
          states: {
            idle: { on: { COPY_CLICKED: { target: 'copying' } } },
            copying: {
              invoke: {
                src: 'copyText',
                id: 'copyText',
                input: ({ event }) => {
                  assertEvent(event, 'COPY_CLICKED');
                  return { text: event.text };
                },
                onDone: { target: 'copied' },
                onError: {
                  target: 'idle',
                  description: 'The browser refused the clipboard: the text stays there to copy by hand.',
                },
              },
            },
            copied: {
              description: "The copy button says 'Copied' for 2 seconds.",
              after: { copiedFor: { target: 'idle' } },
              on: { COPY_CLICKED: { target: 'copying' } },
            },
          },
        },
      },
    },
    subscription: {
      initial: 'idle',
      states: {
        idle: { on: { SUBSCRIBE_CLICKED: { target: 'subscribing' } } },
        subscribing: {
          invoke: {
            src: 'subscribeToEvents',
            id: 'subscribeToEvents',
            onDone: {
              target: 'subscribed',
              actions: { type: 'notify', params: { kind: 'success', text: ORDER_COMPLETED_MESSAGES.subscribed } },
            },
            onError: {
              target: 'idle',
              actions: { type: 'notify', params: { kind: 'error', text: ORDER_COMPLETED_MESSAGES.subscribeFailed } },
            },
          },
        },
        subscribed: { description: 'The link is gone: the buyer is subscribed.' },
      },
    },
    referrer: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadReferrerLink',
            id: 'loadReferrerLink',
            onDone: {
              target: 'ready',
              actions: { type: 'keepReferrerLink', params: ({ event }) => ({ link: event.output }) },
            },
            onError: { target: 'none', description: 'A failure is silent: there is no share tile.' },
          },
        },
        ready: {},
        none: {},
      },
    },
  },
});
