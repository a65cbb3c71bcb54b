/** The seats as a table, one per section: the same choice as the map, for people who cannot use it. */
import type { MapSeat } from '../../machines/seatSelection/seatSelection.connect';
import { formatMoney } from '../../contract/money';

const STATUS: Record<MapSeat['state'], string> = { available: 'Available', selected: 'Selected', taken: 'Unavailable', unpriced: 'Not for sale' };

export function SeatList({ seats, onPress, pending }: { seats: MapSeat[]; onPress: (seatId: number) => void; pending: boolean }) {
  const sections = [...new Set(seats.map((s) => s.section))];
  return (
    <div className="seat-list">
      {sections.map((section) => (
        <table key={section} className="seat-list__table">
          <caption>{section}</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Seat</th>
              <th scope="col">Price</th>
              <th scope="col">Ticket type</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Choose</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {seats
              .filter((s) => s.section === section)
              .map((s) => (
                <tr key={s.id} className={`seat-list__row seat-list__row--${s.state}`}>
                  <td>{s.row}</td>
                  <td>{s.number}</td>
                  <td>{s.price === null ? '–' : formatMoney(s.price, 'GBP')}</td>
                  <td>{s.ticketName ?? '–'}</td>
                  <td>{STATUS[s.state]}</td>
                  <td>
                    <button type="button" className="button button--secondary seat-list__choose" aria-label={`${s.state === 'selected' ? 'Remove' : 'Choose'} ${s.label}`} aria-disabled={pending || undefined} onClick={() => onPress(s.id)}>
                      {s.state === 'selected' ? 'Remove' : 'Choose'}
                    </button>
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      ))}
    </div>
  );
}
