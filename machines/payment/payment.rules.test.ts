import { describe, expect, it } from 'vitest';
import { emptyCheckout } from '../../contract/emptyCheckout';
import type { Checkout } from '../../contract';
import { paymentProblems, paymentSituation } from './payment.rules';

const organiser = (id: number, name: string, is_saas = false) => ({
  id,
  name,
  full_url: '',
  has_custom_refund_policy: false,
  is_saas,
  upcoming_events: [],
});
const checkout = (over: Partial<Checkout>): Checkout => ({ ...emptyCheckout(null), ...over });

describe('payment rules (spec 001 §4, §5, §9)', () => {
  it('offers the card below 2000 in GBP, or in another currency; bank transfer when the provider is not Stripe', () => {
    const built = ['truelayer', 'stripe', 'instalment'] as const;
    expect(
      paymentSituation(checkout({ basket_total: 199_999, sagepay_or_stripe: 'stripe' }), null, built).offered,
    ).toEqual(['stripe']);
    expect(
      paymentSituation(checkout({ basket_total: 200_000, sagepay_or_stripe: 'stripe' }), null, built).offered,
    ).toEqual([]);
    expect(
      paymentSituation(
        checkout({ basket_total: 300_000, currency: { symbol: '€', code: 'EUR' }, sagepay_or_stripe: 'truelayer' }),
        null,
        built,
      ).offered,
    ).toEqual(['truelayer', 'stripe']);
    expect(
      paymentSituation(
        checkout({ basket_total: 100, currency: { symbol: '$', code: 'USD' }, sagepay_or_stripe: null }),
        null,
        built,
      ).offered,
    ).toEqual(['stripe']);
  });

  it('chooses the sole method unless there is a plan; only the methods this build takes are offered', () => {
    const plan = { '3': { label: 'Three payments', schedule: [] } };
    expect(paymentSituation(checkout({ basket_total: 100, sagepay_or_stripe: 'stripe' }), null).autoMethod).toBe(
      'stripe',
    );
    expect(
      paymentSituation(
        checkout({ basket_total: 100, sagepay_or_stripe: 'stripe', payment_plan_schedule_options: plan }),
        null,
        ['stripe', 'instalment'],
      ).autoMethod,
    ).toBe('none');
    // GBP with another provider offers bank transfer too, so nothing is chosen for the buyer.
    expect(paymentSituation(checkout({ basket_total: 100, sagepay_or_stripe: 'truelayer' }), null).offered).toEqual([
      'truelayer',
      'stripe',
    ]);
    expect(paymentSituation(checkout({ basket_total: 100, sagepay_or_stripe: 'truelayer' }), null).autoMethod).toBe(
      'none',
    );
    // Without the bank transfer (its payment could not be created) the card is the sole method again.
    expect(
      paymentSituation(checkout({ basket_total: 100, sagepay_or_stripe: 'truelayer' }), null, ['stripe']).autoMethod,
    ).toBe('stripe');
  });

  it('blocks a SaaS organiser without a provider, and names organisers without their own sign-up message', () => {
    const blocked = paymentSituation(checkout({ organisers: [organiser(1, 'Moonlight Screenings', true)] }), null);
    expect(blocked.blockedBy).toBe('Moonlight Screenings');
    const withProvider = paymentSituation(
      checkout({
        organisers: [organiser(1, 'Moonlight Screenings', true)],
        opoa: { provider: 'stripe', merchant_id: null, overridden: false },
      }),
      null,
    );
    expect(withProvider.blockedBy).toBeNull();
    const express = paymentSituation(
      checkout({
        organisers: [organiser(4, 'Docklands Food Festivals')],
        marketing_preferences: {
          ct_subscribed: false,
          event_subscribed: false,
          basket_organisers: [{ id: 4, organiser_subscribed: false, marketing_signup_message: '' }],
        },
      }),
      null,
    );
    expect(express.marketingOrganisers).toEqual([
      { id: 4, message: 'Hear about new events from Docklands Food Festivals' },
    ]);
  });

  it('checks the contact number with the spec’s pattern: optional +code, optional area in brackets, at least 9 digits', () => {
    const form = {
      fullName: '',
      email: '',
      organisers: {},
      newsletter: false,
      plan: { option: null, card: null, makeDefault: true },
    };
    const s = { express: false, phoneRequired: true, offered: ['stripe' as const] };
    const phone = (contactNumber: string) =>
      paymentProblems({ ...form, contactNumber }, s, 'stripe').contactNumber ?? null;
    for (const ok of ['07700 900123', '+44 7700 900123', '+44 (0)1285 555 0100', '020.7946.0018', '020-7946-0018'])
      expect(phone(ok)).toBeNull();
    for (const bad of ['', '12ab', '0770 090', '+44 (0) 12 34', 'phone 07700900123'])
      expect(phone(bad)).toBe('Type a valid phone number');
  });

  it('pays a plan only with an offered option (never 1), a valid phone, even where the organiser asks for none, and a card (spec 001 §5)', () => {
    const form = { fullName: '', email: '', contactNumber: '', organisers: {}, newsletter: false };
    const s = {
      express: false,
      phoneRequired: false,
      offered: ['stripe' as const, 'instalment' as const],
      planOptions: ['2', '3'],
    };
    const problems = (plan: { option: string | null; card: string | null }, contactNumber = '07700 900123') =>
      paymentProblems({ ...form, contactNumber, plan: { ...plan, makeDefault: true } }, s, 'instalment');
    expect(problems({ option: '2', card: 'new' })).toEqual({});
    expect(problems({ option: '3', card: 'pm_1' })).toEqual({});
    expect(problems({ option: null, card: 'new' })).toEqual({ planOption: 'Choose a payment plan' });
    expect(problems({ option: '1', card: 'new' })).toEqual({ planOption: 'Choose a payment plan' });
    expect(problems({ option: '2', card: null })).toEqual({ planCard: 'Choose a card for your payments' });
    expect(problems({ option: '2', card: 'new' }, '')).toEqual({ contactNumber: 'Type a valid phone number' });
    // The card method does not ask for the plan's fields.
    expect(paymentProblems({ ...form, plan: { option: null, card: null, makeDefault: true } }, s, 'stripe')).toEqual(
      {},
    );
  });

  it('reads the sale: free at a zero total, the guest e-mail, the plan options; the build takes every method', () => {
    const plan = { '1': { label: 'In full', schedule: [] }, '3': { label: 'Three payments', schedule: [] } };
    expect(paymentSituation(checkout({ basket_total: 0 }), null).free).toBe(true);
    expect(paymentSituation(checkout({ basket_total: 1 }), null).free).toBe(false);
    expect(paymentSituation(checkout({ init_guest_email: null }), null).email).toBe('');
    expect(paymentSituation(checkout({ init_guest_email: 'ada@example.com' }), null).email).toBe('ada@example.com');
    expect(paymentSituation(checkout({ payment_plan_schedule_options: plan }), null).planOptions).toEqual(['3']);
    // With the methods this build takes: GBP with a provider other than Stripe offers the bank, the card and a plan.
    expect(
      paymentSituation(
        checkout({ basket_total: 100, sagepay_or_stripe: 'truelayer', payment_plan_schedule_options: plan }),
        null,
      ).offered,
    ).toEqual(['truelayer', 'stripe', 'instalment']);
    expect(paymentSituation(checkout({ basket_total: 100, sagepay_or_stripe: 'square' }), null).offered).toEqual([
      'truelayer',
      'square',
    ]);
  });

  it('names an organiser it cannot find as the organiser', () => {
    const situation = paymentSituation(
      checkout({
        organisers: [],
        marketing_preferences: {
          ct_subscribed: false,
          event_subscribed: false,
          basket_organisers: [{ id: 9, organiser_subscribed: false, marketing_signup_message: '' }],
        },
      }),
      null,
    );
    expect(situation.marketingOrganisers).toEqual([{ id: 9, message: 'Hear about new events from the organiser' }]);
  });

  it('leaves the billing address to the address form, ignores a blank phone when none is required, and wants an offered method', () => {
    const form = {
      fullName: '',
      email: '',
      contactNumber: '   ',
      organisers: {},
      newsletter: false,
      plan: { option: null, card: null, makeDefault: true },
    };
    const s = { express: false, phoneRequired: false, offered: ['stripe' as const] };
    const withPostcode = form;
    expect(paymentProblems(withPostcode, s, 'none')).toEqual({ method: 'Choose how you would like to pay' });
    expect(paymentProblems(withPostcode, s, 'truelayer')).toEqual({ method: 'Choose how you would like to pay' });
    expect(paymentProblems(withPostcode, s, 'stripe')).toEqual({});
  });
});
