import { describe, expect, it } from 'vitest';
import { inSpec, SPEC_STEPS } from './specSteps.ts';
import {
  FLOW,
  IN_PLACE_OF,
  STEP_CHARTS,
  STEP_TABLE,
  STEPS,
  stepRow,
  stepsAfter,
  stepsWhere,
  type Step,
  type StepRow,
} from './steps.ts';

/**
 * What is wrong with a step table: the order of the specification's steps against the
 * specification's (`SPEC_STEPS`), and each row's flags against its place (a step in another's place
 * stands where that one does), the product's own steps too. Empty for a sound table.
 */
function misplacements(table: readonly StepRow[]): string[] {
  const problems: string[] = [];
  const order = table.map((row) => row.step).filter(inSpec);
  if (order.join() !== SPEC_STEPS.join()) problems.push(`order ${order.join(' ')}`);
  const flow = table.filter((row) => !row.outsideFlow && !row.inPlaceOf).map((row) => row.step);
  const place = (row: StepRow) => (row.outsideFlow ? -1 : flow.indexOf(row.inPlaceOf ?? row.step));
  for (const row of table) {
    const at = place(row);
    const expected = {
      holdsTickets: at > flow.indexOf('reserve'),
      beforePayment: at < flow.indexOf('payment'),
      afterPayment: at > flow.indexOf('payment'),
    };
    for (const flag of ['holdsTickets', 'beforePayment', 'afterPayment'] as const) {
      if (row[flag] !== expected[flag]) problems.push(`${row.step}: ${flag} is ${row[flag]}`);
    }
    if (row.inPlaceOf && table[table.indexOf(row) - 1]?.step !== row.inPlaceOf)
      problems.push(`${row.step}: not right after ${row.inPlaceOf}`);
  }
  return problems;
}

/** The table with `step`'s row moved to stand before `before`'s. */
function moved(step: Step, before: Step): StepRow[] {
  const rows = STEP_TABLE.filter((row) => row.step !== step);
  rows.splice(
    rows.findIndex((row) => row.step === before),
    0,
    stepRow(step)!,
  );
  return rows;
}

describe('the step table', () => {
  it('lists every step once, in the order the specification gives, each flag agreeing with the step’s place', () => {
    expect(new Set(STEPS).size).toBe(STEPS.length);
    expect(misplacements(STEP_TABLE)).toEqual([]);
  });

  it('tells a misplaced step: a row moved, or a flag that disagrees with its place', () => {
    expect(misplacements(moved('deliver_tickets', 'payment'))).toContain('deliver_tickets: afterPayment is true');
    expect(misplacements(moved('login', 'reserve'))).toContain('login: holdsTickets is true');
    expect(misplacements(moved('captcha', 'basket'))).toContain('captcha: not right after reserve');
    expect(misplacements(moved('after_sale_messages', 'waiver'))).toEqual([expect.stringMatching(/^order /)]);
    const paidTooSoon = STEP_TABLE.map((row) => (row.step === 'payment' ? { ...row, afterPayment: true } : row));
    expect(misplacements(paidTooSoon)).toEqual(['payment: afterPayment is true']);
  });

  it('tells a step of the product’s own misplaced: a step before the payment placed after it', () => {
    const own = { step: 'own_step' as Step, holdsTickets: true, beforePayment: true, afterPayment: false };
    const withOwn = (after: Step) => STEP_TABLE.flatMap((row) => (row.step === after ? [row, own] : [row]));
    expect(misplacements(withOwn('marketing_preferences'))).toEqual([]);
    expect(misplacements(withOwn('awaiting_truelayer'))).toEqual([
      'own_step: beforePayment is true',
      'own_step: afterPayment is false',
    ]);
  });

  it('holds tickets on every step past the reservation (spec 000 §4 "Countdown")', () => {
    expect(stepsWhere('holdsTickets').sort()).toEqual(
      STEPS.filter((step) => !['determining', 'basket', 'captcha', 'reserve'].includes(step)).sort(),
    );
  });

  it('places every step in the flow once, but determining and the steps that take another’s place', () => {
    const placed = FLOW.map((row) => row.step);
    expect(new Set(placed).size).toBe(placed.length);
    const elsewhere: Step[] = ['determining', ...(Object.keys(IN_PLACE_OF) as Step[])];
    expect([...placed].sort()).toEqual(STEPS.filter((step) => !elsewhere.includes(step)).sort());
  });

  it('goes on after a step in another’s place as after that step (captcha as reserve, back from the bank as payment)', () => {
    expect(IN_PLACE_OF).toEqual({ captcha: 'reserve', awaiting_truelayer: 'payment' });
    expect(stepsAfter('captcha')).toEqual(stepsAfter('reserve'));
    expect(stepsAfter('awaiting_truelayer')).toEqual(stepsAfter('payment'));
  });

  it('reaches, after payment, only the steps of a paid order (spec 001 §4)', () => {
    const paid = ['deliver_tickets', 'ticket_questions_after', 'waiver', 'after_sale_messages', 'order_completed'];
    expect(stepsAfter('payment').filter(inSpec)).toEqual(paid);
    expect(stepsWhere('afterPayment')).toEqual(stepsAfter('payment'));
  });

  it('names a chart only for steps of the checkout', () => {
    for (const step of Object.keys(STEP_CHARTS)) expect(STEPS).toContain(step);
    expect(STEP_CHARTS).toMatchObject({
      captcha: 'reservation',
      reserve: 'reservation',
      awaiting_truelayer: 'bankTransfer',
    });
    expect(Object.keys(STEP_CHARTS)).not.toContain('basket');
    expect(Object.keys(STEP_CHARTS)).not.toContain('after_sale_messages');
  });
});
