/** Plain server-rendered pages: one inline stylesheet (the app's design files), no external assets. */
import { readFileSync } from 'node:fs';
import type { Config } from '../config.ts';

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
    const rendered = Array.isArray(v) ? v.map((x) => (x instanceof Html ? x.value : esc(x))).join('') : v instanceof Html ? v.value : v === null || v === undefined || v === false ? '' : esc(v);
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

/** The few icons the pages draw, the same paths as the app's Icon component. */
const ICONS = {
  basket: 'M5 8h14l-1.5 11h-11L5 8Zm4 0V6a3 3 0 0 1 6 0v2',
  minus: 'M5 12h14',
  plus: 'M12 5v14M5 12h14',
  lock: 'M6 11h12v10H6zm2 0V7a4 4 0 0 1 8 0v4',
} as const;

export function icon(name: keyof typeof ICONS): Html {
  return new Html(
    `<svg class="icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><path d="${ICONS[name]}"/></svg>`,
  );
}

type Section = 'events' | 'basket' | null;

/** The 'Determining checkout progress' screen (src/steps/determining/DeterminingStep.tsx), class for class. */
const DETERMINING_SCREEN = `<section class="step step--centred" data-step="determining" aria-busy="true"><h1 class="step__title">Determining checkout progress</h1><span class="spinner spinner--large"><svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="10" fill="none" stroke-width="3" class="spinner__track"/><path d="M12 2a10 10 0 0 1 10 10" fill="none" stroke-width="3" stroke-linecap="round" class="spinner__arc"/></svg></span></section>`;

/**
 * The checkout page before its script runs: the app's header, its first screen and footer, class
 * for class (src/App.tsx), so the page paints at once and the app replaces it with the same picture.
 * The first screen is 'Determining checkout progress' unless the page knows it (the basket).
 */
export function checkoutShell(site: Site, screen: string = DETERMINING_SCREEN): string {
  const brand = brandOf(site);
  return `<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><div class="site-header__inner">
<a class="brand" href="/all-events/"><svg class="brand__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="9" fill="currentColor"/><path d="M10 9v14M22 9v14M10 16h12" stroke="#fff" stroke-width="3.2" stroke-linecap="round"/></svg><span class="brand__name">${esc(brand)}</span></a>
<nav class="site-header__nav" aria-label="Site"><a href="/all-events/">All events</a><a href="/checkout/" aria-current="page">${icon('basket').value}Basket</a></nav>
<span class="site-header__secure">${icon('lock').value}<span>Secure checkout</span></span>
</div></header>
<main id="main" class="page">${screen}</main>
${footer(site)}`;
}

/** The footer links the sign-in page: a one-time code e-mailed to the buyer (and, in demo mode, the demo accounts). */
function footer(site: Site): string {
  return `<footer class="site-footer"><div class="site-footer__inner">
<nav class="site-footer__nav" aria-label="Policies and more"><a href="/refund-policy/">Refund policy</a><a href="/legal-information/purchase-terms-and-conditions/">Purchase terms</a><a href="/mailing-list">Mailing list</a><a href="/signin/">Sign in</a></nav>
<p class="site-footer__note">${esc(brandOf(site))} · tickets held while you pay</p>
</div></footer>`;
}

/** Data for a page's script, safe inside a script element (no `<` can close it). */
export function jsonScript(id: string, data: unknown): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<script id="${id}" type="application/json">${json}</script>`;
}

/** The header and footer are the checkout app's (src/app/Header.tsx and Footer.tsx), class for class. */
export function page(site: Site, title: string, body: Html, current: Section = null): string {
  const brand = brandOf(site);
  const here = (section: Section) => (section === current ? ' aria-current="page"' : '');
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · ${esc(brand)}</title><meta name="description" content="${esc(`${title} · tickets from ${brand}`)}"><style>${STYLE}</style></head><body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><div class="site-header__inner">
<a class="brand" href="/all-events/"><svg class="brand__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="9" fill="currentColor"/><path d="M10 9v14M22 9v14M10 16h12" stroke="#fff" stroke-width="3.2" stroke-linecap="round"/></svg><span class="brand__name">${esc(brand)}</span></a>
<nav class="site-header__nav" aria-label="Site"><a href="/all-events/"${here('events')}>All events</a><a href="/checkout/"${here('basket')}>${icon('basket').value}Basket</a></nav>
</div></header>
<main id="main" class="page catalogue">${body.value}</main>
${footer(site)}
</body></html>`;
}
