import { SiteFooter } from '../../ui/SiteFooter';

const BRAND = import.meta.env.VITE_BRAND_NAME ?? 'Holdfast';

/** The checkout's footer: the site's (ui/SiteFooter.tsx, the catalogue's too). */
export function Footer() {
  return <SiteFooter brand={BRAND} />;
}
