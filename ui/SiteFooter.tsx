import { LANGUAGES } from '../i18n/locales.ts';
import { activeLocale, t } from '../i18n/runtime.ts';

/**
 * The site footer of every page, the catalogue's and the checkout's, with the language picker: a
 * form the server answers (POST /language/), so it works before any script and on every page.
 * Each language is named in itself.
 */
export function SiteFooter({ brand }: { brand: string }) {
  const current = activeLocale();
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <nav className="site-footer__nav" aria-label={t('site.footerNav')}>
          <a href="/refund-policy/">{t('site.refundPolicy')}</a>
          <a href="/legal-information/purchase-terms-and-conditions/">{t('site.purchaseTerms')}</a>
          <a href="/mailing-list">{t('site.mailingList')}</a>
          <a href="/signin/">{t('site.signIn')}</a>
        </nav>
        <form className="site-footer__language" method="post" action="/language/">
          <label htmlFor="site-language">{t('site.language')}</label>
          <select id="site-language" name="language" className="input" defaultValue={current}>
            {LANGUAGES.map((language) => (
              <option key={language.locale} value={language.locale} lang={language.locale}>
                {language.name}
              </option>
            ))}
          </select>
          <button type="submit" className="button button--secondary">
            {t('site.languageChoose')}
          </button>
        </form>
        <p className="site-footer__note">{t('site.footerNote', { brand })}</p>
      </div>
    </footer>
  );
}
