import type { ReactNode } from 'react';
import { SiteHeader } from '../../ui/SiteHeader';

const BRAND = import.meta.env.VITE_BRAND_NAME ?? 'Holdfast';

/** The checkout's header: the site's (ui/SiteHeader.tsx, the catalogue's too) at the basket, secure. */
export function Header({ extra }: { extra?: ReactNode }) {
  return <SiteHeader brand={BRAND} current="basket" secure extra={extra} />;
}
