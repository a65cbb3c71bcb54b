/** The site footer of every page, the catalogue's and the checkout's. */
export function SiteFooter({ brand }: { brand: string }) {
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav className="site-footer__nav" aria-label="Policies and more">
          <a href="/refund-policy/">Refund policy</a>
          <a href="/legal-information/purchase-terms-and-conditions/">Purchase terms</a>
          <a href="/mailing-list">Mailing list</a>
          <a href="/signin/">Sign in</a>
        </nav>
        <p className="site-footer__note">{brand} · tickets held while you pay</p>
      </div>
    </footer>
  );
}
