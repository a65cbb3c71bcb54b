import { Icon } from '../Icon';

/** The empty basket: a way back to the events, and the mailing list for those not yet on it. */
export function EmptyBasket({ showMailingList }: { showMailingList: boolean }) {
  return (
    <div className="card empty-basket">
      <span className="empty-basket__icon">
        <Icon name="basket" />
      </span>
      <p className="lead">Looking for something to put in your basket?</p>
      <a className="button" href="/all-events/">
        Browse all events
      </a>
      {showMailingList ? (
        <p>
          <a href="/mailing-list">Sign up for exclusive event news and discounts!</a>
        </p>
      ) : null}
    </div>
  );
}
