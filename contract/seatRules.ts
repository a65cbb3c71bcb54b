/**
 * The seat-selection rules of spec 001 §5, shared by the seat page (which explains a refusal before
 * asking) and the server (which refuses a crafted request the same way):
 *
 * - seats without pricing are not selectable;
 * - a buyer's seats within a row are consecutive;
 * - no orphan seats: a change may not leave a single free seat between taken or selected seats, or
 *   between one of them and a row's end (an aisle ends a row: seats are neighbours only when their
 *   positions along the row differ by one).
 *
 * A change is judged on the rows it touches, by what it creates: a single free seat that other
 * buyers' choices left before this change is not this buyer's doing, and does not block them.
 *
 * A refusal's words, and a seat's name, are the catalogue's (`seats.*`), in the active language:
 * the page's in the browser, the request's on the server.
 */
import { t } from '../i18n/runtime.ts';

export interface RuleSeat {
  id: number;
  section: string;
  row: string;
  number: string;
  /** The seat's place along its row; a gap of more than one is an aisle. */
  position: number;
  /** False when the seat has no price: it cannot be chosen and counts as taken. */
  priced: boolean;
  /** Sold, or held by another buyer. */
  taken: boolean;
}

export type SeatRule = 'unpriced' | 'taken' | 'consecutive' | 'orphan';

export interface SeatRefusal {
  rule: SeatRule;
  /** The seats the refusal is about: the chosen seat, or the seat that would be left alone. */
  seatIds: number[];
  message: string;
}

export function seatName(seat: Pick<RuleSeat, 'section' | 'row' | 'number'>): string {
  return t('seats.seatName', { section: seat.section, row: seat.row, number: seat.number });
}

function rowKey(seat: Pick<RuleSeat, 'section' | 'row'>): string {
  return `${seat.section}\u0000${seat.row}`;
}

/** A single free seat: free, and with no free neighbour on either side. */
function isolatedSeats(row: RuleSeat[], mine: ReadonlySet<number>): Set<number> {
  const byPosition = new Map(row.map((s) => [s.position, s]));
  const free = (s: RuleSeat | undefined) => s !== undefined && s.priced && !s.taken && !mine.has(s.id);
  const isolated = new Set<number>();
  for (const seat of row) {
    if (!free(seat)) continue;
    if (!free(byPosition.get(seat.position - 1)) && !free(byPosition.get(seat.position + 1))) isolated.add(seat.id);
  }
  return isolated;
}

function consecutive(row: RuleSeat[], mine: ReadonlySet<number>): boolean {
  const positions = row.filter((s) => mine.has(s.id)).map((s) => s.position);
  if (positions.length < 2) return true;
  return Math.max(...positions) - Math.min(...positions) + 1 === positions.length;
}

/**
 * Whether going from the selection `before` to `after` keeps the rules, given every seat of the rows
 * concerned (other seats may be passed too). Answers the first refusal, or null.
 */
export function checkSeatChange(
  seats: readonly RuleSeat[],
  before: ReadonlySet<number>,
  after: ReadonlySet<number>,
): SeatRefusal | null {
  const byId = new Map(seats.map((s) => [s.id, s]));
  const added = [...after].filter((id) => !before.has(id));
  const removed = [...before].filter((id) => !after.has(id));
  for (const id of [...added, ...removed]) {
    if (!byId.has(id)) return { rule: 'taken', seatIds: [id], message: t('seats.rule.notOnPlan') };
  }
  for (const id of added) {
    const seat = byId.get(id)!;
    if (!seat.priced)
      return {
        rule: 'unpriced',
        seatIds: [id],
        message: t('seats.rule.unpriced', { seat: seatName(seat) }),
      };
  }
  for (const id of added) {
    const seat = byId.get(id)!;
    if (seat.taken)
      return { rule: 'taken', seatIds: [id], message: t('seats.takenByOther', { seats: seatName(seat), count: 1 }) };
  }
  const touched = new Set([...added, ...removed].map((id) => rowKey(byId.get(id)!)));
  const rows = new Map<string, RuleSeat[]>();
  for (const seat of seats) {
    const key = rowKey(seat);
    if (touched.has(key)) rows.set(key, [...(rows.get(key) ?? []), seat]);
  }
  for (const row of rows.values()) {
    if (!consecutive(row, after)) {
      const { section, row: rowName } = row[0]!;
      return {
        rule: 'consecutive',
        seatIds: row.filter((s) => after.has(s.id)).map((s) => s.id),
        message: t('seats.rule.consecutive', { section, row: rowName }),
      };
    }
  }
  for (const row of rows.values()) {
    const was = isolatedSeats(row, before);
    const left = [...isolatedSeats(row, after)].filter((id) => !was.has(id));
    if (left.length > 0) {
      const seat = byId.get(left[0]!)!;
      return {
        rule: 'orphan',
        seatIds: left,
        message: t('seats.rule.orphan', { seat: seatName(seat) }),
      };
    }
  }
  return null;
}

/** The same check for one seat pressed: chosen when not yet selected, given back when it is. */
export function checkSeatToggle(
  seats: readonly RuleSeat[],
  selection: ReadonlySet<number>,
  seatId: number,
): SeatRefusal | null {
  const after = new Set(selection);
  if (after.has(seatId)) after.delete(seatId);
  else after.add(seatId);
  return checkSeatChange(seats, selection, after);
}
