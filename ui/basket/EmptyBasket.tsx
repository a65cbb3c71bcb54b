import { Icon } from '../Icon';
import { t } from '../../i18n/runtime.ts';

/** The empty basket: a way back to the events, and the mailing list for those not yet on it. */
export function EmptyBasket({ showMailingList }: { showMailingList: boolean }) {
  return (
    <div className="card empty-basket">
      <span className="empty-basket__icon">
        <Icon name="basket" />
      </span>
      <p className="lead">{t('basket.emptyLead')}</p>
      <a className="button" href="/all-events/">
        {t('basket.browseEvents')}
      </a>
      {showMailingList ? (
        <p>
          <a href="/mailing-list">{t('basket.mailingList')}</a>
        </p>
      ) : null}
    </div>
  );
}
