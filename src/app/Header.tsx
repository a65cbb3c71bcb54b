import { useEffect, useState, type ReactNode } from 'react';
import { SiteHeader } from '../../ui/SiteHeader';
import { onBasketCount } from './basketCount';

const BRAND = import.meta.env.VITE_BRAND_NAME ?? 'Holdfast';

/**
 * The seat page's header: the site's (ui/SiteHeader.tsx, the catalogue's too) at the basket, secure,
 * with the basket's count as it is announced (basketCount.ts). The checkout's own is the server's
 * (server/views/html.ts `checkoutShell`), whose count the app keeps (headerCount.ts).
 */
export function Header({ extra }: { extra?: ReactNode }) {
  const count = useBasketCount();
  return <SiteHeader brand={BRAND} current="basket" secure extra={extra} count={count} />;
}

function useBasketCount(): number {
  const [count, setCount] = useState(0);
  useEffect(() => onBasketCount(setCount), []);
  return count;
}
