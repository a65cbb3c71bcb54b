/**
 * The seat-selection page (spec 001 §2 Seat-selection page, §5 Seat selection): the buyer presses
 * seats; a seat picked is held on the server under the buyer's hold token, a seat pressed again is
 * given back; a press the seat rules refuse (no orphan seat, consecutive seats, no pricing) is
 * explained in words and asks nothing of the server; the server may refuse too (another buyer was
 * quicker). The hold has a deadline: when it passes, the seats are gone and the page says so.
 * 'Add To Basket!' works only with a seat held and no hold call pending; adding posts the seats
 * with their hold token and goes to the checkout.
 *
 * The seating plan itself is server data (React Query); the press event carries the rules' verdict,
 * worked out by the connect layer from the plan and this machine's selection.
 *
 * With seats.io (the plan's provider when keyed) the chart is seats.io's: it holds and gives back
 * seats itself, under its own hold token, and reports what it did. Its events (CHART_*) keep the
 * same selection here, so 'Selected Seats:', the total and 'Add To Basket!' work as with our map:
 * a selected seat is held under the chart's token; while its hold calls run, adding waits; a hold
 * it could not make is explained; a selection its validators refuse (an orphan seat, a gap) cannot
 * be added; when its token expires the seats are gone.
 */
import { assign, setup } from 'xstate';
import type { RequestOf, ResponseOf, SeatHold } from '../../contract';
import { messageOf } from '../../contract/errors.ts';
import { failureOf } from '../../contract/outcome.ts';
import { SEAT_MESSAGES } from '../../contract/messages/seats.ts';
import { providedByApp } from '../providedByApp';

export type AddRequest = RequestOf<'addToBasket'>;

export type SeatSelectionEvent =
  | {
      type: 'SEAT_PRESSED';
      seatId: number;
      /** Why the seat rules refuse this press, in words; null when they allow it. */
      refusal: string | null;
    }
  | { type: 'ADD_CLICKED'; request: AddRequest }
  | { type: 'PROBLEM_DISMISSED' }
  /** seats.io's chart selected a seat (its hold goes under `holdToken`, which lasts `secondsRemaining`). */
  | { type: 'CHART_SEAT_SELECTED'; seatId: number; holdToken: string | null; secondsRemaining: number }
  | { type: 'CHART_SEAT_DESELECTED'; seatId: number; secondsRemaining: number }
  /** The chart's hold or release calls started, and all of them ended. */
  | { type: 'CHART_HOLD_CALLS_STARTED' }
  | { type: 'CHART_HOLD_CALLS_COMPLETE' }
  /** The chart could not hold these seats (another buyer was quicker): they are not selected. */
  | { type: 'CHART_HOLD_FAILED'; seatIds: number[]; message: string }
  /** The chart's selection validators: why the selection cannot be booked as it is, or null. */
  | { type: 'CHART_VALIDITY'; violation: string | null }
  | { type: 'CHART_HOLD_EXPIRED' };

export interface SeatSelectionInput {
  eventDateId: number;
  /** The buyer's live hold on this date when the page opened (the hold session continues). */
  hold: SeatHold;
}

export interface SeatSelectionContext {
  eventDateId: number;
  /** The seats the server holds for the buyer, in its order. */
  selected: number[];
  holdToken: string | null;
  /** Seconds the hold had left at its last reply: the hold-expiry timer runs from there. */
  secondsRemaining: number;
  /** Why the last press was refused (by the rules or the server), in words. */
  refusal: string | null;
  /** Shown as an error toast: the server's message when adding or a hold call failed outright. */
  problem: string | null;
  /** The hold ran out and its seats were released. */
  expired: boolean;
  /** Why seats.io's chart says the selection cannot be booked as it is (an orphan seat…); null when it can. */
  violation: string | null;
}

export const seatSelectionMachine = setup({
  types: {
    context: {} as SeatSelectionContext,
    events: {} as SeatSelectionEvent,
    input: {} as SeatSelectionInput,
    children: {} as { holdSeats: 'holdSeats'; releaseSeats: 'releaseSeats'; addToBasket: 'addToBasket' },
    tags: {} as 'pending',
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide all three actors
  actors: {
    holdSeats: providedByApp.call<SeatHold, RequestOf<'holdSeats'>>('holdSeats'),
    releaseSeats: providedByApp.call<SeatHold, RequestOf<'releaseSeats'>>('releaseSeats'),
    addToBasket: providedByApp.call<ResponseOf<'addToBasket'>, AddRequest>('addToBasket'),
  },
  actions: {
    /**
     * The plan may have changed under the buyer (a refusal: someone was quicker; an expiry): read it
     * again. A hold's own reply says which seats are the buyer's, so a success reads nothing more.
     * Provided by the app.
     */
    planChanged: () => {},
    /** Spec 001 §7: on success go to /checkout/. Provided by the app. */
    goToCheckout: () => {},
    explainRefusal: assign((_, params: { refusal: string }) => ({ refusal: params.refusal, problem: null })),
    takeHold: assign((_, params: { hold: SeatHold }) => ({
      selected: params.hold.seat_ids,
      holdToken: params.hold.hold_token,
      secondsRemaining: params.hold.seconds_remaining,
      refusal: null,
      problem: null,
      expired: false,
    })),
    explainServerRefusal: assign((_, params: { error: unknown }) => {
      const message = messageOf(params.error, SEAT_MESSAGES.holdFailed);
      // A refusal is a rule or another buyer: said next to the chart. Anything else is a failure: a toast.
      return failureOf(params.error).kind === 'refused'
        ? { refusal: message, problem: null }
        : { refusal: null, problem: message };
    }),
    showAddProblem: assign((_, params: { error: unknown }) => ({
      problem: messageOf(params.error, SEAT_MESSAGES.addFailed),
    })),
    dismissProblem: assign({ problem: null }),
    clearMessages: assign({ refusal: null, problem: null }),
    releaseAll: assign({ selected: [], secondsRemaining: 0, refusal: null, expired: true, violation: null }),
    chartSelect: assign(
      ({ context }, params: { seatId: number; holdToken: string | null; secondsRemaining: number }) => ({
        selected: context.selected.includes(params.seatId) ? context.selected : [...context.selected, params.seatId],
        holdToken: params.holdToken ?? context.holdToken,
        secondsRemaining: params.secondsRemaining,
        refusal: null,
        expired: false,
      }),
    ),
    chartDeselect: assign(({ context }, params: { seatId: number; secondsRemaining: number }) => ({
      selected: context.selected.filter((id) => id !== params.seatId),
      secondsRemaining: params.secondsRemaining,
      refusal: null,
    })),
    chartHoldFailed: assign(({ context }, params: { seatIds: number[]; message: string }) => ({
      selected: context.selected.filter((id) => !params.seatIds.includes(id)),
      refusal: params.message,
    })),
    chartValidity: assign((_, params: { violation: string | null }) => ({ violation: params.violation })),
  },
  guards: {
    refused: (_, params: { refusal: string | null }) => params.refusal !== null,
    isSelected: ({ context }, params: { seatId: number }) => context.selected.includes(params.seatId),
    holdsSeats: ({ context }) => context.selected.length > 0,
    selectionValid: ({ context }) => context.violation === null,
  },
  delays: {
    /** The hold's deadline, from the seconds the server said were left. */
    holdTimeout: ({ context }) => context.secondsRemaining * 1000,
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: no target names the seat-selection chart by its id.
  id: 'seatSelection',
  description:
    'Seats picked are held for the buyer, given back when pressed again, refused in words; added to the basket together.',
  context: ({ input }) => ({
    eventDateId: input.eventDateId,
    selected: input.hold.seconds_remaining > 0 ? input.hold.seat_ids : [],
    holdToken: input.hold.hold_token,
    secondsRemaining: input.hold.seconds_remaining,
    refusal: null,
    problem: null,
    expired: false,
    violation: null,
  }),
  initial: 'deciding',
  on: {
    PROBLEM_DISMISSED: { actions: 'dismissProblem' },
    CHART_VALIDITY: { actions: { type: 'chartValidity', params: ({ event }) => ({ violation: event.violation }) } },
  },
  states: {
    deciding: {
      description: 'Whether the buyer holds seats now: after a reply, or when the page opens with a hold still live.',
      always: [{ guard: 'holdsSeats', target: 'held' }, { target: 'choosing' }],
    },
    choosing: {
      description: 'No seat held yet.',
      on: {
        SEAT_PRESSED: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ refusal: event.refusal }) },
            actions: { type: 'explainRefusal', params: ({ event }) => ({ refusal: event.refusal! }) },
          },
          { target: 'holding' },
        ],
        CHART_SEAT_SELECTED: { target: 'deciding', actions: { type: 'chartSelect', params: ({ event }) => event } },
        CHART_SEAT_DESELECTED: { target: 'deciding', actions: { type: 'chartDeselect', params: ({ event }) => event } },
        CHART_HOLD_FAILED: { target: 'deciding', actions: { type: 'chartHoldFailed', params: ({ event }) => event } },
        CHART_HOLD_CALLS_STARTED: { target: 'chartHolding' },
      },
    },
    held: {
      description: 'Seats are held until the deadline; Add To Basket! is offered.',
      after: {
        holdTimeout: {
          target: 'choosing',
          actions: ['releaseAll', 'planChanged'],
          description: 'Hold expired: the seats are released.',
        },
      },
      on: {
        SEAT_PRESSED: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ refusal: event.refusal }) },
            actions: { type: 'explainRefusal', params: ({ event }) => ({ refusal: event.refusal! }) },
          },
          { guard: { type: 'isSelected', params: ({ event }) => ({ seatId: event.seatId }) }, target: 'releasing' },
          { target: 'holding' },
        ],
        ADD_CLICKED: { guard: 'selectionValid', target: 'adding' },
        CHART_SEAT_SELECTED: { target: 'deciding', actions: { type: 'chartSelect', params: ({ event }) => event } },
        CHART_SEAT_DESELECTED: { target: 'deciding', actions: { type: 'chartDeselect', params: ({ event }) => event } },
        CHART_HOLD_FAILED: { target: 'deciding', actions: { type: 'chartHoldFailed', params: ({ event }) => event } },
        CHART_HOLD_CALLS_STARTED: { target: 'chartHolding' },
        CHART_HOLD_EXPIRED: {
          target: 'choosing',
          actions: ['releaseAll', 'planChanged'],
          description: 'seats.io’s hold token expired: the seats are released.',
        },
      },
    },
    chartHolding: {
      tags: 'pending',
      description: 'seats.io’s chart is holding or giving back seats: adding waits until its calls end.',
      on: {
        CHART_SEAT_SELECTED: { actions: { type: 'chartSelect', params: ({ event }) => event } },
        CHART_SEAT_DESELECTED: { actions: { type: 'chartDeselect', params: ({ event }) => event } },
        CHART_HOLD_FAILED: { actions: { type: 'chartHoldFailed', params: ({ event }) => event } },
        CHART_HOLD_CALLS_COMPLETE: { target: 'deciding' },
        CHART_HOLD_EXPIRED: { target: 'deciding', actions: ['releaseAll', 'planChanged'] },
      },
    },
    holding: {
      tags: 'pending',
      description: 'Hold requested: the server holds the seat (all or none), or refuses.',
      entry: 'clearMessages',
      invoke: {
        src: 'holdSeats',
        id: 'holdSeats',
        input: ({ context, event }) => ({
          event_date_id: context.eventDateId,
          seats: [(event as Extract<SeatSelectionEvent, { type: 'SEAT_PRESSED' }>).seatId],
        }),
        onDone: { target: 'deciding', actions: { type: 'takeHold', params: ({ event }) => ({ hold: event.output }) } },
        onError: {
          target: 'deciding',
          actions: [{ type: 'explainServerRefusal', params: ({ event }) => ({ error: event.error }) }, 'planChanged'],
        },
      },
    },
    releasing: {
      tags: 'pending',
      description: 'A held seat pressed again is given back, unless that would leave a single empty seat.',
      entry: 'clearMessages',
      invoke: {
        src: 'releaseSeats',
        id: 'releaseSeats',
        input: ({ context, event }) => ({
          event_date_id: context.eventDateId,
          seats: [(event as Extract<SeatSelectionEvent, { type: 'SEAT_PRESSED' }>).seatId],
        }),
        onDone: { target: 'deciding', actions: { type: 'takeHold', params: ({ event }) => ({ hold: event.output }) } },
        onError: {
          target: 'deciding',
          actions: [{ type: 'explainServerRefusal', params: ({ event }) => ({ error: event.error }) }, 'planChanged'],
        },
      },
    },
    adding: {
      tags: 'pending',
      description: 'POST /do/checkout/add/ with the seats and their hold token.',
      entry: 'clearMessages',
      invoke: {
        src: 'addToBasket',
        id: 'addToBasket',
        input: ({ event }) => (event as Extract<SeatSelectionEvent, { type: 'ADD_CLICKED' }>).request,
        onDone: { target: 'added', actions: 'goToCheckout' },
        onError: {
          target: 'deciding',
          actions: [{ type: 'showAddProblem', params: ({ event }) => ({ error: event.error }) }, 'planChanged'],
        },
      },
    },
    added: { type: 'final', description: 'On to /checkout/, where the ticket lines show their seats.' },
  },
});
