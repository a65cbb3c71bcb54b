/** Plain server-rendered pages: one inline stylesheet (the app's design files), no external assets. */
import { readFileSync } from 'node:fs';
import { dirOf } from '../../i18n/locales.ts';
import { activeLocale, t, type MessageKey, type Values } from '../../i18n/runtime.ts';
import type { Config } from '../config.ts';
import { determiningHtml, footerHtml, headerHtml, iconHtml, type IconName, type SiteSection } from './chrome.tsx';
export type { SiteSection };

/** What a page says of the site: its name (the configuration, or the name alone). */
export type Site = string | Pick<Config, 'brandName'>;

const brandOf = (site: Site) => (typeof site === 'string' ? site : site.brandName);

export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Marks text as already-escaped HTML. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Template tag: interpolations are escaped unless they are Html (or arrays of Html). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    const rendered = Array.isArray(v)
      ? v.map((x) => (x instanceof Html ? x.value : esc(x))).join('')
      : v instanceof Html
        ? v.value
        : v === null || v === undefined || v === false
          ? ''
          : esc(v);
    out += rendered + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

/**
 * One look with the checkout: the app's design tokens and base components (design/), read once at
 * start and inlined, so a page needs no second request; then the catalogue's own layout.
 */
export const STYLE = ['../../design/tokens.css', '../../design/components.css', './pages.css']
  .map((file) => readFileSync(new URL(file, import.meta.url), 'utf8'))
  .join('\n')
  // Comments and indentation are for people reading the files, not for every page view.
  .replace(/\/\*[\s\S]*?\*\//g, '')
  .replace(/\s*\n\s*/g, '\n');

/**
 * A message whose words wrap elements, as HTML: the catalogue writes them as tags (`By <a>{name}</a>`)
 * and the page says what each tag draws (ui/rich.tsx does the same for the app), so a translation
 * can move the link within its sentence. Every piece of text, the values too, is escaped.
 */
export function richHtml(key: MessageKey, values: Values, tags: Record<string, (chunk: string) => Html>): Html {
  const text = t(key, values);
  let out = '';
  const tag = /<(\w+)>([\s\S]*?)<\/\1>/g;
  let last = 0;
  for (let match = tag.exec(text); match; match = tag.exec(text)) {
    out += esc(text.slice(last, match.index));
    const draw = tags[match[1]!];
    out += draw ? draw(match[2]!).value : esc(match[2]!);
    last = tag.lastIndex;
  }
  return new Html(out + esc(text.slice(last)));
}

/** An icon of the app's set (ui/Icon.tsx). */
export function icon(name: IconName): Html {
  return new Html(iconHtml(name));
}

/**
 * The checkout page before its script runs: the site's header (with `count`, what the basket holds)
 * and footer, which stay the server's, and between them the app's root holding its first screen,
 * class for class (src/App.tsx), so the page paints at once and the app replaces the root with the
 * same picture. The first screen is 'Determining checkout progress' unless the page knows it (the basket).
 */
export function checkoutShell(site: Site, screen: string = determiningHtml(), count = 0): string {
  const brand = brandOf(site);
  return `<a class="skip-link" href="#main">${esc(t('site.skipToContent'))}</a>
${headerHtml(brand, 'basket', true, count)}
<div id="root"><main id="main" class="page">${screen}</main></div>
${footerHtml(brand)}`;
}

/** The html element's `lang` and `dir`: the language the page is written in, and its direction. */
export function htmlLangDir(): string {
  const locale = activeLocale();
  return `lang="${locale}" dir="${dirOf(locale)}"`;
}

/** Data for a page's script, safe inside a script element (no `<` can close it). */
export function jsonScript(id: string, data: unknown): string {
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script id="${id}" type="application/json">${json}</script>`;
}

/**
 * The header and footer are the checkout app's (ui/SiteHeader.tsx and SiteFooter.tsx); the header
 * shows `basketCount`, what the buyer's basket holds, drawn at first paint.
 */
export function page(site: Site, title: string, body: Html, current: SiteSection = null, basketCount = 0): string {
  const brand = brandOf(site);
  return `<!doctype html><html ${htmlLangDir()}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · ${esc(brand)}</title><meta name="description" content="${esc(t('page.metaDescription', { title, brand }))}"><style>${STYLE}</style></head><body>
<a class="skip-link" href="#main">${esc(t('site.skipToContent'))}</a>
${headerHtml(brand, current, false, basketCount)}
<main id="main" class="page catalogue">${body.value}</main>
${footerHtml(brand)}
</body></html>`;
}
