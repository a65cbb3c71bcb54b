import { describe, expect, it } from 'vitest';
import { PLAN_COMPLETED_MESSAGES } from '../../contract/messages/instalment';
import { planProblems } from './instalment.rules';

/** Spec 001 §5: a plan is paid only when an option, a valid phone and a payment method are selected. */
const CHOOSE_OPTION = 'Choose a payment plan';
const CHOOSE_CARD = 'Choose a card for your payments';
const PHONE = 'Type a valid phone number';

const OFFERED = ['2', '3'];
const PHONE_OK = '07700 900123';

describe('plan rules (spec 001 §5, §9)', () => {
  it('finds nothing wrong with an offered option, a valid phone and a card (saved or new)', () => {
    expect(planProblems({ option: '3', card: 'pm_saved_9', makeDefault: true }, PHONE_OK, OFFERED)).toEqual({});
    expect(planProblems({ option: '2', card: 'new', makeDefault: false }, PHONE_OK, OFFERED)).toEqual({});
  });

  it('asks for an option while none is chosen, for pay-in-full (option 1) and for one the sale does not offer', () => {
    const option = (chosen: string | null, offered = OFFERED) =>
      planProblems({ option: chosen, card: 'new', makeDefault: true }, PHONE_OK, offered);
    expect(option(null)).toEqual({ planOption: CHOOSE_OPTION });
    // Option 1 is paying in full, never a plan, even where the schedule lists it.
    expect(option('1', ['1', '2', '3'])).toEqual({ planOption: CHOOSE_OPTION });
    expect(option('4')).toEqual({ planOption: CHOOSE_OPTION });
    expect(option('3', [])).toEqual({ planOption: CHOOSE_OPTION });
  });

  it('asks for a valid phone, always for a plan', () => {
    const phone = (contactNumber: string) =>
      planProblems({ option: '3', card: 'new', makeDefault: true }, contactNumber, OFFERED);
    expect(phone('')).toEqual({ contactNumber: PHONE });
    expect(phone('0770 090')).toEqual({ contactNumber: PHONE });
    expect(phone('+44 (0)1285 555 0100')).toEqual({});
  });

  it('asks for a card while none is chosen, and names every problem at once', () => {
    expect(planProblems({ option: '2', card: null, makeDefault: true }, PHONE_OK, OFFERED)).toEqual({
      planCard: CHOOSE_CARD,
    });
    expect(planProblems({ option: null, card: null, makeDefault: true }, '12ab', OFFERED)).toEqual({
      planOption: CHOOSE_OPTION,
      contactNumber: PHONE,
      planCard: CHOOSE_CARD,
    });
  });
});

describe('order completed for a plan (spec 001 §2 Order completed)', () => {
  it('is titled as the spec words it, and lists the schedule e-mail, the reminders, the account settings and delivery after the final payment', () => {
    expect(PLAN_COMPLETED_MESSAGES.title).toBe('Order Complete - Payment Schedule Setup');
    const [schedule, reminders, settings, delivery] = PLAN_COMPLETED_MESSAGES.important;
    expect(PLAN_COMPLETED_MESSAGES.important).toHaveLength(4);
    expect(schedule).toMatch(/e-mail with your payment schedule/);
    expect(reminders).toMatch(/SMS and an e-mail reminder before each payment/);
    expect(settings).toMatch(/update your payment method .* account settings/);
    expect(delivery).toBe('Your tickets will be delivered to your ticket wallet after the final payment.');
  });
});
