/**
 * Reserves the basket (spec 000 §4 "Basket to reserve"): refuses in-app social browsers, asks the
 * server with reserve_tickets, and turns the reply into one ReservationOutcome, its output. The
 * root machine decides what each outcome means for the flow.
 */
import { assign, setup } from 'xstate';
import type { Checkout } from '../../contract';
import type { ReservationOutcome, ReserveReply } from './reservation.types.ts';
import { providedByApp } from '../providedByApp';

export interface ReservationInput {
  captchaToken?: string;
}

export type ReservationEvent = { type: 'COPY_LINK_CLICKED' } | { type: 'WHY_TOGGLED' };

export interface ReservationContext {
  captchaToken: string | undefined;
  whyOpen: boolean;
  saleReference: string | null;
  checkoutTime: number | null;
  outcome: ReservationOutcome;
}

export const reservationMachine = setup({
  types: {
    context: {} as ReservationContext,
    events: {} as ReservationEvent,
    input: {} as ReservationInput,
    output: {} as ReservationOutcome,
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide these actors.
  actors: {
    reserveTickets: providedByApp.call<ReserveReply, { captchaToken?: string }>('reserveTickets'),
    loadCheckout: providedByApp.call<Checkout, void>('loadCheckout'),
    copyLink: providedByApp.call<void, void>('copyLink'),
  },
  actions: {
    toggleWhy: assign({ whyOpen: ({ context }) => !context.whyOpen }),
    keepReservation: assign((_, params: { reply: ReserveReply }) => ({
      saleReference: params.reply.sale_reference ?? null,
      checkoutTime: params.reply.checkout_time ?? null,
    })),
    decide: assign((_, params: { outcome: ReservationOutcome }) => ({ outcome: params.outcome })),
  },
  guards: {
    /** Provided by the app from navigator.userAgent (see isInAppBrowserUserAgent). */
    // Stryker disable next-line ArrowFunction: the app and every test provide isInAppBrowser.
    isInAppBrowser: () => false,
    isReserved: (_, params: { reply: ReserveReply }) =>
      params.reply.reserved &&
      typeof params.reply.sale_reference === 'string' &&
      typeof params.reply.checkout_time === 'number',
    needsCaptcha: (_, params: { reply: ReserveReply }) =>
      params.reply.captcha === true && typeof params.reply.captcha_sitekey === 'string',
    isRedirect: (_, params: { reply: ReserveReply }) => typeof params.reply.redirect === 'string',
    isRefused: (_, params: { reply: ReserveReply }) => typeof params.reply.error === 'string',
  },
  delays: {
    linkCopiedFor: 2000,
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: no target names the reservation by its id.
  id: 'reservation',
  description: 'Asks the server to hold the basket and classifies its answer into one outcome.',
  context: ({ input }) => ({
    captchaToken: input.captchaToken,
    whyOpen: false,
    saleReference: null,
    checkoutTime: null,
    /** Until a reply says otherwise, and also when none of the known replies came. */
    outcome: { kind: 'unknown' },
  }),
  output: ({ context }) => context.outcome,
  initial: 'checkingBrowser',
  states: {
    checkingBrowser: {
      always: [{ guard: 'isInAppBrowser', target: 'incompatibleBrowser' }, { target: 'requesting' }],
    },
    incompatibleBrowser: {
      description: 'You are using an incompatible browser: the buyer copies the link to open it elsewhere.',
      initial: 'waiting',
      states: {
        waiting: {},
        copying: {
          invoke: {
            src: 'copyLink',
            id: 'copyLink',
            onDone: { target: 'linkCopied' },
            // Stryker disable next-line ObjectLiteral,StringLiteral: copying and waiting show the buyer the same screen.
            onError: { target: 'waiting', description: 'The clipboard refused; the button stays available.' },
          },
        },
        linkCopied: {
          description: '"Link copied" is shown for linkCopiedFor.',
          after: { linkCopiedFor: { target: 'waiting' } },
        },
      },
      on: {
        COPY_LINK_CLICKED: { target: '.copying' },
        WHY_TOGGLED: { actions: 'toggleWhy' },
      },
    },
    requesting: {
      invoke: {
        src: 'reserveTickets',
        id: 'reserveTickets',
        input: ({ context }) => (context.captchaToken === undefined ? {} : { captchaToken: context.captchaToken }),
        onDone: [
          {
            guard: { type: 'isReserved', params: ({ event }) => ({ reply: event.output }) },
            target: 'fetchingCheckout',
            actions: { type: 'keepReservation', params: ({ event }) => ({ reply: event.output }) },
          },
          {
            guard: { type: 'needsCaptcha', params: ({ event }) => ({ reply: event.output }) },
            target: 'captchaRequired',
            actions: {
              type: 'decide',
              // Stryker disable next-line StringLiteral: needsCaptcha guarantees the sitekey; the fallback is for the type.
              params: ({ event }) => ({ outcome: { kind: 'captcha', sitekey: event.output.captcha_sitekey ?? '' } }),
            },
          },
          {
            guard: { type: 'isRedirect', params: ({ event }) => ({ reply: event.output }) },
            target: 'redirected',
            actions: {
              type: 'decide',
              // Stryker disable next-line StringLiteral: isRedirect guarantees the url; the fallback is for the type.
              params: ({ event }) => ({ outcome: { kind: 'redirect', url: event.output.redirect ?? '' } }),
            },
          },
          {
            guard: { type: 'isRefused', params: ({ event }) => ({ reply: event.output }) },
            target: 'refused',
            actions: {
              type: 'decide',
              // Stryker disable next-line StringLiteral: isRefused guarantees the message; the fallback is for the type.
              params: ({ event }) => ({ outcome: { kind: 'error', message: event.output.error ?? '' } }),
            },
          },
          { target: 'unknownReply', description: 'The outcome stays unknown.' },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'decide', params: { outcome: { kind: 'failed' } } },
        },
      },
    },
    fetchingCheckout: {
      description: 'Reserved: the fresh checkout tells the root which step comes next.',
      invoke: {
        src: 'loadCheckout',
        id: 'loadCheckout',
        onDone: {
          target: 'reserved',
          actions: {
            type: 'decide',
            params: ({ context, event }) => ({
              outcome: {
                kind: 'reserved',
                // Stryker disable next-line StringLiteral: isReserved guarantees the reference; the fallback is for the type.
                saleReference: context.saleReference ?? '',
                checkoutTime: context.checkoutTime ?? 0,
                checkout: event.output,
              },
            }),
          },
        },
        onError: {
          target: 'failed',
          actions: { type: 'decide', params: { outcome: { kind: 'failed' } } },
        },
      },
    },
    reserved: { type: 'final' },
    captchaRequired: { type: 'final' },
    redirected: { type: 'final' },
    refused: { type: 'final', description: 'The server said why it cannot hold the basket.' },
    unknownReply: { type: 'final' },
    failed: { type: 'final', description: 'The request itself failed.' },
  },
});
