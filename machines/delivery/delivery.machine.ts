/**
 * The delivery step (spec 001 §4 Delivery, §8, §9): 1 s after entry the tickets go into the ticket
 * wallet (deliver_to_bitticket), then the wallet goes out by e-mail (deliver_to_wallet); 3 s after
 * both are done the step ends, the user being fetched first when the buyer is not signed in (an
 * express buyer's account was made for the delivery). A call that fails may be tried again; a
 * delivery the server reports as not completed is final: 'Delivery failed. Please contact support'
 * with error code 2961.
 */
import { assign, setup } from 'xstate';
import { DELIVERY_ADVANCE_DELAY_MS, DELIVERY_START_DELAY_MS, type ResponseOf } from '../../contract';
import { DELIVERY_FAILED_CODE, DELIVERY_MESSAGES } from '../../contract/messages/delivery';
import { providedByApp } from '../providedByApp';

export type DeliveryEvent = { type: 'RETRY_CLICKED' };

export interface DeliveryContext {
  /** What the buyer is told went wrong, or null. */
  problem: string | null;
  /** The support code shown with a delivery that did not complete. */
  errorCode: number | null;
}

type DeliveryReply = ResponseOf<'deliverToBitticket'>;

export const deliveryMachine = setup({
  types: {
    context: {} as DeliveryContext,
    events: {} as DeliveryEvent,
    children: {} as {
      deliverToBitticket: 'deliverToBitticket';
      deliverToWallet: 'deliverToWallet';
      fetchUser: 'fetchUser';
    },
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide all three actors
  actors: {
    deliverToBitticket: providedByApp.call<DeliveryReply, void>('deliverToBitticket'),
    deliverToWallet: providedByApp.call<DeliveryReply, void>('deliverToWallet'),
    /** Reads the signed-in user afresh, so the app knows the buyer the tickets went to. */
    fetchUser: providedByApp.call<unknown, void>('fetchUser'),
  },
  actions: {
    clearProblem: assign({ problem: null, errorCode: null }),
    showProblem: assign((_, params: { text: string }) => ({ problem: params.text, errorCode: null })),
    showDeliveryFailed: assign({ problem: DELIVERY_MESSAGES.deliveryFailed, errorCode: DELIVERY_FAILED_CODE }),
  },
  guards: {
    deliveryCompleted: (_, params: { reply: DeliveryReply }) => params.reply.delivery_completed,
    /** Whether the app already knows a signed-in user. Provided by the app. */
    // Stryker disable next-line ArrowFunction,BooleanLiteral: the app and every test provide it
    signedIn: () => false,
  },
  delays: {
    deliveryStartDelay: DELIVERY_START_DELAY_MS,
    deliveryAdvanceDelay: DELIVERY_ADVANCE_DELAY_MS,
  },
}).createMachine({
  id: 'delivery',
  description: 'Tickets into the ticket wallet, then the wallet by e-mail; the step ends 3 s after both.',
  context: { problem: null, errorCode: null },
  initial: 'starting',
  states: {
    starting: {
      description: 'The delivery screen starts 1 s after entry.',
      after: { deliveryStartDelay: { target: 'deliveringTickets' } },
    },
    deliveringTickets: {
      description: 'deliver_to_bitticket: the tickets go into the ticket wallet.',
      invoke: {
        src: 'deliverToBitticket',
        id: 'deliverToBitticket',
        onDone: [
          {
            guard: { type: 'deliveryCompleted', params: ({ event }) => ({ reply: event.output }) },
            target: 'deliveringWallet',
          },
          { target: 'ticketsFailed', actions: 'showDeliveryFailed' },
        ],
        onError: {
          target: 'ticketsNotDelivered',
          actions: { type: 'showProblem', params: { text: DELIVERY_MESSAGES.unableToDeliverToBitTicket } },
        },
      },
    },
    ticketsNotDelivered: {
      on: { RETRY_CLICKED: { target: 'deliveringTickets', actions: 'clearProblem' } },
    },
    deliveringWallet: {
      description: 'deliver_to_wallet: the wallet is sent to the buyer by e-mail.',
      invoke: {
        src: 'deliverToWallet',
        id: 'deliverToWallet',
        onDone: [
          {
            guard: { type: 'deliveryCompleted', params: ({ event }) => ({ reply: event.output }) },
            target: 'delivered',
          },
          { target: 'walletFailed', actions: 'showDeliveryFailed' },
        ],
        onError: {
          target: 'walletNotDelivered',
          actions: { type: 'showProblem', params: { text: DELIVERY_MESSAGES.unableToDeliverToWallet } },
        },
      },
    },
    walletNotDelivered: {
      on: { RETRY_CLICKED: { target: 'deliveringWallet', actions: 'clearProblem' } },
    },
    delivered: {
      description: 'Both stages done; the step advances 3 s later.',
      after: {
        deliveryAdvanceDelay: [
          { guard: 'signedIn', target: 'done' },
          { target: 'fetchingUser', description: 'Not signed in: the user is fetched first.' },
        ],
      },
    },
    fetchingUser: {
      invoke: {
        src: 'fetchUser',
        id: 'fetchUser',
        onDone: { target: 'done' },
        onError: { target: 'done', description: 'The tickets are delivered; the step goes on.' },
      },
    },
    // Stryker disable next-line ObjectLiteral: a stop whose only content is its description
    ticketsFailed: {
      description: 'The tickets did not reach the wallet: Delivery failed. Please contact support (error code 2961).',
    },
    // Stryker disable next-line ObjectLiteral: a stop whose only content is its description
    walletFailed: {
      description: 'The wallet e-mail did not go out: Delivery failed. Please contact support (error code 2961).',
    },
    done: { type: 'final' },
  },
});
