import { describe, expect, it } from 'vitest';
import type { Checkout } from '../../contract/checkout';
import { inSpec, SPEC_STEPS } from '../../contract/specSteps';
import { afterSaleMessage, charity, makeCheckout, pendingMarketing, question } from '../testing/checkoutFixture';
import { FLOW, stepsAfter, type Step } from '../../contract/steps';
import { nextStep as productNextStep } from './nextStep';

/**
 * The next step the spec's rules speak of: the product's, passing through the product's own steps
 * (rows of the step table the spec does not name; they are checked on their own below).
 */
function nextStep(from: Step, checkout: Checkout): Step {
  let step = productNextStep(from, checkout);
  for (let i = 0; i < FLOW.length && !inSpec(step); i++) step = productNextStep(step, checkout);
  return step;
}

describe('nextStep: spec 000 §4 step order', () => {
  it('basket goes to reserve', () => {
    expect(nextStep('basket', makeCheckout())).toBe('reserve');
  });

  for (const from of ['reserve', 'captcha'] as const) {
    it(`${from} goes to donation when the events have a charity (even for an express buyer)`, () => {
      expect(nextStep(from, makeCheckout({ charity, express: true }))).toBe('donation');
    });
    it(`${from} goes to payment for an express buyer without a charity`, () => {
      expect(nextStep(from, makeCheckout({ express: true }))).toBe('payment');
    });
    it(`${from} goes to login otherwise`, () => {
      expect(nextStep(from, makeCheckout())).toBe('login');
    });
  }

  it('donation goes to gift_aid when a donation amount is set', () => {
    expect(nextStep('donation', makeCheckout({ charity, donation_amount: 500 }))).toBe('gift_aid');
  });
  it('donation goes to login when no donation amount is set (skipped)', () => {
    expect(nextStep('donation', makeCheckout({ charity, donation_amount: 0 }))).toBe('login');
  });
  it('gift_aid goes to login', () => {
    expect(nextStep('gift_aid', makeCheckout({ donation_amount: 500 }))).toBe('login');
  });

  it('login goes to marketing_preferences when they are pending', () => {
    expect(
      nextStep('login', makeCheckout({ marketing_preferences: pendingMarketing, require_delivery_address: true })),
    ).toBe('marketing_preferences');
  });
  it('login goes to delivery_address when none are pending and an address is required', () => {
    expect(
      nextStep('login', makeCheckout({ require_delivery_address: true, before_payment_questions: [question] })),
    ).toBe('delivery_address');
  });
  it('login goes to ticket_questions_before when there are before-payment questions', () => {
    expect(nextStep('login', makeCheckout({ before_payment_questions: [question] }))).toBe('ticket_questions_before');
  });
  it('login goes to payment otherwise', () => {
    expect(nextStep('login', makeCheckout())).toBe('payment');
  });

  it('marketing_preferences goes to delivery_address when required', () => {
    expect(nextStep('marketing_preferences', makeCheckout({ require_delivery_address: true }))).toBe(
      'delivery_address',
    );
  });
  it('marketing_preferences goes to ticket_questions_before when there are questions', () => {
    expect(nextStep('marketing_preferences', makeCheckout({ before_payment_questions: [question] }))).toBe(
      'ticket_questions_before',
    );
  });
  it('marketing_preferences goes to payment otherwise', () => {
    expect(nextStep('marketing_preferences', makeCheckout())).toBe('payment');
  });

  it('delivery_address goes to ticket_questions_before when there are questions', () => {
    expect(nextStep('delivery_address', makeCheckout({ before_payment_questions: [question] }))).toBe(
      'ticket_questions_before',
    );
  });
  it('delivery_address goes to payment otherwise', () => {
    expect(nextStep('delivery_address', makeCheckout({ require_delivery_address: true }))).toBe('payment');
  });
});

describe('nextStep: spec 001 §4 next-step rules', () => {
  it('ticket_questions_before goes to payment', () => {
    expect(nextStep('ticket_questions_before', makeCheckout({ before_payment_questions: [question] }))).toBe('payment');
  });
  it('payment goes to deliver_tickets', () => {
    expect(nextStep('payment', makeCheckout())).toBe('deliver_tickets');
  });
  it('awaiting_truelayer goes to deliver_tickets', () => {
    expect(nextStep('awaiting_truelayer', makeCheckout())).toBe('deliver_tickets');
  });

  it('deliver_tickets goes to ticket_questions_after when there are after-payment questions', () => {
    expect(nextStep('deliver_tickets', makeCheckout({ after_payment_questions: [question], has_waivers: true }))).toBe(
      'ticket_questions_after',
    );
  });
  it('deliver_tickets goes to waiver when waivers apply', () => {
    expect(
      nextStep('deliver_tickets', makeCheckout({ has_waivers: true, after_sale_messages: [afterSaleMessage] })),
    ).toBe('waiver');
  });
  it('deliver_tickets goes to after_sale_messages when there are any', () => {
    expect(nextStep('deliver_tickets', makeCheckout({ after_sale_messages: [afterSaleMessage] }))).toBe(
      'after_sale_messages',
    );
  });
  it('deliver_tickets goes to order_completed otherwise', () => {
    expect(nextStep('deliver_tickets', makeCheckout())).toBe('order_completed');
  });

  it('ticket_questions_after goes to waiver when waivers apply', () => {
    expect(nextStep('ticket_questions_after', makeCheckout({ has_waivers: true }))).toBe('waiver');
  });
  it('ticket_questions_after goes to after_sale_messages when there are any', () => {
    expect(nextStep('ticket_questions_after', makeCheckout({ after_sale_messages: [afterSaleMessage] }))).toBe(
      'after_sale_messages',
    );
  });
  it('ticket_questions_after goes to order_completed otherwise', () => {
    expect(nextStep('ticket_questions_after', makeCheckout())).toBe('order_completed');
  });

  it('waiver goes to after_sale_messages when there are any', () => {
    expect(nextStep('waiver', makeCheckout({ has_waivers: true, after_sale_messages: [afterSaleMessage] }))).toBe(
      'after_sale_messages',
    );
  });
  it('waiver goes to order_completed otherwise', () => {
    expect(nextStep('waiver', makeCheckout({ has_waivers: true }))).toBe('order_completed');
  });
  it('after_sale_messages goes to order_completed', () => {
    expect(nextStep('after_sale_messages', makeCheckout({ after_sale_messages: [afterSaleMessage] }))).toBe(
      'order_completed',
    );
  });
});

describe('determining', () => {
  it('resumes at the step the server remembers', () => {
    expect(nextStep('determining', makeCheckout({ state: 'payment' }))).toBe('payment');
  });
  it('starts at the basket when the server has no step yet', () => {
    expect(nextStep('determining', makeCheckout({ state: 'determining' }))).toBe('basket');
  });
});

/**
 * Every step each rule can lead to, read off spec 000 §4 and 001 §4 as lists: for every combination
 * of the fields the rules decide on, `nextStep` lands in its list and reaches every entry of it.
 */
const TARGETS: Partial<Record<Step, readonly Step[]>> = {
  basket: ['reserve'],
  reserve: ['donation', 'payment', 'login'],
  captcha: ['donation', 'payment', 'login'],
  login: ['marketing_preferences', 'delivery_address', 'ticket_questions_before', 'payment'],
  marketing_preferences: ['delivery_address', 'ticket_questions_before', 'payment'],
  donation: ['gift_aid', 'login'],
  gift_aid: ['login'],
  delivery_address: ['ticket_questions_before', 'payment'],
  ticket_questions_before: ['payment'],
  payment: ['deliver_tickets'],
  awaiting_truelayer: ['deliver_tickets'],
  deliver_tickets: ['ticket_questions_after', 'waiver', 'after_sale_messages', 'order_completed'],
  ticket_questions_after: ['waiver', 'after_sale_messages', 'order_completed'],
  waiver: ['after_sale_messages', 'order_completed'],
  after_sale_messages: ['order_completed'],
  order_completed: ['order_completed'],
};

/** A checkout for every combination of the fields the rules decide on. */
function everyCheckout(): Checkout[] {
  const all: Checkout[] = [];
  const flags = [false, true];
  for (const hasCharity of flags)
    for (const express of flags)
      for (const donated of flags)
        for (const marketing of flags)
          for (const address of flags)
            for (const before of flags)
              for (const after of flags)
                for (const waivers of flags)
                  for (const messages of flags) {
                    all.push(
                      makeCheckout({
                        charity: hasCharity ? charity : null,
                        express,
                        donation_amount: donated ? 500 : 0,
                        marketing_preferences: marketing ? pendingMarketing : null,
                        require_delivery_address: address,
                        before_payment_questions: before ? [question] : [],
                        after_payment_questions: after ? [question] : [],
                        has_waivers: waivers,
                        after_sale_messages: messages ? [afterSaleMessage] : [],
                      }),
                    );
                  }
  return all;
}

describe('every rule, for every combination of the deciding fields', () => {
  it('leads to exactly the steps the spec names for it', () => {
    const checkouts = everyCheckout();
    for (const from of Object.keys(TARGETS) as Step[]) {
      const seen = new Set(checkouts.map((checkout) => nextStep(from, checkout)));
      expect([...seen].sort(), from).toEqual([...TARGETS[from]!].sort());
    }
  });

  it('covers every step of the spec but determining, which resumes where the server says', () => {
    expect(Object.keys(TARGETS).sort()).toEqual(SPEC_STEPS.filter((step) => step !== 'determining').sort());
  });
});

describe('the product’s own steps (rows of the step table the spec does not name)', () => {
  const applies = (step: Step, checkout: Checkout) =>
    FLOW.find((row) => row.step === step)?.appliesWhen?.(checkout) ?? true;

  it('are met right after the step before them in the table when they apply, and go on to the first later step that applies', () => {
    for (const checkout of everyCheckout()) {
      for (const [at, row] of FLOW.entries()) {
        if (inSpec(row.step)) continue;
        const before = FLOW[at - 1]!.step;
        // An express buyer without a charity goes from the reservation straight to payment (spec 000 §4).
        const jumped = checkout.express && checkout.charity === null && before === 'reserve';
        if (applies(row.step, checkout) && !jumped) expect(productNextStep(before, checkout), row.step).toBe(row.step);
        const after = stepsAfter(row.step).find((step) => applies(step, checkout)) ?? row.step;
        expect(productNextStep(row.step, checkout), row.step).toBe(after);
      }
    }
  });
});
