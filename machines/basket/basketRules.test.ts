import { describe, expect, it } from 'vitest';
import { makeCheckout, makeTicketLine } from '../testing/checkoutFixture';
import { basketCount, basketRules } from '../../contract/basketRules.ts';
import { viewBasket } from './basket.connect';
import type { CheckoutEvent as EventLine, GiftVoucherLine } from '../../contract';

const idle = viewBasket(undefined);
const voucher: GiftVoucherLine = {
  id: 7,
  name: 'Gift voucher',
  qty: 2,
  value: 2500,
  o_name: 'Holdfast Live',
  o_url: '/organisers/holdfast-live/',
  uk_expiry_date: '01/01/2027',
  thumbnail: '',
};
const event = (id: number, warning: string | null): EventLine => ({
  id,
  title: `Event ${id}`,
  refund_protection: true,
  warn_customers_about_different_timeslots_message: warning,
  ga: null,
  ga_conversion_id: null,
  fb_pixel: null,
  venue: null,
  has_livestream: false,
  access_online: null,
  reward_referrers: null,
  shareable_link: '',
  questions_intro: null,
});

describe('basketRules (spec 000 §5 Basket)', () => {
  it('counts tickets and gift vouchers, and allows reserving a filled, settled basket', () => {
    const checkout = makeCheckout({ tickets: [makeTicketLine({ qty: 3 })], gift_vouchers: [voucher] });
    expect(basketRules(checkout, idle, false)).toMatchObject({ itemCount: 5, canReserve: true, requiredMessage: null });
  });

  it('shows no login hint when no required ticket is missing, and reads a basket with no pending quantities', () => {
    const checkout = makeCheckout({ tickets: [makeTicketLine({ qty: 3 })] });
    expect(basketRules(checkout, { isUpdating: false, minimumBlocked: false }, false)).toMatchObject({
      showLoginHint: false,
      belowMinimum: false,
      canReserve: true,
    });
  });

  it('does not allow reserving an empty basket', () => {
    expect(basketRules(makeCheckout(), idle, true)).toMatchObject({ itemCount: 0, canReserve: false });
  });

  it('lists the missing required tickets, with the login hint only for anonymous visitors', () => {
    const checkout = makeCheckout({
      tickets: [
        makeTicketLine({
          ticket_id: 1,
          required_tickets: [
            { ids: [2, 3], title: 'Camping pass' },
            { ids: [1], title: 'Itself' },
          ],
        }),
      ],
    });
    const anonymous = basketRules(checkout, idle, false);
    expect(anonymous).toMatchObject({
      missingRequiredTitles: ['Camping pass'],
      requiredMessage: 'You must also purchase the following tickets to continue the checkout.',
      showLoginHint: true,
      canReserve: false,
    });
    expect(basketRules(checkout, idle, true).showLoginHint).toBe(false);
  });

  it('is satisfied by any one ticket of a required group', () => {
    const checkout = makeCheckout({
      tickets: [
        makeTicketLine({ ticket_id: 1, required_tickets: [{ ids: [2, 3], title: 'Camping pass' }] }),
        makeTicketLine({ ticket_id: 3 }),
      ],
    });
    expect(basketRules(checkout, idle, false)).toMatchObject({ missingRequiredTitles: [], canReserve: true });
  });

  it('warns about different timeslots of one event only when the event has a message', () => {
    const checkout = makeCheckout({
      events: [event(1, 'Your tickets are for different times'), event(2, null), event(3, 'Never shown')],
      tickets: [
        makeTicketLine({ ticket_id: 1, event_id: 1, date_id: 10 }),
        makeTicketLine({ ticket_id: 2, event_id: 1, date_id: 11 }),
        makeTicketLine({ ticket_id: 3, event_id: 2, date_id: 20 }),
        makeTicketLine({ ticket_id: 4, event_id: 2, date_id: 21 }),
        makeTicketLine({ ticket_id: 5, event_id: 3, date_id: 30 }),
        makeTicketLine({ ticket_id: 6, event_id: 3, date_id: 30 }),
      ],
    });
    expect(basketRules(checkout, idle, true).timeslotWarnings).toEqual(['Your tickets are for different times']);
  });

  it('blocks reserving while updating, while changes wait to be sent, and while a minimum is not met', () => {
    const checkout = makeCheckout({ tickets: [makeTicketLine()] });
    expect(basketRules(checkout, { ...idle, isUpdating: true }, true).canReserve).toBe(false);
    expect(basketRules(checkout, { ...idle, hasUnsavedChanges: true }, true).canReserve).toBe(false);
    expect(basketRules(checkout, { ...idle, minimumBlocked: true }, true).canReserve).toBe(false);
  });
});

describe('the minimum per customer, however the line got below it (spec 000 §5)', () => {
  it('warns and blocks reserving for a line the server holds below its minimum', () => {
    const checkout = makeCheckout({ tickets: [makeTicketLine({ ticket_id: 4, qty: 1, min_per_customer: 2 })] });
    expect(basketRules(checkout, idle, true)).toMatchObject({
      lineWarnings: { 4: 'You must purchase a minimum of 2 tickets of this type' },
      belowMinimum: true,
      canReserve: false,
    });
  });

  it('judges the quantity the buyer chose, not the one the server still has', () => {
    const checkout = makeCheckout({ tickets: [makeTicketLine({ ticket_id: 4, qty: 1, min_per_customer: 2 })] });
    const raised = basketRules(checkout, { ...idle, pendingQty: { 4: 2 } }, true);
    expect(raised).toMatchObject({ lineWarnings: {}, belowMinimum: false });
    const enough = makeCheckout({ tickets: [makeTicketLine({ ticket_id: 4, qty: 3, min_per_customer: 2 })] });
    expect(basketRules(enough, idle, true)).toMatchObject({ lineWarnings: {}, belowMinimum: false, canReserve: true });
  });

  it('asks no minimum of a line without one, even brought down to none', () => {
    const checkout = makeCheckout({ tickets: [makeTicketLine({ ticket_id: 4, qty: 1, min_per_customer: 1 })] });
    expect(basketRules(checkout, { ...idle, pendingQty: { 4: 0 } }, true)).toMatchObject({
      lineWarnings: {},
      belowMinimum: false,
    });
  });

  it('keeps the basket’s own warning for a line (a capped quantity)', () => {
    const checkout = makeCheckout({ tickets: [makeTicketLine({ ticket_id: 4, qty: 1, min_per_customer: 2 })] });
    const warned = basketRules(
      checkout,
      { ...idle, lineWarnings: { 4: 'You can only reserve 6 tickets of this type' } },
      true,
    );
    expect(warned.lineWarnings).toEqual({ 4: 'You can only reserve 6 tickets of this type' });
    expect(warned.canReserve).toBe(false);
  });
});

describe('the site header’s count (spec 001 §9)', () => {
  it('is the tickets and gift vouchers the basket holds, and none without a checkout', () => {
    expect(basketCount(null)).toBe(0);
    expect(basketCount(undefined)).toBe(0);
    const checkout = makeCheckout({
      tickets: [makeTicketLine({ ticket_id: 4, qty: 2 }), makeTicketLine({ ticket_id: 5, qty: 3 })],
      gift_vouchers: [voucher, { ...voucher, id: 8, qty: 1 }],
    });
    expect(basketCount(checkout)).toBe(8);
    expect(basketCount(makeCheckout({ tickets: [], gift_vouchers: [] }))).toBe(0);
  });
});
