/** The basket's organisers as the checkout shows them, and what they may send the buyer. */
import type { Checkout, Organiser } from '../../../contract/index.ts';
import { formatNiceDate } from '../format.ts';
import type { BasketLine, CheckoutSnapshot, UpcomingDate } from './snapshot.ts';

type OrganiserRow = BasketLine['organiser'];

/** How many of an organiser's other upcoming events the checkout suggests. */
const UPCOMING_SHOWN = 4;

export function checkoutOrganisers(organisers: OrganiserRow[], upcoming: UpcomingDate[]): Organiser[] {
  return organisers.map((o) => ({
    id: o.id,
    name: o.name,
    full_url: `/organiser/${o.id}/`,
    has_custom_refund_policy: o.customRefundPolicy !== null,
    is_saas: o.isSaas,
    upcoming_events: upcoming
      .filter((u) => u.event.organiserId === o.id)
      .slice(0, UPCOMING_SHOWN)
      .map((u) => ({
        url: `/event/${u.event.id}/`,
        title: u.event.title,
        location: `${u.event.venueName}, ${u.event.city}`,
        date: formatNiceDate(u.startsAt),
        thumbnail: u.event.thumbnail,
      })),
  }));
}

/** Keep updated is asked once, of a basket with tickets, until the buyer has answered it for this sale. */
export function asksMarketing({ sale, lines }: Pick<CheckoutSnapshot, 'sale' | 'lines'>): boolean {
  return lines.length > 0 && sale.marketingSetAt === null;
}

/**
 * Keep updated, with what the buyer already agreed to: the newsletters they are on and, for each
 * basket organiser, whether their latest choice was yes (`subscribedTo`).
 */
export function marketingPreferences(
  snapshot: Pick<CheckoutSnapshot, 'sale' | 'lines' | 'user'>,
  organisers: OrganiserRow[],
  subscribedTo: Set<number>,
): Checkout['marketing_preferences'] {
  if (!asksMarketing(snapshot)) return null;
  return {
    ct_subscribed: snapshot.user?.subscribed ?? false,
    event_subscribed: snapshot.user?.isEventSubscribed ?? false,
    basket_organisers: organisers.map((o) => ({
      id: o.id,
      organiser_subscribed: subscribedTo.has(o.id),
      marketing_signup_message: o.marketingSignupMessage,
    })),
  };
}
