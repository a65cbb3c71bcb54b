/**
 * Our own seat map: the plan drawn as SVG, with zoom and pan (buttons, wheel, drag, pinch). Every
 * seat is a focusable control named like 'Stalls, row A, seat 3, £32.50, available'; one seat is in
 * the tab order at a time, arrow keys move between seats (along the row, and to the nearest seat of
 * the row in front or behind), Space or Enter presses. Presses are delegated to the map, so a plan
 * of thousands of seats re-renders only the seats whose state changed.
 */
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type WheelEvent,
} from 'react';
import type { MapSeat } from '../../machines/seatSelection/seatSelection.connect';
import { t } from '../../i18n/runtime';

export const SEAT_RADIUS = 10;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface Props {
  seats: MapSeat[];
  sections: { name: string; x: number; y: number }[];
  width: number;
  height: number;
  /** Colour of each price level, by ticket type id. */
  colours: Map<number, string>;
  links: SeatLinks;
  onPress: (seatId: number) => void;
}

export type SeatLinks = Map<number, { left?: number; right?: number; up?: number; down?: number }>;

/**
 * Neighbours for the arrow keys: along the row, and the nearest seat of the rows in front and
 * behind. They depend on where seats are, not on who has them: worked out once per plan.
 */
export function neighbours(seats: Pick<MapSeat, 'id' | 'section' | 'row' | 'position' | 'x' | 'y'>[]): SeatLinks {
  type At = (typeof seats)[number];
  const rows = new Map<string, At[]>();
  for (const s of seats) {
    const key = `${s.section}\u0000${s.row}`;
    const row = rows.get(key);
    if (row) row.push(s);
    else rows.set(key, [s]);
  }
  const ordered = [...rows.values()]
    .map((r) => r.sort((a, b) => a.position - b.position))
    .sort((a, b) => a[0]!.y - b[0]!.y || a[0]!.x - b[0]!.x);
  const links: SeatLinks = new Map();
  const nearest = (row: At[] | undefined, x: number) =>
    row?.reduce((best, s) => (Math.abs(s.x - x) < Math.abs(best.x - x) ? s : best)).id;
  ordered.forEach((row, r) => {
    row.forEach((s, i) => {
      links.set(s.id, {
        left: row[i - 1]?.id,
        right: row[i + 1]?.id,
        up: nearest(ordered[r - 1], s.x),
        down: nearest(ordered[r + 1], s.x),
      });
    });
  });
  return links;
}

const Seat = memo(function Seat({ seat, colour, tabbable }: { seat: MapSeat; colour: string; tabbable: boolean }) {
  const { x, y, state } = seat;
  return (
    <g
      className={`seat seat--${state}`}
      data-seat={seat.id}
      role="checkbox"
      aria-checked={state === 'selected'}
      aria-disabled={state === 'taken' || state === 'unpriced' ? true : undefined}
      aria-label={seat.label}
      tabIndex={tabbable ? 0 : -1}
    >
      <circle cx={x} cy={y} r={SEAT_RADIUS} fill={state === 'available' || state === 'selected' ? colour : undefined} />
      {state === 'selected' ? <path className="seat__mark" d={`M${x - 5} ${y}l3.5 3.5 6.5-7`} /> : null}
      {state === 'taken' ? <path className="seat__mark" d={`M${x - 4} ${y - 4}l8 8m0-8l-8 8`} /> : null}
    </g>
  );
});

export const SeatMap = memo(function SeatMap({ seats, sections, width, height, colours, links, onPress }: Props) {
  const full: Box = useMemo(() => ({ x: 0, y: 0, w: width, h: height }), [width, height]);
  const [box, setBox] = useState<Box>(full);
  const [focused, setFocused] = useState<number | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const byId = useMemo(() => new Map(seats.map((s) => [s.id, s])), [seats]);
  const tabbable =
    focused !== null && byId.has(focused)
      ? focused
      : (seats.find((s) => s.state === 'available')?.id ?? seats[0]?.id ?? null);

  /** Zooms by `factor` around a point of the plan, never out beyond the whole plan. */
  const zoom = useCallback(
    (factor: number, cx?: number, cy?: number) =>
      setBox((b) => {
        const w = Math.min(full.w, Math.max(full.w / 8, b.w / factor));
        const h = (w / full.w) * full.h;
        const px = cx ?? b.x + b.w / 2;
        const py = cy ?? b.y + b.h / 2;
        return clamp({ x: px - ((px - b.x) * w) / b.w, y: py - ((py - b.y) * h) / b.h, w, h }, full);
      }),
    [full],
  );

  // A seat reached by keyboard is brought into view when the map is zoomed in.
  useEffect(() => {
    if (focused === null) return;
    const seat = byId.get(focused);
    const el = svgRef.current?.querySelector<SVGGElement>(`[data-seat="${focused}"]`);
    if (el && svgRef.current?.contains(document.activeElement) && document.activeElement !== el) el.focus();
    if (!seat) return;
    setBox((b) => {
      const inside =
        seat.x - SEAT_RADIUS >= b.x &&
        seat.x + SEAT_RADIUS <= b.x + b.w &&
        seat.y - SEAT_RADIUS >= b.y &&
        seat.y + SEAT_RADIUS <= b.y + b.h;
      return inside ? b : clamp({ ...b, x: seat.x - b.w / 2, y: seat.y - b.h / 2 }, full);
    });
  }, [focused, byId, full]);

  const onKeyDown = (e: KeyboardEvent<SVGSVGElement>) => {
    const id = Number((e.target as Element).getAttribute?.('data-seat'));
    if (!id) return;
    const link = links.get(id);
    const next = { ArrowLeft: link?.left, ArrowRight: link?.right, ArrowUp: link?.up, ArrowDown: link?.down }[e.key];
    if (e.key.startsWith('Arrow')) {
      e.preventDefault();
      if (next !== undefined) setFocused(next);
    } else if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      onPress(id);
    }
  };

  // Dragging pans; a press that did not move is a click on a seat. Two pointers pinch to zoom.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const moved = useRef(false);
  const pinch = useRef<number | null>(null);
  const toPlan = (clientX: number, clientY: number) => {
    const rect = svgRef.current!.getBoundingClientRect();
    return {
      x: box.x + ((clientX - rect.left) / rect.width) * box.w,
      y: box.y + ((clientY - rect.top) / rect.height) * box.h,
    };
  };
  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    moved.current = false;
    pinch.current = null;
  };
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const last = pointers.current.get(e.pointerId);
    if (!last || !svgRef.current) return;
    const rect = svgRef.current.getBoundingClientRect();
    if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      const other = a === last ? b! : a!;
      const distance = Math.hypot(e.clientX - other.x, e.clientY - other.y);
      if (pinch.current) {
        const centre = toPlan((e.clientX + other.x) / 2, (e.clientY + other.y) / 2);
        zoom(distance / pinch.current, centre.x, centre.y);
      }
      pinch.current = distance;
      moved.current = true;
    } else {
      const dx = e.clientX - last.x;
      const dy = e.clientY - last.y;
      if (!moved.current && Math.hypot(dx, dy) < 5) return;
      if (!moved.current) svgRef.current.setPointerCapture?.(e.pointerId);
      moved.current = true;
      setBox((b) => clamp({ ...b, x: b.x - (dx / rect.width) * b.w, y: b.y - (dy / rect.height) * b.h }, full));
    }
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
  };
  const onPointerUp = (e: PointerEvent<SVGSVGElement>) => {
    pointers.current.delete(e.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
  };
  const onClick = (e: React.MouseEvent<SVGSVGElement>) => {
    if (moved.current) return;
    const target = (e.target as Element).closest?.('[data-seat]');
    const id = Number(target?.getAttribute('data-seat'));
    if (!id) return;
    setFocused(id);
    onPress(id);
  };
  const onWheel = (e: WheelEvent<SVGSVGElement>) => {
    if (!e.ctrlKey && !e.metaKey && Math.abs(e.deltaY) < 1) return;
    const p = toPlan(e.clientX, e.clientY);
    zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, p.x, p.y);
  };

  const zoomed = box.w < full.w - 0.5;
  return (
    <div className="seat-map">
      <div className="seat-map__tools" role="group" aria-label={t('seats.zoom')}>
        <button
          type="button"
          className="button button--secondary seat-map__tool"
          onClick={() => zoom(1.5)}
          disabled={box.w <= full.w / 8 + 0.5}
        >
          {t('seats.zoomIn')}
        </button>
        <button
          type="button"
          className="button button--secondary seat-map__tool"
          onClick={() => zoom(1 / 1.5)}
          disabled={!zoomed}
        >
          {t('seats.zoomOut')}
        </button>
        <button
          type="button"
          className="button button--secondary seat-map__tool"
          onClick={() => setBox(full)}
          disabled={!zoomed}
        >
          {t('seats.wholePlan')}
        </button>
      </div>
      <svg
        ref={svgRef}
        className="seat-map__svg"
        viewBox={`${box.x} ${box.y} ${box.w} ${box.h}`}
        role="group"
        aria-label={t('seats.chart')}
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          const id = Number((e.target as Element).getAttribute?.('data-seat'));
          if (id) setFocused(id);
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onClick={onClick}
        onWheel={onWheel}
      >
        <rect className="seat-map__stage" x={width / 2 - 140} y={12} width={280} height={32} rx={6} />
        <text className="seat-map__label" x={width / 2} y={33} textAnchor="middle" aria-hidden="true">
          {t('seats.stage')}
        </text>
        {sections.map((s) => (
          <text key={s.name} className="seat-map__label" x={s.x} y={s.y} textAnchor="middle" aria-hidden="true">
            {s.name}
          </text>
        ))}
        {seats.map((s) => (
          <Seat
            key={s.id}
            seat={s}
            colour={s.ticketTypeId === null ? '' : (colours.get(s.ticketTypeId) ?? '#2563eb')}
            tabbable={s.id === tabbable}
          />
        ))}
      </svg>
    </div>
  );
});

function clamp(b: Box, full: Box): Box {
  return {
    ...b,
    x: Math.min(Math.max(b.x, full.x), full.x + full.w - b.w),
    y: Math.min(Math.max(b.y, full.y), full.y + full.h - b.h),
  };
}
