import { describe, expect, it } from 'vitest';
import { FLOW, IN_PLACE_OF, STEP_CHARTS, STEPS, stepsAfter, type Step } from './steps.ts';

describe('the steps index', () => {
  it('places every step in the flow once, but determining and the steps that take another’s place', () => {
    const placed = FLOW.map((row) => row.step);
    expect(new Set(placed).size).toBe(placed.length);
    const elsewhere: Step[] = ['determining', ...(Object.keys(IN_PLACE_OF) as Step[])];
    expect([...placed].sort()).toEqual(STEPS.filter((step) => !elsewhere.includes(step)).sort());
  });

  it('goes on after a step in another’s place as after that step (captcha as reserve, back from the bank as payment)', () => {
    expect(stepsAfter('captcha')).toEqual(stepsAfter('reserve'));
    expect(stepsAfter('awaiting_truelayer')).toEqual(stepsAfter('payment'));
  });

  it('reaches, after payment, only the steps of a paid order (spec 001 §4)', () => {
    expect(stepsAfter('payment')).toEqual([
      'deliver_tickets',
      'ticket_questions_after',
      'waiver',
      'after_sale_messages',
      'order_completed',
    ]);
  });

  it('names a chart only for steps of the checkout', () => {
    for (const step of Object.keys(STEP_CHARTS)) expect(STEPS).toContain(step);
  });
});
