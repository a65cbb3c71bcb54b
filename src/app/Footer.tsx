import { SiteFooter } from '../../ui/SiteFooter';

const BRAND = import.meta.env.VITE_BRAND_NAME ?? 'Holdfast';

/** The seat page's footer: the site's (ui/SiteFooter.tsx, the catalogue's too). The checkout's is the server's. */
export function Footer() {
  return <SiteFooter brand={BRAND} />;
}
