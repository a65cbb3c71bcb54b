/**
 * Which analytics the basket's organisers use (spec 001 §4, §7), read from the checkout: small
 * enough for the first screen, which asks for consent only when there is something to consent to.
 * The tag and the pixel themselves (tracker.ts) load only after consent.
 */
import type { Checkout } from '../../contract';

export interface AnalyticsSettings {
  /** Google Analytics measurement ids and Universal Analytics properties: the tag's destinations. */
  google: string[];
  /** Google Ads conversions (`AW-…/label`). */
  conversions: string[];
  pixels: string[];
}

/** Each non-blank id once. */
export const unique = (list: (string | null | undefined)[]) => [
  ...new Set(list.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim())),
];

export function analyticsSettings(
  checkout: Pick<Checkout, 'events' | 'ga_ua_properties'> | null | undefined,
): AnalyticsSettings {
  const events = checkout?.events ?? [];
  return {
    google: unique([...events.map((e) => e.ga), ...(checkout?.ga_ua_properties ?? [])]),
    conversions: unique(events.map((e) => e.ga_conversion_id)),
    pixels: unique(events.map((e) => e.fb_pixel)),
  };
}

export function hasAnalytics(settings: AnalyticsSettings): boolean {
  return settings.google.length + settings.conversions.length + settings.pixels.length > 0;
}
