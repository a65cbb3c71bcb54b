import type { Organiser } from '../../contract';
import { Thumbnail } from './Thumbnail';
import { t } from '../../i18n/runtime.ts';
import { rich } from '../rich';

/** 'Continue shopping': more events from each organiser in the basket. */
export function ContinueShopping({ organisers }: { organisers: readonly Organiser[] }) {
  const withEvents = organisers.filter((o) => o.upcoming_events.length > 0);
  return (
    <>
      {withEvents.map((organiser) => (
        <section key={organiser.id} className="more-events" aria-labelledby={`more-${organiser.id}`}>
          <h2 id={`more-${organiser.id}`} className="section-title">
            {t('basket.continueShopping')}
          </h2>
          <p className="muted">
            {rich(
              'basket.moreFrom',
              { name: organiser.name },
              { a: (name) => <a href={organiser.full_url}>{name}</a> },
            )}
          </p>
          <ul className="more-events__list">
            {organiser.upcoming_events.map((e) => (
              <li key={e.url}>
                <a className="event-card" href={e.url}>
                  <Thumbnail src={e.thumbnail} fallback="ticket" />
                  <span className="event-card__text">
                    <strong>{e.title}</strong>
                    <span>{e.date}</span>
                    <span className="muted">{e.location}</span>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
