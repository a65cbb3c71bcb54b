/**
 * The seat-selection page (spec 001 §2): the seating chart with its legend, or the same choice as a
 * table; why a press was refused, in words, next to the chart; 'Selected Seats:' with each seat's
 * section-row-number, price and ticket type, the total, and 'Add To Basket!'.
 */
import { lazy, Suspense, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { inspection } from '../inspector';
import { Alert } from '../../ui/Alert';
import { Toasts } from '../components/Toasts';
import { formatMoney } from '../../contract/money';
import {
  chartSenders,
  mapSeats,
  seatSelectionSenders,
  summarise,
  viewSeatSelection,
  type ChartHoldToken,
  type EventDateInfo,
  type MapSeat,
  type SeatingPlan,
} from '../../machines/seatSelection/seatSelection.connect';
import { SEAT_MESSAGES } from '../../contract/messages/seats';
import type { createSeatSelectionMachine } from './seatActors';
import { eventDateQuery, seatingPlanQuery } from './seatQueries';
import { neighbours, SeatMap } from './SeatMap';
import { SeatList } from './SeatList';
import { t } from '../../i18n/runtime';

/** seats.io's chart and its React component, in their own chunk: only a seats.io seat page loads them. */
const SeatsioChart = lazy(() => import('./SeatsioChart'));

/** Spec 001 §8: seat-plan loading errors show the server's message field when present, else seats.planFailed. */
const PALETTE = ['#1d4ed8', '#7e22ce', '#0f766e', '#b45309', '#be123c'];

export function SeatPage({
  eventDateId,
  machine,
}: {
  eventDateId: number;
  machine: ReturnType<typeof createSeatSelectionMachine>;
}) {
  const info = useQuery(eventDateQuery(eventDateId));
  const plan = useQuery(seatingPlanQuery(eventDateId));
  const failure = info.error ?? plan.error;
  return (
    <>
      {failure ? (
        <div className="toasts" aria-label={t('ui.notifications')} role="region">
          <div className="toasts__item">
            <Alert type="error">
              {(failure as { serverMessage?: string | null }).serverMessage ?? t('seats.planFailed')}
            </Alert>
          </div>
        </div>
      ) : null}
      {info.data && plan.data ? (
        <Seats eventDateId={eventDateId} machine={machine} info={info.data} plan={plan.data} />
      ) : failure ? (
        <h1 className="seat-page__title">{t('seats.selection')}</h1>
      ) : (
        <p className="seat-page__loading" role="status">
          {t('seats.loadingPlan')}
        </p>
      )}
    </>
  );
}

function Seats({
  eventDateId,
  machine,
  info,
  plan,
}: {
  eventDateId: number;
  machine: ReturnType<typeof createSeatSelectionMachine>;
  info: EventDateInfo;
  plan: SeatingPlan;
}) {
  // The machine starts with the plan's first reading: a hold still live continues.
  const actor = useActorRef(machine, { input: { eventDateId, hold: plan.seating_plan_event.hold }, ...inspection() });
  const view = useSelector(actor, viewSeatSelection);
  const [mode, setMode] = useState<'map' | 'list'>('map');
  // The seats drawn last time are a cache: an unchanged seat keeps its object, so the map redraws
  // only the seats that changed. What is drawn never depends on it, only which objects are reused.
  const drawn = useRef(new Map<number, MapSeat>());
  /* eslint-disable react-hooks/refs -- a cache of objects, not a value the render shows */
  const seats = useMemo(() => {
    const next = mapSeats(plan, view.selected, drawn.current);
    drawn.current = new Map(next.map((s) => [s.id, s]));
    return next;
  }, [plan, view.selected]);
  /* eslint-enable react-hooks/refs */
  const colours = useMemo(
    () => new Map(plan.seating_plan_event.pricing.map((p, i) => [p.ticket_type_id, PALETTE[i % PALETTE.length]!])),
    [plan],
  );
  const sections = useMemo(() => sectionLabels(mapSeats(plan, [])), [plan]);
  const links = useMemo(() => neighbours(mapSeats(plan, [])), [plan]);
  const summary = summarise(seats, view.selected);
  const senders = seatSelectionSenders(actor.send, seats, view, info);
  const { width, height } = plan.seating_plan_layout;
  // One press handler for the life of the page, so the map redraws only when its seats change.
  const pressRef = useRef(senders.press);
  useLayoutEffect(() => {
    pressRef.current = senders.press;
  });
  const press = useCallback((seatId: number) => pressRef.current(seatId), []);
  // seats.io's chart, when the plan is seats.io's: its events reach the machine through the latest senders.
  const provider = plan.seating_plan_layout.seating_plan_provider;
  const seatsio =
    provider.provider === 'seatsio' && provider.public_key && provider.region
      ? { publicKey: provider.public_key, region: provider.region }
      : null;
  const chartTokenRef = useRef<ChartHoldToken | null>(null);
  const chartRef = useRef<ReturnType<typeof chartSenders> | null>(null);
  useLayoutEffect(() => {
    chartRef.current = chartSenders(actor.send, seats, () => chartTokenRef.current, Date.now);
  });

  return (
    <div className="seat-page">
      <header className="seat-page__head">
        <h1 className="seat-page__title">{info.event.title}</h1>
        <p className="muted">
          {info.event_date.nice_date} · {info.event.venue}
        </p>
      </header>
      {/* The page's notifications go by themselves after the default 3000 ms (spec 001 §9). */}
      <Toasts
        notices={view.problem ? [{ id: 1, kind: 'error', text: view.problem }] : []}
        onDismiss={senders.dismissProblem}
      />
      <div className="seat-page__body">
        <section className="seat-page__chart" aria-labelledby="seat-chart-title">
          <div className="seat-page__chart-head">
            <h2 id="seat-chart-title">{t('seats.title')}</h2>
            {seatsio ? null : (
              <div className="seat-page__modes" role="group" aria-label={t('seats.showAs')}>
                <button
                  type="button"
                  className="button button--secondary"
                  aria-pressed={mode === 'map'}
                  onClick={() => setMode('map')}
                >
                  {t('seats.map')}
                </button>
                <button
                  type="button"
                  className="button button--secondary"
                  aria-pressed={mode === 'list'}
                  onClick={() => setMode('list')}
                >
                  {t('seats.list')}
                </button>
              </div>
            )}
          </div>
          <div className="seat-page__notes" aria-live="polite">
            {view.refusal ? (
              <Alert type="warning">{view.refusal}</Alert>
            ) : view.violation ? (
              <Alert type="warning">{view.violation}</Alert>
            ) : view.expired ? (
              <Alert type="warning">{SEAT_MESSAGES.holdExpired}</Alert>
            ) : null}
          </div>
          {seatsio ? (
            <Suspense
              fallback={
                <p className="seat-page__loading" role="status">
                  {t('seats.loadingChart')}
                </p>
              }
            >
              <SeatsioChart
                publicKey={seatsio.publicKey}
                region={seatsio.region}
                eventKey={plan.seating_plan_event.provider_identifier}
                pricing={plan.seating_plan_event.pricing}
                sendersRef={chartRef}
                holdTokenRef={chartTokenRef}
              />
            </Suspense>
          ) : mode === 'map' ? (
            <SeatMap
              seats={seats}
              sections={sections}
              width={width}
              height={height}
              colours={colours}
              links={links}
              onPress={press}
            />
          ) : (
            <SeatList seats={seats} onPress={press} pending={view.pending} />
          )}
          {seatsio ? null : <Legend plan={plan} colours={colours} />}
        </section>
        <aside className="seat-page__summary" aria-labelledby="selected-seats-title">
          <h2 id="selected-seats-title">{t('seats.selected')}</h2>
          {summary.seats.length === 0 ? (
            <p className="muted">{t('seats.noneChosen')}</p>
          ) : (
            <ul className="seat-page__selected" role="list">
              {summary.seats.map((s) => (
                <li key={s.id}>
                  <span className="seat-page__place">{s.place}</span>
                  <span>{s.price}</span>
                  <span className="muted">{s.ticketName}</span>
                </li>
              ))}
            </ul>
          )}
          <p className="seat-page__total">
            <span>{t('seats.total')}</span> <strong>{summary.total}</strong>
          </p>
          {view.selected.length > 0 && view.secondsHeld > 0 ? (
            <p className="muted seat-page__hold">
              {t(seatsio ? 'seats.heldFor' : 'seats.heldAfterChoice', { minutes: Math.round(view.secondsHeld / 60) })}
            </p>
          ) : null}
          <button
            type="button"
            className="button button--large seat-page__add"
            disabled={!view.canAdd}
            aria-busy={view.pending}
            onClick={senders.add}
          >
            {t('seats.add')}
          </button>
        </aside>
      </div>
    </div>
  );
}

function Legend({ plan, colours }: { plan: SeatingPlan; colours: Map<number, string> }) {
  return (
    <div className="seat-legend">
      <h3 className="seat-legend__title">{t('seats.key')}</h3>
      <ul className="seat-legend__list" role="list">
        {plan.seating_plan_event.pricing.map((p) => (
          <li key={p.ticket_type_id}>
            <svg viewBox="-12 -12 24 24" className="seat-legend__swatch" aria-hidden="true">
              <circle r="10" fill={colours.get(p.ticket_type_id)} />
            </svg>
            {p.ticket_name} · {formatMoney(p.price, 'GBP')}
          </li>
        ))}
        <li>
          <svg viewBox="-12 -12 24 24" className="seat-legend__swatch seat seat--selected" aria-hidden="true">
            <circle r="10" fill="#1d4ed8" />
            <path className="seat__mark" d="M-5 0l3.5 3.5 6.5-7" />
          </svg>
          {t('seats.keySelected')}
        </li>
        <li>
          <svg viewBox="-12 -12 24 24" className="seat-legend__swatch seat seat--taken" aria-hidden="true">
            <circle r="10" />
            <path className="seat__mark" d="M-4 -4l8 8m0-8l-8 8" />
          </svg>
          {t('seats.keyTaken')}
        </li>
        <li>
          <svg viewBox="-12 -12 24 24" className="seat-legend__swatch seat seat--unpriced" aria-hidden="true">
            <circle r="10" />
          </svg>
          {t('seats.keyUnpriced')}
        </li>
      </ul>
    </div>
  );
}

function sectionLabels(seats: MapSeat[]) {
  const bounds = new Map<string, { minX: number; maxX: number; minY: number }>();
  for (const s of seats) {
    const b = bounds.get(s.section) ?? { minX: Infinity, maxX: -Infinity, minY: Infinity };
    bounds.set(s.section, { minX: Math.min(b.minX, s.x), maxX: Math.max(b.maxX, s.x), minY: Math.min(b.minY, s.y) });
  }
  return [...bounds].map(([name, b]) => ({ name, x: (b.minX + b.maxX) / 2, y: b.minY - 18 }));
}
