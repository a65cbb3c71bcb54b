/**
 * The order-completed overview (spec 001 §2): the green tick and reference, the confirmation (or a
 * payment plan's schedule notes), the subscribe link, the tiles, and more events from the organiser.
 */
import type { ReactNode } from 'react';
import { WALLET_PATH, type Checkout } from '../../../contract';
import { PLAN_COMPLETED_MESSAGES } from '../../../contract/messages/instalment';
import { ACCOUNT_PATH, planCardPath } from '../../../contract/delivery';
import { ORDER_COMPLETED_MESSAGES as DELIVERY_MESSAGES } from '../../../contract/messages/delivery';
import {
  orderCompletedTiles,
  shareTextOf,
  type orderCompletedSenders,
  type OrderCompletedView,
} from '../../../machines/orderCompleted/orderCompleted.connect';
import { ORDER_COMPLETED_MESSAGES } from '../../../contract/messages/orderCompleted';
import { canTransfer } from '../../../machines/transfers/transferRows';
import { useUser } from '../../app/checkoutContext';
import { Icon } from '../../../ui/Icon';
import { FeedbackDialog, ShareDialog } from './Dialogs';
import { TileIcon, type TileIconName } from './TileIcon';
import { t } from '../../../i18n/runtime.ts';
import { rich } from '../../../ui/rich.tsx';

const BRAND = import.meta.env.VITE_BRAND_NAME ?? 'Holdfast';

type Senders = ReturnType<typeof orderCompletedSenders>;

export function Overview({
  checkout,
  info,
  view,
  send,
  accommodationMap,
}: {
  checkout: Checkout | undefined;
  info: { sale_email: string | null; sale_reference: string | null } | undefined;
  view: OrderCompletedView;
  send: Senders;
  accommodationMap: boolean;
}) {
  const user = useUser();
  const reference = info?.sale_reference ?? checkout?.sale_reference ?? null;
  const email = info?.sale_email ?? user?.email ?? null;
  const tiles = checkout
    ? orderCompletedTiles({ checkout, user, view, canTransfer: canTransfer(checkout), accommodationMap })
    : null;
  const shareText =
    checkout && view.referrerLink ? shareTextOf(checkout.events, view.referrerLink, BRAND, location.origin) : '';
  // More events from the organiser: not the ones just bought.
  const bought = new Set((checkout?.events ?? []).map((e) => new URL(e.shareable_link, location.origin).pathname));
  const organisers = (checkout?.organisers ?? [])
    .map((o) => ({
      ...o,
      upcoming_events: o.upcoming_events.filter((e) => !bought.has(new URL(e.url, location.origin).pathname)),
    }))
    .filter((o) => o.upcoming_events.length > 0);
  return (
    <>
      <div className="card stack order-complete">
        <span className="order-complete__tick">
          <Icon name="check" />
        </span>
        {reference ? (
          <p className="order-complete__reference">
            {DELIVERY_MESSAGES.reference('')}
            <span>{reference}</span>
          </p>
        ) : null}
        {checkout?.payment_plan_remaining != null ? (
          // A payment plan's order (spec 001 §2): the schedule is set up, with what to know about it.
          <>
            <p className="order-complete__headline">{PLAN_COMPLETED_MESSAGES.title}</p>
            <section className="order-complete__important" aria-labelledby="plan-important">
              <h3 id="plan-important" className="section-title">
                {t('plan.importantTitle')}
              </h3>
              <ul>
                {PLAN_COMPLETED_MESSAGES.important.map((point, index) => (
                  <li key={point}>
                    {index === 2
                      ? // The spec's words, with 'account settings' leading to where this plan's card is changed.
                        rich(
                          'plan.important3Linked',
                          {},
                          {
                            a: (text) => (
                              <a className="inline-link" href={reference ? planCardPath(reference) : ACCOUNT_PATH}>
                                {text}
                              </a>
                            ),
                          },
                        )
                      : point}
                  </li>
                ))}
              </ul>
            </section>
          </>
        ) : (
          <>
            <p className="order-complete__headline">{DELIVERY_MESSAGES.complete}</p>
            {email ? <p className="order-complete__email">{DELIVERY_MESSAGES.walletSent(email)}</p> : null}
            {tiles?.subscribe ? (
              <button
                type="button"
                className="link-button"
                onClick={send.subscribe}
                disabled={view.subscription.subscribing}
                aria-busy={view.subscription.subscribing || undefined}
              >
                {ORDER_COMPLETED_MESSAGES.subscribeLink}
              </button>
            ) : null}
          </>
        )}
      </div>
      <ul className="order-tiles" role="list" aria-label={t('completed.whatNext')}>
        {tiles?.livestream ? (
          <Tile icon="live" href={tiles.livestream.href} hint={tiles.livestream.title}>
            {t('completed.livestream')}
          </Tile>
        ) : null}
        <Tile icon="wallet" href={WALLET_PATH}>
          {t('completed.wallet')}
        </Tile>
        <Tile icon="feedback" onClick={send.openFeedback} dialog>
          {ORDER_COMPLETED_MESSAGES.feedbackTitle}
        </Tile>
        {tiles?.transfer ? (
          <Tile
            icon="transfer"
            onClick={() => checkout && send.openTransfer(checkout, new Date())}
            disabled={tiles.transfer.disabled}
            hint={tiles.transfer.disabled ? t('completed.seatedNoTransfer') : undefined}
          >
            {t('completed.transfer')}
          </Tile>
        ) : null}
        {tiles?.findAPlace ? (
          <Tile icon="bed" onClick={send.openFindAPlace}>
            {t('completed.findAPlace')}
          </Tile>
        ) : null}
        {tiles?.share ? (
          <Tile icon="share" onClick={send.openShare} dialog>
            {tiles.share.label}
          </Tile>
        ) : null}
      </ul>
      {organisers.length > 0 ? (
        <section className="browse-events" aria-labelledby="browse-title">
          <h2 id="browse-title" className="section-title">
            {ORDER_COMPLETED_MESSAGES.browseMoreEvents}
          </h2>
          {organisers.map((o) => (
            <div key={o.id} className="browse-events__organiser">
              <p className="muted">{t('completed.fromOrganiser', { name: o.name })}</p>
              <ul className="browse-events__list" role="list">
                {o.upcoming_events.map((e) => (
                  <li key={e.url}>
                    <a className="browse-event" href={e.url}>
                      <img
                        className="browse-event__thumb"
                        src={e.thumbnail}
                        alt=""
                        width="96"
                        height="64"
                        loading="lazy"
                      />
                      <span className="browse-event__text">
                        <span className="browse-event__title">{e.title}</span>
                        <span className="muted">{e.date}</span>
                        <span className="muted">{e.location}</span>
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      ) : null}
      <FeedbackDialog view={view.feedback} send={send} />
      {tiles?.share ? <ShareDialog title={tiles.share.label} text={shareText} view={view.share} send={send} /> : null}
    </>
  );
}

function Tile({
  icon,
  href,
  onClick,
  disabled,
  dialog,
  hint,
  children,
}: {
  icon: TileIconName;
  href?: string;
  onClick?: () => void;
  disabled?: boolean;
  /** The tile opens a dialog. */
  dialog?: boolean;
  hint?: string | undefined;
  children: ReactNode;
}) {
  const body = (
    <>
      <TileIcon name={icon} />
      <span className="order-tile__text">
        <span>{children}</span>
        {hint ? <span className="order-tile__hint">{hint}</span> : null}
      </span>
    </>
  );
  return (
    <li>
      {href ? (
        <a className="order-tile" href={href}>
          {body}
        </a>
      ) : (
        <button
          type="button"
          className="order-tile"
          onClick={onClick}
          disabled={disabled}
          aria-haspopup={dialog ? 'dialog' : undefined}
        >
          {body}
        </button>
      )}
    </li>
  );
}
