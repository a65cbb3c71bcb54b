import type { ReactNode } from 'react';
import { Icon } from './Icon';
import { itemCount } from './plural';
import { t } from '../i18n/runtime.ts';

/** Where the buyer is, for the header's `aria-current`. */
export type SiteSection = 'events' | 'basket' | null;

/**
 * The site header of every page, the catalogue's (drawn by the server) and the checkout's: the
 * brand, All events, Basket; the checkout adds 'Secure checkout'.
 */
export function SiteHeader({
  brand,
  current = null,
  secure = false,
  extra,
  count = 0,
}: {
  brand: string;
  current?: SiteSection;
  secure?: boolean;
  extra?: ReactNode;
  /** What the basket holds (tickets and gift vouchers), shown when there is any. */
  count?: number;
}) {
  const here = (section: SiteSection) => (section === current ? 'page' : undefined);
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <a className="brand" href="/all-events/">
          <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="9" fill="currentColor" />
            <path d="M10 9v14M22 9v14M10 16h12" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" />
          </svg>
          <span className="brand__name">{brand}</span>
        </a>
        <nav className="site-header__nav" aria-label={t('site.nav')}>
          {extra}
          <a href="/all-events/" aria-current={here('events')}>
            {t('site.allEvents')}
          </a>
          <a href="/checkout/" aria-current={here('basket')}>
            <Icon name="basket" />
            {t('site.basket')}
            {count > 0 ? (
              <span className="site-header__count" data-testid="basket-count">
                <span aria-hidden="true">{count}</span>
                <span className="visually-hidden">{itemCount(count)}</span>
              </span>
            ) : null}
          </a>
        </nav>
        {secure ? (
          <span className="site-header__secure">
            <Icon name="lock" />
            <span>{t('site.secureCheckout')}</span>
          </span>
        ) : null}
      </div>
    </header>
  );
}
