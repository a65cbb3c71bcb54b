/**
 * Find a place to stay (spec 001 §2): the accommodation map centred on the event's venue, for the
 * tickets bought for that event. With several events, a link per event switches the map.
 */
import { useEffect, useRef } from 'react';
import type { Checkout } from '../../../contract';
import { hasFullVenue } from '../../../machines/orderCompleted/orderCompleted.connect';
import { ORDER_COMPLETED_MESSAGES } from '../../../contract/messages/orderCompleted';
import { accommodationMapUrl, stayFor, type AccommodationMapConfig } from './accommodationMap';
import { BackLink } from './BackLink';
import { t } from '../../../i18n/runtime.ts';

/** The map's main colour: the brand's. */
const MAP_COLOUR = '#0f766e';

export function FindAPlace({
  checkout,
  config,
  mapEventId,
  onChoose,
  onBack,
}: {
  checkout: Checkout;
  config: AccommodationMapConfig;
  mapEventId: number | null;
  onChoose: (eventId: number) => void;
  onBack: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const events = checkout.events.filter(hasFullVenue);
  const shown = events.find((e) => e.id === mapEventId) ?? events[0];
  const stay = shown ? stayFor(checkout, shown.id, MAP_COLOUR) : null;
  return (
    <section className="order-subview" aria-labelledby="stay-title">
      <BackLink onBack={onBack} />
      <h2 id="stay-title" className="order-subview__title" tabIndex={-1} ref={heading}>
        {t('completed.findAPlace')}
      </h2>
      {events.length > 1 ? (
        <ul className="stay-events" role="list" aria-label={t('completed.eventsInOrder')}>
          {events.map((e) => (
            <li key={e.id}>
              <button
                type="button"
                className="link-button"
                aria-current={e.id === shown?.id ? 'true' : undefined}
                onClick={() => onChoose(e.id)}
              >
                {ORDER_COMPLETED_MESSAGES.findAPlaceNear(e.title)}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {shown && stay ? (
        <div className="card stack stay-map">
          <p className="muted">{t('completed.placesNear', { address: shown.venue.full_address })}</p>
          <iframe
            key={shown.id}
            className="stay-map__frame"
            title={t('completed.mapTitle', { title: shown.title })}
            src={accommodationMapUrl(config, stay)}
            loading="lazy"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        </div>
      ) : null}
    </section>
  );
}
