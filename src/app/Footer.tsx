const BRAND = import.meta.env.VITE_BRAND_NAME ?? 'Holdfast';

/** The site footer, the same links as the catalogue pages' footer (server/views/html.ts). */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav className="site-footer__nav" aria-label="Policies and more">
          <a href="/refund-policy/">Refund policy</a>
          <a href="/legal-information/purchase-terms-and-conditions/">Purchase terms</a>
          <a href="/mailing-list">Mailing list</a>
          <a href="/signin/">Sign in</a>
        </nav>
        <p className="site-footer__note">{BRAND} · tickets held while you pay</p>
      </div>
    </footer>
  );
}
