/**
 * seats.io's seating chart, for a plan whose provider is seats.io (spec 001 §2, §3 Seat-plan info):
 * the chart for the event key, with the workspace's public key and region, priced per category (a
 * category's key is the ticket type's id). It holds the seats the buyer selects under its own hold
 * token (a session that continues) and reports what it did to the seat-selection machine, through
 * the connect layer's chart senders. Its own chunk: loaded only on a seats.io seat page, and its
 * chart.js from seats.io's CDN only once it is mounted.
 */
import { useMemo } from 'react';
import { SeatsioSeatingChart, type Region } from '@seatsio/seatsio-react';
import { formatSeatTotal } from '../../contract/seatMoney';
import type { SeatPricing } from '../../contract';
import type { ChartHoldToken, chartSenders } from '../../machines/seatSelection/seatSelection.connect';

export type ChartSenders = ReturnType<typeof chartSenders>;

export interface SeatsioChartProps {
  publicKey: string;
  region: string;
  eventKey: string;
  pricing: SeatPricing[];
  /** The chart's events go to the latest senders (the plan and selection they join change). */
  sendersRef: { current: ChartSenders | null };
  /** Where the chart's hold token is kept for the senders. */
  holdTokenRef: { current: ChartHoldToken | null };
}

export default function SeatsioChart({
  publicKey,
  region,
  eventKey,
  pricing,
  sendersRef,
  holdTokenRef,
}: SeatsioChartProps) {
  // The chart is drawn again whenever a prop changes: the pricing changes only with the plan's.
  const prices = useMemo(
    () => ({
      prices: pricing.map((p) => ({ category: String(p.ticket_type_id), price: p.price / 100 })),
      priceFormatter: (price: number) => formatSeatTotal(Math.round(price * 100)),
    }),
    [pricing],
  );
  return (
    <div className="seat-page__seatsio" data-testid="seatsio-chart">
      <SeatsioSeatingChart
        workspaceKey={publicKey}
        event={eventKey}
        region={region as Region}
        pricing={prices}
        session="continue"
        selectionValidators={[{ type: 'noOrphanSeats' }, { type: 'consecutiveSeats' }]}
        objectWithoutPricingSelectable={false}
        onSessionInitialized={(token) => {
          holdTokenRef.current = { token: token.token, expiresAt: token.expiresAt };
        }}
        onObjectSelected={(object) => sendersRef.current?.selected(object)}
        onObjectDeselected={(object) => sendersRef.current?.deselected(object)}
        onHoldCallsInProgress={() => sendersRef.current?.holdCallsStarted()}
        onHoldCallsComplete={() => sendersRef.current?.holdCallsComplete()}
        onHoldFailed={(objects) => sendersRef.current?.holdFailed(objects)}
        onReleaseHoldFailed={(objects) => sendersRef.current?.holdFailed(objects)}
        onSelectionInvalid={(violations) => sendersRef.current?.validity(violations)}
        onSelectionValid={() => sendersRef.current?.validity([])}
        onHoldTokenExpired={() => sendersRef.current?.expired()}
      />
    </div>
  );
}
