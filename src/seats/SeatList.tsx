/** The seats as a table, one per section: the same choice as the map, for people who cannot use it. */
import type { MapSeat } from '../../machines/seatSelection/seatSelection.connect';
import { formatMoney } from '../../contract/money';
import { t, type MessageKey } from '../../i18n/runtime';

const STATUS: Record<MapSeat['state'], MessageKey> = {
  available: 'seats.available',
  selected: 'seats.isSelected',
  taken: 'seats.taken',
  unpriced: 'seats.unpriced',
};

export function SeatList({
  seats,
  onPress,
  pending,
}: {
  seats: MapSeat[];
  onPress: (seatId: number) => void;
  pending: boolean;
}) {
  const sections = [...new Set(seats.map((s) => s.section))];
  return (
    <div className="seat-list">
      {sections.map((section) => (
        <table key={section} className="seat-list__table">
          <caption>{section}</caption>
          <thead>
            <tr>
              <th scope="col">{t('seats.row')}</th>
              <th scope="col">{t('seats.seat')}</th>
              <th scope="col">{t('seats.price')}</th>
              <th scope="col">{t('seats.ticketType')}</th>
              <th scope="col">{t('seats.status')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('seats.choose')}</span>
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
                  <td>{t(STATUS[s.state])}</td>
                  <td>
                    <button
                      type="button"
                      className="button button--secondary seat-list__choose"
                      aria-label={t(s.state === 'selected' ? 'seats.removeSeat' : 'seats.chooseSeat', {
                        seat: s.label,
                      })}
                      aria-disabled={pending || undefined}
                      onClick={() => onPress(s.id)}
                    >
                      {t(s.state === 'selected' ? 'seats.remove' : 'seats.choose')}
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
