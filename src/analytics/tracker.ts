/**
 * Analytics (spec 001 §4, §7): the basket organisers' Google Analytics (`ga`), Google Ads
 * conversion (`ga_conversion_id`), Meta pixel (`fb_pixel`) and Universal Analytics properties
 * (`ga_ua_properties`). Google's tag and Meta's pixel are loaded only after the buyer accepts
 * analytics cookies, from the addresses the page names (meta tags; demo mode's stand-in by default).
 * Each checkout state is a page view; completing the order sends the purchase (Analytics and Meta)
 * and the sale (the Ads conversion).
 */
import type { Checkout, Step } from '../../contract';
import { unique, type AnalyticsSettings } from './settings';

export { analyticsSettings, hasAnalytics, type AnalyticsSettings } from './settings';

type Command = unknown[];
interface AnalyticsWindow extends Window {
  dataLayer?: unknown[];
  gtag?: (...args: unknown[]) => void;
  fbq?: ((...args: unknown[]) => void) & {
    queue?: unknown[];
    callMethod?: (...args: unknown[]) => void;
    loaded?: boolean;
    version?: string;
    push?: unknown;
  };
  _fbq?: unknown;
}

function metaContent(doc: Document, name: string): string | null {
  return doc.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content || null;
}

function loadScript(doc: Document, src: string): void {
  if ([...doc.scripts].some((s) => s.src === new URL(src, doc.baseURI).href)) return;
  const script = doc.createElement('script');
  script.async = true;
  script.src = src;
  doc.head.appendChild(script);
}

/** The tag and the pixel, set up once per destination; only ever called after consent. */
export class Tracker {
  private readonly configured = new Set<string>();
  constructor(
    private readonly win: AnalyticsWindow = window,
    private readonly doc: Document = document,
  ) {}

  private gtag(...command: Command): void {
    this.win.gtag?.(...command);
  }

  private fbq(...command: Command): void {
    this.win.fbq?.(...command);
  }

  /** Loads what the settings need and configures each new destination. */
  start(settings: AnalyticsSettings): void {
    const tagUrl = metaContent(this.doc, 'analytics-tag-url');
    const pixelUrl = metaContent(this.doc, 'analytics-pixel-url');
    const destinations = [...settings.google, ...settings.conversions.map((c) => c.split('/')[0]!)];
    if (tagUrl && destinations.length > 0) {
      if (!this.win.gtag) {
        this.win.dataLayer = this.win.dataLayer ?? [];
        const layer = this.win.dataLayer;
        // As Google's snippet: the tag reads `arguments` objects from the data layer.
        this.win.gtag = function gtag() {
          // eslint-disable-next-line prefer-rest-params
          layer.push(arguments);
        };
        this.gtag('js', new Date());
        loadScript(this.doc, `${tagUrl}?id=${encodeURIComponent(destinations[0]!)}`);
      }
      for (const id of unique(destinations)) {
        if (this.configured.has(id)) continue;
        this.configured.add(id);
        this.gtag('config', id, { send_page_view: false });
      }
    }
    if (pixelUrl && settings.pixels.length > 0) {
      if (!this.win.fbq) {
        // As Meta's snippet: calls queue until the pixel's script takes them.
        const fbq = ((...args: unknown[]) => {
          if (fbq.callMethod) fbq.callMethod(...args);
          else fbq.queue!.push(args);
        }) as NonNullable<AnalyticsWindow['fbq']>;
        Object.assign(fbq, { queue: [], loaded: true, version: '2.0' });
        this.win.fbq = fbq;
        this.win._fbq = fbq;
        loadScript(this.doc, pixelUrl);
      }
      for (const id of settings.pixels) {
        if (this.configured.has(`pixel:${id}`)) continue;
        this.configured.add(`pixel:${id}`);
        this.fbq('init', id);
      }
    }
  }

  /** A checkout state, as a page view. */
  pageView(step: Step, settings: AnalyticsSettings): void {
    const location = new URL(`/checkout/${step}/`, this.win.location.href).href;
    if (settings.google.length > 0)
      this.gtag('event', 'page_view', { send_to: settings.google, page_title: step, page_location: location });
    if (settings.pixels.length > 0) this.fbq('track', 'PageView');
  }

  /** The completed order: Analytics' purchase, the Ads conversion (the sale) and Meta's Purchase. */
  purchase(checkout: Checkout, settings: AnalyticsSettings): void {
    const value = checkout.basket_total / 100;
    const currency = checkout.currency.code;
    if (settings.google.length > 0) {
      this.gtag('event', 'purchase', {
        send_to: settings.google,
        transaction_id: checkout.sale_reference,
        value,
        currency,
        items: checkout.tickets.map((t) => ({
          item_id: String(t.ticket_id),
          item_name: `${t.event_name} - ${t.ticket_name}`,
          price: t.price / 100,
          quantity: t.qty,
        })),
      });
    }
    for (const conversion of settings.conversions) {
      this.gtag('event', 'conversion', {
        send_to: conversion,
        transaction_id: checkout.sale_reference,
        value,
        currency,
      });
    }
    if (settings.pixels.length > 0) this.fbq('track', 'Purchase', { value, currency });
  }
}
