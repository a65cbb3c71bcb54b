/**
 * The accommodation map's frame address (spec 001 §7: an accommodation-map embed with the affiliate
 * id, the address, the check-in, adults = the tickets bought for that event, colours, and the
 * provider's brand logo and navigation bar hidden). The shape is Stay22's map embed
 * (`/embed/gm?aid=…&address=…`); the base URL and affiliate id are the site's configuration.
 */
import type { Checkout } from '../../../contract';

export interface AccommodationMapConfig {
  url: string;
  affiliateId: string;
}

export interface AccommodationStay {
  /** Where to centre the map: the venue's address. */
  address: string;
  /** YYYY-MM-DD, or empty when unknown. */
  checkin: string;
  adults: number;
  /** The map's main colour, #rrggbb. */
  colour: string;
}

export function accommodationMapUrl(config: AccommodationMapConfig, stay: AccommodationStay): string {
  const url = new URL(config.url);
  url.searchParams.set('aid', config.affiliateId);
  url.searchParams.set('address', stay.address);
  if (/^\d{4}-\d{2}-\d{2}$/.test(stay.checkin)) url.searchParams.set('checkin', stay.checkin);
  url.searchParams.set('adults', String(Math.max(1, Math.floor(stay.adults))));
  url.searchParams.set('maincolor', stay.colour.replace(/^#/, '').toLowerCase());
  url.searchParams.set('hidebrandlogo', 'true');
  url.searchParams.set('hidenavbar', 'true');
  return url.href;
}

/** The stay for one event of the order: its venue, its first date, the tickets bought for it. */
export function stayFor(
  checkout: Pick<Checkout, 'events' | 'tickets'>,
  eventId: number,
  colour: string,
): AccommodationStay | null {
  const event = checkout.events.find((e) => e.id === eventId);
  if (!event?.venue) return null;
  const adults = checkout.tickets.filter((t) => t.event_id === eventId).reduce((sum, t) => sum + t.qty, 0);
  return { address: event.venue.map_address, checkin: event.venue.map_checkin, adults, colour };
}
