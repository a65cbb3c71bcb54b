import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { walk, type ChartRoute, type Expectation, type OracleQuestion } from '../testing/walk';
import {
  addRequest,
  mapSeats,
  seatSelectionSenders,
  summarise,
  viewSeatSelection,
  type EventDateInfo,
  type SeatingPlan,
  type SeatSelectionView,
} from './seatSelection.connect';
import { seatSelectionMachine } from './seatSelection.machine';
import { SEAT_MESSAGES } from '../../contract/messages/seats';
import { failed, refused, type CallFailure } from '../../contract/outcome.ts';

const DATE = 7;
const RULE_WORDS =
  'That would leave Stalls, row A, seat 1 empty on its own. Choose seats that leave no single empty seat.';
const TAKEN_WORDS = 'Stalls, row A, seat 2 is taken by another buyer.';
const HOLD_ENDED = 'Your hold on Stalls, row A, seat 1 has ended. Please choose your seats again.';
/** Shown when the server refuses without words of its own. */
const ADD_FAILED = 'Unable to add your seats to the basket. Please try again.';
const HOLD_FAILED = 'Unable to hold that seat. Please try again.';
const REQUEST = {
  parent_event_id: 'null',
  ticket: {
    '3|7|12|0': {
      ticket: 12,
      vz_id: '',
      has_offer: false,
      qty: 1,
      seats: [{ section: 'Stalls', row: 'A', number: '1', hold_token: 'tok' }],
    },
  },
};

const held = (...seat_ids: number[]) => ({ hold_token: 'tok', seconds_remaining: seat_ids.length ? 900 : 0, seat_ids });
/** A seat call's failure as the app's call layer gives it: a conflict (409) is a refusal, anything else failed. */
const failure = (status: number | null, serverMessage: string | null) =>
  status === 409 && serverMessage ? refused(serverMessage) : failed(serverMessage);

type Q = OracleQuestion<SeatSelectionView>;

/**
 * Spec 001 §2 and §5, written as what the buyer sees: a press the rules refuse is explained and
 * asks nothing; any other press of a free seat asks for a hold, of a held seat for a release; one
 * call at a time; 'Add To Basket!' only with a seat held and nothing pending; the server's message
 * is shown when it refuses (next to the chart for a 409, as a toast otherwise); the hold's end
 * releases every seat.
 */
function oracle(q: Q): Expectation<SeatSelectionView> | undefined {
  const { event, view, unchanged } = q;
  const idle = (
    selected: number[],
    more: Partial<SeatSelectionView> = {},
    planReread = true,
  ): Expectation<SeatSelectionView> => ({
    view: { selected, pending: false, canAdd: selected.length > 0 && view.violation === null, added: false, ...more },
    running: [],
    // After a refusal or failure the plan is read again (it may have changed); a success needs no reread.
    sent: planReread ? { planChanged: [null] } : {},
  });
  // Once added, the page is on its way to the checkout: nothing more happens here.
  if (view.added) return { view: { added: true }, running: [], output: undefined };
  const chart = chartOracle(q);
  if (chart !== null) return chart;
  switch (event.type) {
    case 'SEAT_PRESSED': {
      if (view.pending) return unchanged();
      const seatId = event.seatId as number;
      if (event.refusal !== null)
        return { view: { ...view, refusal: event.refusal as string, problem: null }, running: [] };
      const call = view.selected.includes(seatId) ? 'releaseSeats' : 'holdSeats';
      return {
        view: { selected: view.selected, pending: true, canAdd: false, refusal: null, problem: null },
        running: [call],
        started: { [call]: [{ event_date_id: DATE, seats: [seatId] }] },
      };
    }
    case 'xstate.done.actor.holdSeats':
    case 'xstate.done.actor.releaseSeats': {
      const output = event.output as ReturnType<typeof held>;
      return idle(
        output.seat_ids,
        { refusal: null, problem: null, expired: false, holdToken: output.hold_token },
        false,
      );
    }
    case 'xstate.error.actor.holdSeats':
    case 'xstate.error.actor.releaseSeats': {
      const error = event.error as CallFailure;
      const message = error.message || HOLD_FAILED;
      return idle(
        view.selected,
        error.kind === 'refused' ? { refusal: message, problem: null } : { refusal: null, problem: message },
      );
    }
    case 'ADD_CLICKED':
      if (!view.canAdd) return unchanged();
      return {
        view: { selected: view.selected, pending: true, canAdd: false, refusal: null, problem: null },
        running: ['addToBasket'],
        started: { addToBasket: [REQUEST] },
      };
    case 'xstate.done.actor.addToBasket':
      return { view: { added: true, canAdd: false }, running: [], sent: { goToCheckout: [null] }, output: undefined };
    case 'xstate.error.actor.addToBasket':
      return idle(view.selected, { problem: (event.error as CallFailure).message || ADD_FAILED });
    case 'PROBLEM_DISMISSED':
      if (view.problem === null) return unchanged();
      return { view: { ...view, problem: null }, running: [] };
  }
  if (event.type.startsWith('xstate.after.holdTimeout')) {
    // The hold's deadline passed with seats held and nothing pending: they are released.
    if (view.pending || view.selected.length === 0) return undefined;
    return {
      view: { selected: [], canAdd: false, expired: true, refusal: null },
      running: [],
      sent: { planChanged: [null] },
    };
  }
  return undefined;
}

/**
 * seats.io's chart (spec 001 §2, §5 with seats.io as the chart): it holds and gives back seats itself
 * and reports it. While one of our own seat or add calls runs, the chart says nothing here; while the
 * chart's hold calls run, adding waits; a seat it selected is the buyer's under its hold token for
 * the seconds it says; a hold it could not make is explained and the seat is not the buyer's; a
 * selection its validators refuse cannot be added; its token's expiry releases every seat.
 * Answers null for the events that are not the chart's.
 */
function chartOracle(q: Q): Expectation<SeatSelectionView> | undefined | null {
  const { event, view, unchanged, before } = q;
  if (!event.type.startsWith('CHART_')) return null;
  const ourCall = ['holdSeats', 'releaseSeats', 'addToBasket'].some((id) => id in before.children);
  const chartBusy = view.pending && !ourCall;
  const after = (
    selected: number[],
    more: Partial<SeatSelectionView> = {},
    pending = chartBusy,
  ): Expectation<SeatSelectionView> => {
    const violation = more.violation === undefined ? view.violation : more.violation;
    return {
      view: { ...view, selected, pending, canAdd: !pending && selected.length > 0 && violation === null, ...more },
      running: [],
    };
  };
  if (event.type === 'CHART_VALIDITY') {
    const violation = event.violation as string | null;
    const same = unchanged();
    return {
      ...same,
      view: { ...view, violation, canAdd: !view.pending && view.selected.length > 0 && violation === null },
    };
  }
  if (ourCall) return unchanged();
  switch (event.type) {
    case 'CHART_SEAT_SELECTED': {
      const seatId = event.seatId as number;
      const selected = view.selected.includes(seatId) ? view.selected : [...view.selected, seatId];
      return after(selected, {
        holdToken: (event.holdToken as string | null) ?? view.holdToken,
        secondsHeld: event.secondsRemaining as number,
        refusal: null,
        expired: false,
      });
    }
    case 'CHART_SEAT_DESELECTED':
      return after(
        view.selected.filter((id) => id !== event.seatId),
        { secondsHeld: event.secondsRemaining as number, refusal: null },
      );
    case 'CHART_HOLD_FAILED':
      return after(
        view.selected.filter((id) => !(event.seatIds as number[]).includes(id)),
        { refusal: event.message as string },
      );
    case 'CHART_HOLD_CALLS_STARTED':
      return chartBusy ? unchanged() : after(view.selected, {}, true);
    case 'CHART_HOLD_CALLS_COMPLETE':
      return chartBusy ? after(view.selected, {}, false) : unchanged();
    case 'CHART_HOLD_EXPIRED':
      if (!chartBusy && view.selected.length === 0) return unchanged();
      return {
        ...after([], { expired: true, refusal: null, violation: null, secondsHeld: 0 }, false),
        sent: { planChanged: [null] },
      };
  }
  return undefined;
}

/**
 * Whether a chart route asks the seats held to change in a way no step can (spec 001 §5): the
 * machine decides between `held` and `choosing` by whether any seat is held. A call that fails
 * keeps the seats held before it (nothing changes them while it runs); a hold the server makes
 * holds at least the seat pressed; seats.io's selection adds a seat, its deselection and failed
 * hold only take some away; an expired hold releases them all. While seats.io's hold calls run, it
 * may select and deselect at will, so after them either may follow.
 */
function seatsCannotChangeSo({ start, moves }: ChartRoute): boolean {
  let held: boolean | 'either' = start === '"held"';
  for (const { type, to } of moves) {
    if (to === '"chartHolding"') held = 'either';
    if (to !== '"held"' && to !== '"choosing"') continue;
    const now = to === '"held"';
    const may: boolean[] = type.startsWith('xstate.error.actor.')
      ? [held === true]
      : type === 'xstate.done.actor.holdSeats' || type === 'CHART_SEAT_SELECTED'
        ? [true]
        : type === 'CHART_SEAT_DESELECTED' || type === 'CHART_HOLD_FAILED'
          ? held === false
            ? [false]
            : [true, false]
          : type === 'CHART_HOLD_EXPIRED' || type.startsWith('xstate.after.holdTimeout')
            ? [false]
            : [true, false];
    if (!may.includes(now)) return true;
    held = now;
  }
  return false;
}

describe('seat selection machine', () => {
  it('is walked at 100 %, each step checked against spec 001 §2 and §5', async () => {
    const result = await walk<SeatSelectionView>({
      name: 'seatSelection',
      machine: seatSelectionMachine,
      input: { eventDateId: DATE, hold: held() },
      variants: [
        { name: 'no hold' },
        // The page opened with a hold still live: the routes that start with seats held.
        { name: 'live hold', input: { eventDateId: DATE, hold: held(1) }, routesOnly: true },
      ],
      fakes: (kit) => ({
        actors: { holdSeats: kit.controlled(), releaseSeats: kit.controlled(), addToBasket: kit.controlled() },
        actions: { planChanged: kit.spy('planChanged'), goToCheckout: kit.spy('goToCheckout') },
      }),
      askIgnored: true,
      events: {
        SEAT_PRESSED: [
          { type: 'SEAT_PRESSED', seatId: 1, refusal: null },
          { type: 'SEAT_PRESSED', seatId: 2, refusal: null },
          { type: 'SEAT_PRESSED', seatId: 3, refusal: RULE_WORDS },
        ],
        ADD_CLICKED: [{ type: 'ADD_CLICKED', request: REQUEST }],
        PROBLEM_DISMISSED: [{ type: 'PROBLEM_DISMISSED' }],
        CHART_SEAT_SELECTED: [
          { type: 'CHART_SEAT_SELECTED', seatId: 1, holdToken: 'chart-token', secondsRemaining: 600 },
          { type: 'CHART_SEAT_SELECTED', seatId: 2, holdToken: null, secondsRemaining: 300 },
        ],
        CHART_SEAT_DESELECTED: [{ type: 'CHART_SEAT_DESELECTED', seatId: 1, secondsRemaining: 500 }],
        CHART_HOLD_CALLS_STARTED: [{ type: 'CHART_HOLD_CALLS_STARTED' }],
        CHART_HOLD_CALLS_COMPLETE: [{ type: 'CHART_HOLD_CALLS_COMPLETE' }],
        CHART_HOLD_FAILED: [{ type: 'CHART_HOLD_FAILED', seatIds: [1], message: TAKEN_WORDS }],
        CHART_VALIDITY: [
          { type: 'CHART_VALIDITY', violation: 'Choose seats that leave no single empty seat.' },
          { type: 'CHART_VALIDITY', violation: null },
        ],
        CHART_HOLD_EXPIRED: [{ type: 'CHART_HOLD_EXPIRED' }],
        'xstate.done.actor.holdSeats': [
          { type: 'xstate.done.actor.holdSeats', output: held(1) },
          { type: 'xstate.done.actor.holdSeats', output: held(1, 2) },
        ],
        'xstate.error.actor.holdSeats': [
          { type: 'xstate.error.actor.holdSeats', error: failure(409, TAKEN_WORDS) },
          { type: 'xstate.error.actor.holdSeats', error: failure(null, null) },
          { type: 'xstate.error.actor.holdSeats', error: failure(503, '') },
        ],
        'xstate.done.actor.releaseSeats': [{ type: 'xstate.done.actor.releaseSeats', output: held() }],
        'xstate.error.actor.releaseSeats': [
          { type: 'xstate.error.actor.releaseSeats', error: failure(409, RULE_WORDS) },
          { type: 'xstate.error.actor.releaseSeats', error: failure(500, null) },
        ],
        'xstate.done.actor.addToBasket': [
          { type: 'xstate.done.actor.addToBasket', output: { success: true, redirect: '/checkout/' } },
        ],
        'xstate.error.actor.addToBasket': [
          { type: 'xstate.error.actor.addToBasket', error: failure(409, HOLD_ENDED) },
          { type: 'xstate.error.actor.addToBasket', error: failure(null, null) },
          { type: 'xstate.error.actor.addToBasket', error: failure(500, '') },
        ],
      },
      // The toast is dismissed where it shows (the walk asks about a dismissal once per state, before any toast).
      extraPaths: [
        {
          events: [
            { type: 'SEAT_PRESSED', seatId: 1, refusal: null },
            { type: 'xstate.error.actor.holdSeats', error: failure(null, null) },
            { type: 'PROBLEM_DISMISSED' },
            { type: 'SEAT_PRESSED', seatId: 1, refusal: null },
            { type: 'xstate.done.actor.holdSeats', output: held(1) },
            { type: 'ADD_CLICKED', request: REQUEST },
            { type: 'xstate.error.actor.addToBasket', error: failure(500, 'Sold out.') },
            { type: 'PROBLEM_DISMISSED' },
          ],
        },
      ],
      view: (snapshot) => viewSeatSelection(snapshot as never),
      initial: (variant) => {
        const selected = variant === 'live hold' ? [1] : [];
        return {
          view: {
            selected,
            pending: false,
            canAdd: selected.length > 0,
            refusal: null,
            problem: null,
            expired: false,
            added: false,
            violation: null,
          },
          running: [],
        };
      },
      oracle,
      paths: {
        unreachable: [
          {
            why:
              'whether seats are held changes only as the steps allow: a failed call keeps them, a hold or seats.io selection adds one, ' +
              'a deselection or failed hold only takes some away, an expiry releases all',
            matches: seatsCannotChangeSo,
          },
        ],
      },
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });

  it('continues a live hold when the page opens, and ends it at the deadline', async () => {
    const { SimulatedClock } = await import('xstate');
    const clock = new SimulatedClock();
    const actor = createActor(seatSelectionMachine, {
      input: { eventDateId: DATE, hold: { hold_token: 'tok', seconds_remaining: 30, seat_ids: [4, 5] } },
      clock,
    }).start();
    expect(viewSeatSelection(actor.getSnapshot())).toMatchObject({ selected: [4, 5], canAdd: true, expired: false });
    clock.increment(29_999);
    expect(viewSeatSelection(actor.getSnapshot()).selected).toEqual([4, 5]);
    clock.increment(1);
    expect(viewSeatSelection(actor.getSnapshot())).toMatchObject({ selected: [], canAdd: false, expired: true });
    expect(SEAT_MESSAGES.holdExpired).toMatch(/run out/);
  });

  it('shows no seats held when the page opens on a hold whose time is up', () => {
    const actor = createActor(seatSelectionMachine, {
      input: { eventDateId: DATE, hold: { hold_token: 'tok', seconds_remaining: 0, seat_ids: [4, 5] } },
    }).start();
    expect(viewSeatSelection(actor.getSnapshot())).toMatchObject({ selected: [], canAdd: false });
  });

  it('sends the rules’ verdict with a press, and the spec’s nested payload with an add', async () => {
    const plan: SeatingPlan = {
      seating_plan_layout: {
        seating_plan_provider: { provider: 'holdfast', public_key: null, region: null },
        width: 200,
        height: 100,
        sections: [
          {
            name: 'Stalls',
            rows: [
              {
                name: 'A',
                seats: [
                  { id: 1, number: '1', position: 0, x: 10, y: 10, ticket_type_id: 12, status: 'available' },
                  { id: 2, number: '2', position: 1, x: 40, y: 10, ticket_type_id: 12, status: 'available' },
                  { id: 3, number: '3', position: 2, x: 70, y: 10, ticket_type_id: 12, status: 'available' },
                  { id: 4, number: '4', position: 3, x: 100, y: 10, ticket_type_id: 12, status: 'taken' },
                  { id: 5, number: '5', position: 4, x: 130, y: 10, ticket_type_id: null, status: 'available' },
                ],
              },
            ],
          },
        ],
      },
      seating_plan_event: {
        provider_identifier: 'p',
        pricing: [{ ticket_type_id: 12, ticket_name: 'Stalls', price: 2500 }],
        hold: held(),
      },
    };
    const info: EventDateInfo = {
      event_date: { id: DATE, event_id: 3, starts_at: '2026-07-01T19:30:00.000Z', nice_date: 'x' },
      event: { id: 3, title: 'Play', venue: 'Hall', currency: { symbol: '£', code: 'GBP' }, url: '/event/3/' },
    };
    const seats = mapSeats(plan, [1]);
    expect(seats.map((s) => s.label)).toEqual([
      'Stalls, row A, seat 1, £25.00, selected',
      'Stalls, row A, seat 2, £25.00, available',
      'Stalls, row A, seat 3, £25.00, available',
      'Stalls, row A, seat 4, £25.00, unavailable',
      'Stalls, row A, seat 5, not for sale',
    ]);
    const sent: unknown[] = [];
    const view = {
      selected: [1],
      pending: false,
      canAdd: true,
      refusal: null,
      problem: null,
      expired: false,
      added: false,
      holdToken: 'tok',
      secondsHeld: 900,
      violation: null,
    };
    const senders = seatSelectionSenders((e) => sent.push(e), seats, view, info);
    senders.press(3);
    senders.press(2);
    senders.press(4);
    senders.press(5);
    senders.add();
    expect(sent).toEqual([
      {
        type: 'SEAT_PRESSED',
        seatId: 3,
        refusal: 'Your seats in Stalls, row A must be next to each other, with no gap between them.',
      },
      {
        type: 'SEAT_PRESSED',
        seatId: 2,
        refusal:
          'That would leave Stalls, row A, seat 3 empty on its own. Choose seats that leave no single empty seat.',
      },
      { type: 'SEAT_PRESSED', seatId: 4, refusal: 'Stalls, row A, seat 4 is taken by another buyer.' },
      { type: 'SEAT_PRESSED', seatId: 5, refusal: 'Stalls, row A, seat 5 has no price yet, so it cannot be chosen.' },
      { type: 'ADD_CLICKED', request: REQUEST },
    ]);
    expect(addRequest(info, seats, [1], 'tok')).toEqual(REQUEST);
    expect(summarise(mapSeats(plan, [1, 2]), [1, 2])).toEqual({
      seats: [
        { id: 1, place: 'Stalls-A-1', price: '£25', ticketName: 'Stalls' },
        { id: 2, place: 'Stalls-A-2', price: '£25', ticketName: 'Stalls' },
      ],
      total: '£50',
    });
  });

  it('goes to the checkout once the seats are added', async () => {
    const went: string[] = [];
    const actor = createActor(
      seatSelectionMachine.provide({
        actors: { addToBasket: fromPromise(async () => ({ success: true as const, redirect: '/checkout/' })) },
        actions: { goToCheckout: () => went.push('/checkout/') },
      }),
      { input: { eventDateId: DATE, hold: { hold_token: 'tok', seconds_remaining: 60, seat_ids: [1] } } },
    ).start();
    actor.send({ type: 'ADD_CLICKED', request: REQUEST as never });
    await new Promise((r) => setTimeout(r, 0));
    expect(went).toEqual(['/checkout/']);
    expect(actor.getSnapshot().status).toBe('done');
  });
});
