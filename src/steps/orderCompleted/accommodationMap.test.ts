import { describe, expect, it } from 'vitest';
import { makeCheckout } from '../../../machines/testing/checkoutFixture';
import { accommodationMapUrl, stayFor } from './accommodationMap';

const STAY22 = { url: 'https://www.stay22.com/embed/gm', affiliateId: 'holdfast' };

describe('the accommodation map frame', () => {
  it("carries the spec's parameters: affiliate id, address, check-in, adults, colour, no brand logo, no navigation bar", () => {
    const url = new URL(
      accommodationMapUrl(STAY22, {
        address: 'Canons Way, Bristol BS1 5UH',
        checkin: '2026-07-16',
        adults: 3,
        colour: '#0F766E',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://www.stay22.com/embed/gm');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      aid: 'holdfast',
      address: 'Canons Way, Bristol BS1 5UH',
      checkin: '2026-07-16',
      adults: '3',
      maincolor: '0f766e',
      hidebrandlogo: 'true',
      hidenavbar: 'true',
    });
  });

  it('encodes the address, leaves out a check-in it cannot read, and asks for at least one adult', () => {
    const href = accommodationMapUrl(
      { url: 'https://maps.example.org/embed', affiliateId: 'fest' },
      { address: 'Quay & Co, 1 Rue #2', checkin: 'Ashcombe Estate', adults: 0, colour: '#123456' },
    );
    const url = new URL(href);
    expect(href).toContain('address=Quay+%26+Co%2C+1+Rue+%232');
    expect(url.searchParams.get('address')).toBe('Quay & Co, 1 Rue #2');
    expect(url.searchParams.has('checkin')).toBe(false);
    expect(url.searchParams.get('adults')).toBe('1');
  });

  it("counts adults as the tickets bought for that event only, at that event's venue and date", () => {
    const base = makeCheckout();
    const ticket = base.tickets[0]!;
    const event = {
      ...base.events[0]!,
      id: 7,
      venue: {
        full_address: 'Harbourside, Canons Way',
        map_address: 'Canons Way, Bristol BS1 5UH',
        map_checkin: '2026-07-16',
      },
    };
    const other = { ...event, id: 8, venue: null };
    const checkout = {
      events: [event, other],
      tickets: [
        { ...ticket, event_id: 7, qty: 2 },
        { ...ticket, ticket_id: 99, event_id: 7, qty: 1 },
        { ...ticket, ticket_id: 98, event_id: 8, qty: 4 },
      ],
    };
    expect(stayFor(checkout, 7, '#0f766e')).toEqual({
      address: 'Canons Way, Bristol BS1 5UH',
      checkin: '2026-07-16',
      adults: 3,
      colour: '#0f766e',
    });
    expect(stayFor(checkout, 8, '#0f766e')).toBeNull();
  });
});
