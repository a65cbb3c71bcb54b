import { useEffect, useState, type ReactNode } from 'react';
import { onBasketCount } from './basketCount';
import { Icon } from '../components/Icon';

const BRAND = import.meta.env.VITE_BRAND_NAME ?? 'Holdfast';

/**
 * The site header, the same as the catalogue pages' (server/views/html.ts renders its twin from
 * the same classes in design/components.css): the brand, All events, Basket with the basket's count
 * as the checkout announces it (basketCount.ts).
 */
export function Header({ extra }: { extra?: ReactNode }) {
  const count = useBasketCount();
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <a className="brand" href="/all-events/">
          <svg className="brand__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="9" fill="currentColor" />
            <path d="M10 9v14M22 9v14M10 16h12" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" />
          </svg>
          <span className="brand__name">{BRAND}</span>
        </a>
        <nav className="site-header__nav" aria-label="Site">
          {extra}
          <a href="/all-events/">All events</a>
          <a href="/checkout/" aria-current="page">
            <Icon name="basket" />
            Basket
            {count > 0 ? (
              <span className="site-header__count" data-testid="basket-count">
                <span aria-hidden="true">{count}</span>
                <span className="visually-hidden">{count === 1 ? '1 item' : `${count} items`}</span>
              </span>
            ) : null}
          </a>
        </nav>
        <span className="site-header__secure">
          <Icon name="lock" />
          <span>Secure checkout</span>
        </span>
      </div>
    </header>
  );
}

function useBasketCount(): number {
  const [count, setCount] = useState(0);
  useEffect(() => onBasketCount(setCount), []);
  return count;
}
