import { describe, expect, it } from 'vitest';
import type { PlanSeat } from '../../contract';
import { SEAT_MESSAGES } from '../../contract/messages/seats';
import {
  addRequest,
  chartSenders,
  mapSeats,
  seatSelectionSenders,
  summarise,
  type EventDateInfo,
  type SeatingPlan,
  type SeatSelectionView,
} from './seatSelection.connect';

/** The seat page's join of the plan with the buyer's selection (spec 001 §2 Seat-selection page, §3, §7). */
const seat = (id: number, over: Partial<PlanSeat> = {}): PlanSeat => ({
  id,
  number: String(id),
  position: id - 1,
  x: 30 * id,
  y: 10,
  ticket_type_id: 12,
  status: 'available',
  ...over,
});

const plan = (
  seats: PlanSeat[],
  pricing = [
    { ticket_type_id: 12, ticket_name: 'Stalls', price: 2500 },
    { ticket_type_id: 13, ticket_name: 'Stalls view', price: 2500 },
  ],
): SeatingPlan => ({
  seating_plan_layout: {
    seating_plan_provider: { provider: 'holdfast', public_key: null, region: null },
    width: 200,
    height: 100,
    sections: [{ name: 'Stalls', rows: [{ name: 'A', seats }] }],
  },
  seating_plan_event: {
    provider_identifier: 'p',
    pricing,
    hold: { hold_token: null, seconds_remaining: 0, seat_ids: [] },
  },
});

const info: EventDateInfo = {
  event_date: { id: 7, event_id: 3, starts_at: '2026-07-01T19:30:00.000Z', nice_date: 'x' },
  event: { id: 3, title: 'Play', venue: 'Hall', currency: { symbol: '£', code: 'GBP' }, url: '/event/3/' },
};

const view = (selected: number[], over: Partial<SeatSelectionView> = {}): SeatSelectionView => ({
  selected,
  pending: false,
  canAdd: selected.length > 0,
  refusal: null,
  problem: null,
  expired: false,
  added: false,
  holdToken: 'tok',
  secondsHeld: 900,
  violation: null,
  ...over,
});

describe('seat map', () => {
  it('keeps a seat that looks the same as the same object, and redraws one that changed', () => {
    const seats = [seat(1), seat(2), seat(3), seat(4), seat(5)];
    const before = new Map(mapSeats(plan(seats), []).map((s) => [s.id, s]));
    const after = mapSeats(
      plan([
        seat(1),
        seat(2),
        seat(3, { x: 200 }),
        seat(4, { y: 40 }),
        // Another price level at the same price: the same words, but the legend's colour changes.
        seat(5, { ticket_type_id: 13 }),
      ]),
      [2],
      before,
    );
    expect(after.map((s) => s.id)).toEqual([1, 2, 3, 4, 5]);
    expect(after.map((s) => s === before.get(s.id))).toEqual([true, false, false, false, false]);
    expect(after[1]).toMatchObject({ state: 'selected', label: 'Stalls, row A, seat 2, £25.00, selected' });
    expect(after[2]).toMatchObject({ x: 200, y: 10 });
    expect(after[3]).toMatchObject({ x: 120, y: 40 });
    expect(after[4]).toMatchObject({
      ticketTypeId: 13,
      ticketName: 'Stalls view',
      label: 'Stalls, row A, seat 5, £25.00, available',
    });
  });

  it('shows a seat without pricing as not for sale, even when the buyer holds it', () => {
    const [unpriced] = mapSeats(plan([seat(1, { ticket_type_id: null })]), [1]);
    expect(unpriced).toMatchObject({
      state: 'unpriced',
      price: null,
      ticketName: null,
      label: 'Stalls, row A, seat 1, not for sale',
    });
  });
});

describe('selected seats and the add payload', () => {
  const seats = mapSeats(plan([seat(1), seat(2), seat(3, { ticket_type_id: null })]), [1, 3, 99]);

  it('list and total only the priced seats of the plan, leaving out a seat no longer on it', () => {
    expect(summarise(seats, [1, 3, 99])).toEqual({
      seats: [{ id: 1, place: 'Stalls-A-1', price: '£25', ticketName: 'Stalls' }],
      total: '£25',
    });
  });

  it('post only the priced seats of the plan, each with its hold token', () => {
    expect(addRequest(info, seats, [99, 3, 1], 'tok')).toEqual({
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
    });
  });
});

describe('seat senders', () => {
  const seats = mapSeats(plan([seat(1), seat(2), seat(3), seat(4)]), [1]);

  it('send a press the rules allow with no refusal', () => {
    const sent: unknown[] = [];
    seatSelectionSenders((e) => sent.push(e), seats, view([1]), info).press(2);
    seatSelectionSenders((e) => sent.push(e), seats, view([1]), info).press(1);
    expect(sent).toEqual([
      { type: 'SEAT_PRESSED', seatId: 2, refusal: null },
      { type: 'SEAT_PRESSED', seatId: 1, refusal: null },
    ]);
  });

  it('add nothing before the event date is read, and dismiss the problem toast', () => {
    const sent: unknown[] = [];
    const senders = seatSelectionSenders((e) => sent.push(e), seats, view([1]), undefined);
    senders.add();
    senders.dismissProblem();
    expect(sent).toEqual([{ type: 'PROBLEM_DISMISSED' }]);
  });
});

describe('seats.io chart senders', () => {
  const seats = mapSeats(plan([seat(1), seat(2), seat(3)]), []);
  const token = { token: 'chart-token', expiresAt: '2026-07-01T19:15:00.000Z' };
  const now = () => Date.parse('2026-07-01T19:00:30.000Z');
  const object = (number: string) => ({
    label: `Stalls-A-${number}`,
    labels: { own: number, parent: 'A', section: 'Stalls' },
  });

  it('send the chart’s selections as the plan’s seats, under its hold token, with the seconds it has left', () => {
    const sent: unknown[] = [];
    const chart = chartSenders(
      (e) => sent.push(e),
      seats,
      () => token,
      now,
    );
    chart.holdCallsStarted();
    chart.selected(object('2'));
    // A chart object known by its parts only, and one the plan does not have (left out).
    chart.selected({ label: 'x', labels: { own: '3', parent: 'A', section: 'Stalls' } });
    chart.selected(object('9'));
    chart.holdCallsComplete();
    chart.deselected(object('3'));
    expect(sent).toEqual([
      { type: 'CHART_HOLD_CALLS_STARTED' },
      { type: 'CHART_SEAT_SELECTED', seatId: 2, holdToken: 'chart-token', secondsRemaining: 870 },
      { type: 'CHART_SEAT_SELECTED', seatId: 3, holdToken: 'chart-token', secondsRemaining: 870 },
      { type: 'CHART_HOLD_CALLS_COMPLETE' },
      { type: 'CHART_SEAT_DESELECTED', seatId: 3, secondsRemaining: 870 },
    ]);
  });

  it('explain a hold the chart could not make and a selection its validators refuse, in words; and its expiry', () => {
    const sent: unknown[] = [];
    const chart = chartSenders(
      (e) => sent.push(e),
      seats,
      () => token,
      now,
    );
    chart.holdFailed([object('1')]);
    chart.holdFailed([object('1'), object('2')]);
    chart.holdFailed([object('9')]);
    chart.validity(['noOrphanSeats']);
    chart.validity(['consecutiveSeats', 'noOrphanSeats']);
    chart.validity(['somethingNew']);
    chart.validity([]);
    chart.expired();
    expect(sent).toEqual([
      { type: 'CHART_HOLD_FAILED', seatIds: [1], message: 'Stalls, row A, seat 1 is taken by another buyer.' },
      {
        type: 'CHART_HOLD_FAILED',
        seatIds: [1, 2],
        message: 'Stalls, row A, seat 1; Stalls, row A, seat 2 are taken by another buyer.',
      },
      { type: 'CHART_VALIDITY', violation: 'Choose seats that leave no single empty seat.' },
      {
        type: 'CHART_VALIDITY',
        violation: 'Your seats in a row must be next to each other, with no gap between them.',
      },
      { type: 'CHART_VALIDITY', violation: SEAT_MESSAGES.violationFallback },
      { type: 'CHART_VALIDITY', violation: null },
      { type: 'CHART_HOLD_EXPIRED' },
    ]);
  });

  it('count no time left once the token has expired, and seats.io’s default hold before the chart named its token', () => {
    const sent: { secondsRemaining?: number }[] = [];
    chartSenders(
      (e) => sent.push(e as never),
      seats,
      () => token,
      () => Date.parse('2026-07-01T20:00:00.000Z'),
    ).selected(object('1'));
    chartSenders(
      (e) => sent.push(e as never),
      seats,
      () => null,
      now,
    ).selected(object('1'));
    expect(sent).toEqual([
      { type: 'CHART_SEAT_SELECTED', seatId: 1, holdToken: 'chart-token', secondsRemaining: 0 },
      { type: 'CHART_SEAT_SELECTED', seatId: 1, holdToken: null, secondsRemaining: 900 },
    ]);
  });
});
