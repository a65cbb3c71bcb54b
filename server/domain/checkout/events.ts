/** The basket's events as the checkout shows them. */
import type { CheckoutEvent } from '../../../contract/index.ts';
import type { BasketLine } from './snapshot.ts';

export function checkoutEvents(
  events: BasketLine['event'][],
  lines: Pick<BasketLine, 'event' | 'date' | 'organiser'>[],
  questionsIntroOf: (eventId: number) => string | null,
): CheckoutEvent[] {
  // An event's analytics are its organiser's.
  const organiserOf = (eventId: number) => lines.find((l) => l.event.id === eventId)?.organiser;
  return events.map((e) => ({
    id: e.id,
    title: e.title,
    refund_protection: e.refundProtection,
    warn_customers_about_different_timeslots_message: e.timeslotWarning,
    ga: organiserOf(e.id)?.gaMeasurementId ?? null,
    ga_conversion_id: organiserOf(e.id)?.gaConversionId ?? null,
    fb_pixel: organiserOf(e.id)?.fbPixelId ?? null,
    venue: {
      full_address: `${e.venueName}, ${e.venueAddress}`,
      map_address: e.venueAddress,
      map_checkin: checkInDate(lines, e.id),
    },
    has_livestream: e.accessOnline !== null,
    access_online: e.accessOnline,
    reward_referrers:
      e.rewardText !== null && e.rewardShortText !== null
        ? { text: e.rewardText, short_text: e.rewardShortText }
        : null,
    shareable_link: `/event/${e.id}/`,
    questions_intro: questionsIntroOf(e.id),
  }));
}

const ukDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The accommodation map's check-in: the day (YYYY-MM-DD, UK time) of the event's first date in the basket. */
export function checkInDate(lines: { event: { id: number }; date: { startsAt: Date } }[], eventId: number): string {
  const first = Math.min(...lines.filter((l) => l.event.id === eventId).map((l) => l.date.startsAt.getTime()));
  return Number.isFinite(first) ? ukDate.format(new Date(first)) : '';
}
