/** The checkout's mapping from its snapshot's rows to the wire shape, without a database. */
import { describe, expect, it } from 'vitest';
import { basketOf } from './basket.ts';
import { checkInDate } from './events.ts';
import { afterSaleMessages } from './lines.ts';
import { paymentSettingsOf, providerFields } from './payment.ts';
import { snapshotOf, type SnapshotJson } from './snapshot.ts';
import { stepFields } from './step.ts';

const now = new Date('2026-07-01T12:00:00Z');
const inSeconds = (s: number) => new Date(now.getTime() + s * 1000);

/** The function's answer for a sale, each row given only the columns a test cares about. */
const snapshotJson = (over: Partial<SnapshotJson>): SnapshotJson => ({
  sale: { id: 'sale-1', state: 'basket', currency: null, refund_protection: false },
  lines: null,
  vouchers: null,
  code: null,
  user: null,
  upcoming: null,
  charities: null,
  postal_events: 0,
  questions: null,
  intros: null,
  seats: null,
  payment_settings: null,
  plans: null,
  ...over,
});

const organiser = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  name: `Organiser ${id}`,
  charity_id: null,
  payment_provider: null,
  ...over,
});
const ticketLine = (typeId: number, o: Record<string, unknown>, event: Record<string, unknown> = {}) =>
  [
    { id: typeId, qty: 1 },
    { id: typeId, price: 1000, booking_fee: 100, absorb_fee: false, offer_buy_n: null },
    { id: typeId * 10, starts_at: '2026-08-01T18:00:00+00:00' },
    { id: typeId * 100, organiser_id: o.id, refund_protection: true, currency: 'GBP', ...event },
    o,
  ] as [
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
    Record<string, unknown>,
  ];

describe('the checkout snapshot', () => {
  it('is nothing when the sale is gone', () => {
    expect(snapshotOf(snapshotJson({ sale: null }))).toBeNull();
  });

  it('reads rows as a Drizzle select returns them: property names, timestamps as dates, empty lists for none', () => {
    const snapshot = snapshotOf(
      snapshotJson({
        sale: {
          id: 'sale-1',
          state: 'payment',
          hold_deadline: '2026-07-01T12:10:00+00:00',
          paid_at: null,
          refund_protection: true,
        },
      }),
    )!;
    expect(snapshot.sale).toMatchObject({
      id: 'sale-1',
      state: 'payment',
      holdDeadline: inSeconds(600),
      paidAt: null,
      refundProtection: true,
    });
    expect(snapshot.lines).toEqual([]);
    expect(snapshot.charities).toEqual([]);
    expect(snapshot.postalEvents).toBe(0);
  });
});

describe('the basket the checkout shows', () => {
  it('lists each organiser once, those of the tickets before those of the vouchers, with the first charity among them', () => {
    const plain = organiser(1);
    const giving = organiser(2, {
      charity_id: 7,
      payment_provider: 'stripe',
      payment_merchant_id: 'acct_giving',
      payment_provider_overridden: true,
    });
    const snapshot = snapshotOf(
      snapshotJson({
        lines: [ticketLine(1, plain), ticketLine(2, giving), ticketLine(3, plain)],
        vouchers: [[{ id: 1, qty: 1, value: 2500 }, { id: 1, currency: 'GBP' }, organiser(3)]],
        charities: [{ id: 7, name: 'Lifeboats' }],
      }),
    )!;
    const basket = basketOf(snapshot);
    expect(basket.organisers.map((o) => o.id)).toEqual([1, 2, 3]);
    expect(basket.events.map((e) => e.id)).toEqual([100, 200, 300]);
    expect(basket.charity).toMatchObject({ id: 7, name: 'Lifeboats' });
    // The payment account is the first organiser with a provider's: its own account there, and whether the platform set it.
    expect(basket.paymentAccount).toEqual({ provider: 'stripe', merchantId: 'acct_giving', overridden: true });
    expect(providerFields(basket.paymentAccount)).toEqual({
      sagepay_or_stripe: 'stripe',
      opoa: { provider: 'stripe', merchant_id: 'acct_giving', overridden: true },
    });
    expect(providerFields(null)).toEqual({ sagepay_or_stripe: null, opoa: null });
    expect(basket.price.basketTotal).toBe(3 * 1100 + 2500);
  });

  it('is in the sale’s currency, else its first event’s, else its first voucher’s', () => {
    const line = ticketLine(1, organiser(1), { currency: 'EUR' });
    expect(basketOf(snapshotOf(snapshotJson({ lines: [line] }))!).currency).toBe('EUR');
    expect(basketOf(snapshotOf(snapshotJson({ sale: { id: 's', currency: 'USD' }, lines: [line] }))!).currency).toBe(
      'USD',
    );
    expect(
      basketOf(
        snapshotOf(
          snapshotJson({ vouchers: [[{ id: 1, qty: 1, value: 500 }, { id: 1, currency: 'CHF' }, organiser(1)]] }),
        )!,
      ).currency,
    ).toBe('CHF');
    expect(basketOf(snapshotOf(snapshotJson({}))!).currency).toBe('GBP');
  });
});

describe('the step a sale is on', () => {
  const sale = { state: 'payment', reference: 'HF-ABC', paidAt: null, holdDeadline: inSeconds(90) };

  it('counts down a live hold on the sale’s own step', () => {
    expect(stepFields(sale, null, now)).toEqual({
      state: 'payment',
      sale_reference: 'HF-ABC',
      seconds_remaining: 90,
      payment_in_progress: false,
      payment_seconds_remaining: 0,
      payment_complete: false,
    });
  });

  it('goes back to the basket when the hold lapsed, unless a payment in progress keeps it', () => {
    const lapsed = { ...sale, holdDeadline: inSeconds(-1) };
    expect(stepFields(lapsed, null, now)).toMatchObject({
      state: 'basket',
      sale_reference: null,
      seconds_remaining: 0,
    });
    expect(stepFields(lapsed, new Date(now.getTime() + 1), now)).toMatchObject({
      state: 'payment',
      sale_reference: 'HF-ABC',
      seconds_remaining: 0,
      payment_in_progress: true,
      // A kept hold never shows 0 seconds while it is kept.
      payment_seconds_remaining: 1,
    });
  });

  it('keeps a paid sale on its step with nothing left to run out', () => {
    expect(
      stepFields({ ...sale, state: 'complete', paidAt: now, holdDeadline: inSeconds(-600) }, null, now),
    ).toMatchObject({
      state: 'complete',
      sale_reference: 'HF-ABC',
      seconds_remaining: 0,
      payment_complete: true,
    });
  });
});

describe('the organisers’ payment settings', () => {
  const setting = (organiserId: number, expressCheckout: boolean, requirePhoneNumber = false) =>
    ({ organiserId, expressCheckout, requirePhoneNumber }) as Parameters<typeof paymentSettingsOf>[0][number];

  it('offers express checkout only to a visitor not signed in, and only when every organiser offers it', () => {
    expect(paymentSettingsOf([setting(1, true), setting(2, true)], 2, null).express).toBe(true);
    expect(paymentSettingsOf([setting(1, true), setting(2, true)], 2, 42).express).toBe(false);
    expect(paymentSettingsOf([setting(1, true)], 2, null).express).toBe(false);
    expect(paymentSettingsOf([], 0, null)).toEqual({ has_require_phone_number: false, express: false });
  });

  it('asks for a contact number when any organiser does', () => {
    expect(paymentSettingsOf([setting(1, false), setting(2, false, true)], 2, null).has_require_phone_number).toBe(
      true,
    );
  });
});

describe('a paid order’s after-sale messages', () => {
  const line = (dateId: number, startsAt: string, afterSaleMessage: string | null) => ({
    event: { id: 1, title: 'Lantern Walk', afterSaleMessage },
    date: { id: dateId, startsAt: new Date(startsAt) },
    organiser: { name: 'Night Walks' },
  });

  it('gives one message for each date whose event has one, with the day and time it starts in the UK', () => {
    const messages = afterSaleMessages([
      line(1, '2026-12-18T20:00:00Z', 'Bring a torch'),
      line(1, '2026-12-18T20:00:00Z', 'Bring a torch'),
      line(2, '2026-12-19T20:00:00Z', null),
    ] as Parameters<typeof afterSaleMessages>[0]);
    expect(messages).toEqual([
      {
        organiser_name: 'Night Walks',
        event_title: 'Lantern Walk',
        date: 'Fri, 18 Dec 2026',
        time: '8:00 pm',
        message: 'Bring a torch',
      },
    ]);
  });
});

describe('the accommodation map’s check-in', () => {
  it('is the UK day of the event’s first date in the basket, and empty for an event with none', () => {
    const lines = [
      { event: { id: 1 }, date: { startsAt: new Date('2026-08-02T10:00:00Z') } },
      // 23:30 UTC in summer is already the next day in the UK.
      { event: { id: 1 }, date: { startsAt: new Date('2026-07-31T23:30:00Z') } },
    ];
    expect(checkInDate(lines, 1)).toBe('2026-08-01');
    expect(checkInDate(lines, 2)).toBe('');
  });
});
