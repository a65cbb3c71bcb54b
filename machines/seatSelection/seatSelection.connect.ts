/**
 * What the seat page shows, and the events it may send. The plan is server data; this layer joins
 * it with the machine's selection: each seat's accessible name and state, the 'Selected Seats:'
 * list, the total, and the rules' verdict carried by a press.
 */
import type { SnapshotFrom } from 'xstate';
import { formatMoney } from '../../contract/money';
import { formatSeatTotal } from '../../contract/seatMoney';
import { checkSeatToggle, type RuleSeat } from '../../contract/seatRules';
import {
  CHART_VIOLATIONS,
  SEAT_MESSAGES,
  seatLabelMessage,
  seatNameMessage,
  takenByOtherMessage,
} from '../../contract/messages/seats';
import { seatBasketKey, type PlanSeat, type ResponseOf } from '../../contract';
import { unchecked } from '../../contract/unchecked';
import type { AddRequest, SeatSelectionEvent, seatSelectionMachine } from './seatSelection.machine';

export type SeatingPlan = ResponseOf<'getSeatingPlan'>;
export type EventDateInfo = ResponseOf<'getEventDate'>;

export interface SeatSelectionView {
  /** Ids of the seats held for the buyer. */
  selected: number[];
  /** A hold, release or add call is in flight. */
  pending: boolean;
  /** 'Add To Basket!' is offered: at least one seat held, no hold call pending, and the chart's validators content. */
  canAdd: boolean;
  /** Why seats.io's chart says the selection cannot be booked as it is; null when it can. */
  violation: string | null;
  refusal: string | null;
  problem: string | null;
  expired: boolean;
  added: boolean;
  holdToken: string | null;
  /** How long the server said the hold lasts from the last choice, in seconds. */
  secondsHeld: number;
}

export function viewSeatSelection(snapshot: SnapshotFrom<typeof seatSelectionMachine>): SeatSelectionView {
  const c = snapshot.context;
  const pending = snapshot.hasTag('pending');
  return {
    selected: c.selected,
    pending,
    canAdd: snapshot.matches('held') && c.violation === null,
    violation: c.violation,
    refusal: c.refusal,
    problem: c.problem,
    expired: c.expired,
    added: snapshot.matches('added'),
    holdToken: c.holdToken,
    secondsHeld: c.secondsRemaining,
  };
}

export type SeatState = 'available' | 'selected' | 'taken' | 'unpriced';

export interface MapSeat {
  id: number;
  section: string;
  row: string;
  number: string;
  position: number;
  x: number;
  y: number;
  state: SeatState;
  /** The price level, for the legend's colour; null without pricing. */
  ticketTypeId: number | null;
  price: number | null;
  ticketName: string | null;
  /** 'Section A, row 3, seat 12, £25.00, available'. */
  label: string;
}

/**
 * Every seat of the plan as the buyer sees it now. A seat that looks as it did in `previous` is that
 * same object, so a map of thousands of seats redraws only the seats that changed.
 */
export function mapSeats(
  plan: SeatingPlan,
  selected: readonly number[],
  previous?: ReadonlyMap<number, MapSeat>,
): MapSeat[] {
  const pricing = new Map(
    plan.seating_plan_event.pricing.map((p) => [p.ticket_type_id, { ...p, text: formatMoney(p.price, 'GBP') }]),
  );
  const mine = new Set(selected);
  const seats: MapSeat[] = [];
  for (const section of plan.seating_plan_layout.sections) {
    for (const row of section.rows) {
      for (const s of row.seats) {
        const seat = toMapSeat(section.name, row.name, s, pricing, mine);
        const before = previous?.get(s.id);
        seats.push(
          before &&
            before.label === seat.label &&
            before.x === seat.x &&
            before.y === seat.y &&
            before.ticketTypeId === seat.ticketTypeId
            ? before
            : seat,
        );
      }
    }
  }
  return seats;
}

function toMapSeat(
  section: string,
  row: string,
  s: PlanSeat,
  pricing: Map<number, { price: number; ticket_name: string; text: string }>,
  mine: Set<number>,
): MapSeat {
  // Stryker disable next-line ConditionalExpression: no pricing is keyed by null, so looking it up gives null as well; the test is for the type.
  const price = s.ticket_type_id === null ? null : (pricing.get(s.ticket_type_id) ?? null);
  const state: SeatState =
    price === null ? 'unpriced' : mine.has(s.id) ? 'selected' : s.status === 'taken' ? 'taken' : 'available';
  return {
    id: s.id,
    section,
    row,
    number: s.number,
    position: s.position,
    x: s.x,
    y: s.y,
    state,
    ticketTypeId: s.ticket_type_id,
    price: price?.price ?? null,
    ticketName: price?.ticket_name ?? null,
    label: seatLabelMessage(seatNameMessage(section, row, s.number), price?.text ?? null, state),
  };
}

function ruleSeats(seats: MapSeat[]): RuleSeat[] {
  return seats.map((s) => ({
    id: s.id,
    section: s.section,
    row: s.row,
    number: s.number,
    position: s.position,
    priced: s.state !== 'unpriced',
    taken: s.state === 'taken',
  }));
}

export interface SelectedSeat {
  id: number;
  /** Spec 001 §2: section-row-number. */
  place: string;
  price: string;
  ticketName: string;
}

export interface SeatSummary {
  seats: SelectedSeat[];
  /** With a pound sign, two decimals unless whole. */
  total: string;
}

export function summarise(seats: MapSeat[], selected: readonly number[]): SeatSummary {
  const byId = new Map(seats.map((s) => [s.id, s]));
  const chosen = selected.map((id) => byId.get(id)).filter((s): s is MapSeat => s !== undefined && s.price !== null);
  return {
    seats: chosen.map((s) => ({
      id: s.id,
      place: `${s.section}-${s.row}-${s.number}`,
      price: formatSeatTotal(s.price!),
      ticketName: s.ticketName!,
    })),
    total: formatSeatTotal(chosen.reduce((sum, s) => sum + s.price!, 0)),
  };
}

/** Spec 001 §3 and §7: the nested add payload, one entry per ticket type, each seat with its hold token. */
export function addRequest(
  info: EventDateInfo,
  seats: MapSeat[],
  selected: readonly number[],
  holdToken: string | null,
): AddRequest {
  const byId = new Map(seats.map((s) => [s.id, s]));
  const ticket: Record<
    string,
    {
      ticket: number;
      vz_id: string;
      has_offer: boolean;
      qty: number;
      seats: { section: string; row: string; number: string; hold_token: string }[];
    }
  > = {};
  for (const id of selected) {
    const s = byId.get(id);
    if (!s || s.ticketTypeId === null) continue;
    const key = seatBasketKey(info.event.id, info.event_date.id, s.ticketTypeId);
    const entry = (ticket[key] ??= { ticket: s.ticketTypeId, vz_id: '', has_offer: false, qty: 0, seats: [] });
    entry.qty += 1;
    // Stryker disable next-line StringLiteral: seats are added only while held, and a hold always comes with its token; the fallback is for the type.
    entry.seats.push({ section: s.section, row: s.row, number: s.number, hold_token: holdToken ?? '' });
  }
  // The basket's add call as the seat map sends it: `parent_event_id` is the text 'null' on this wire.
  return unchecked<AddRequest>({ parent_event_id: 'null', ticket });
}

export function seatSelectionSenders(
  send: (event: SeatSelectionEvent) => void,
  seats: MapSeat[],
  view: SeatSelectionView,
  info: EventDateInfo | undefined,
) {
  return {
    /** A seat pressed (click, tap, Space or Enter): the rules are asked first, in the buyer's words. */
    press(seatId: number) {
      const refusal = checkSeatToggle(ruleSeats(seats), new Set(view.selected), seatId);
      send({ type: 'SEAT_PRESSED', seatId, refusal: refusal?.message ?? null });
    },
    add() {
      if (!info) return;
      send({ type: 'ADD_CLICKED', request: addRequest(info, seats, view.selected, view.holdToken) });
    },
    dismissProblem: () => send({ type: 'PROBLEM_DISMISSED' }),
  };
}

/** A seats.io chart object as its events give it: its label, section-row-number, and its parts. */
export interface ChartObject {
  label: string;
  labels?: { own: string; parent?: string; section?: string };
}

/** The hold token seats.io's chart started its session with. */
export interface ChartHoldToken {
  token: string;
  expiresAt: string;
}

/** What the buyer is told of one of seats.io's validators, in their language. */
function violationMessage(validator: string): string {
  if (validator === 'noOrphanSeats') return CHART_VIOLATIONS.noOrphanSeats;
  if (validator === 'consecutiveSeats') return CHART_VIOLATIONS.consecutiveSeats;
  return SEAT_MESSAGES.violationFallback;
}

/** seats.io's default hold period, for a selection reported before the chart named its token. */
export const CHART_DEFAULT_HOLD_SECONDS = 900;

/**
 * seats.io's chart events as the machine's: each chart object is the plan's seat of the same
 * section, row and number (the chart's label); a seat the plan does not have is left out. The
 * seconds a hold has left are counted from the chart's hold token, now.
 */
export function chartSenders(
  send: (event: SeatSelectionEvent) => void,
  seats: MapSeat[],
  holdToken: () => ChartHoldToken | null,
  now: () => number,
) {
  const byLabel = new Map(seats.map((s) => [`${s.section}-${s.row}-${s.number}`, s]));
  const seatOf = (o: ChartObject) =>
    byLabel.get(o.label) ??
    (o.labels ? byLabel.get(`${o.labels.section ?? ''}-${o.labels.parent ?? ''}-${o.labels.own}`) : undefined);
  const secondsRemaining = () => {
    const token = holdToken();
    return token ? Math.max(0, Math.floor((Date.parse(token.expiresAt) - now()) / 1000)) : CHART_DEFAULT_HOLD_SECONDS;
  };
  return {
    selected(object: ChartObject) {
      const seat = seatOf(object);
      if (seat)
        send({
          type: 'CHART_SEAT_SELECTED',
          seatId: seat.id,
          holdToken: holdToken()?.token ?? null,
          secondsRemaining: secondsRemaining(),
        });
    },
    deselected(object: ChartObject) {
      const seat = seatOf(object);
      if (seat) send({ type: 'CHART_SEAT_DESELECTED', seatId: seat.id, secondsRemaining: secondsRemaining() });
    },
    holdCallsStarted: () => send({ type: 'CHART_HOLD_CALLS_STARTED' }),
    holdCallsComplete: () => send({ type: 'CHART_HOLD_CALLS_COMPLETE' }),
    holdFailed(objects: ChartObject[]) {
      const failed = objects.map(seatOf).filter((s): s is MapSeat => s !== undefined);
      if (failed.length === 0) return;
      send({
        type: 'CHART_HOLD_FAILED',
        seatIds: failed.map((s) => s.id),
        message: takenByOtherMessage(failed.map((s) => seatNameMessage(s.section, s.row, s.number))),
      });
    },
    validity(violations: readonly string[]) {
      const first = violations[0];
      send({ type: 'CHART_VALIDITY', violation: first === undefined ? null : violationMessage(first) });
    },
    expired: () => send({ type: 'CHART_HOLD_EXPIRED' }),
  };
}
