import { describe, expect, it } from 'vitest';
import { STEPS } from '../../src/api/contract';
import {
  afterSaleMessage,
  charity,
  makeCheckout,
  pendingMarketing,
  question,
} from '../testing/checkoutFixture';
import { walk, type StepCheck, type WalkEvent } from '../testing/walk';
import { CAPTCHA_EXPIRED_MESSAGE, CHECKOUT_EXPIRED_MESSAGE, viewCheckout } from './checkout.connect';
import { checkoutMachine } from './checkout.machine';
import type { Checkout, ReservationOutcome } from './checkout.types';

/** One checkout per step the server may remember, and one per deciding field of the rules. */
const checkouts: Checkout[] = [
  ...STEPS.map((state) =>
    makeCheckout({
      state,
      sale_reference: 'HF-1',
      seconds_remaining: 420,
      captcha_sitekey: state === 'captcha' ? 'local-altcha' : null,
    }),
  ),
  ...[
    { donation_amount: 500 },
    { marketing_preferences: pendingMarketing },
    { require_delivery_address: true },
    { before_payment_questions: [question] },
    { after_payment_questions: [question] },
    { has_waivers: true },
    { after_sale_messages: [afterSaleMessage] },
    { state: 'deliver_tickets' as const, payment_complete: true },
  ].map((fields) => makeCheckout({ state: 'login', sale_reference: 'HF-1', ...fields })),
];

const outcomes: ReservationOutcome[] = [
  { type: 'reserved', saleReference: 'HF-2', checkoutTime: 600, checkout: makeCheckout({ charity }) },
  { type: 'reserved', saleReference: 'HF-2', checkoutTime: 600, checkout: makeCheckout({ express: true }) },
  { type: 'reserved', saleReference: 'HF-2', checkoutTime: 600, checkout: makeCheckout() },
  { type: 'captcha', sitekey: 'local-altcha' },
  { type: 'redirect', url: '/queue/' },
  { type: 'error', message: 'Sold out' },
  { type: 'unknown' },
  { type: 'failed' },
];

const events: Record<string, WalkEvent[]> = {
  'xstate.done.actor.loadCheckout': checkouts.map((output) => ({ type: 'xstate.done.actor.loadCheckout', output })),
  'xstate.error.actor.loadCheckout': [{ type: 'xstate.error.actor.loadCheckout', error: new Error('500') }],
  'xstate.done.actor.reservation': outcomes.map((output) => ({ type: 'xstate.done.actor.reservation', output })),
  'xstate.error.actor.reservation': [{ type: 'xstate.error.actor.reservation', error: new Error('crashed') }],
  'xstate.done.actor.destroySale': [{ type: 'xstate.done.actor.destroySale', output: { success: true } }],
  'xstate.error.actor.destroySale': [{ type: 'xstate.error.actor.destroySale', error: new Error('500') }],
  CAPTCHA_PASSED: [{ type: 'CAPTCHA_PASSED', token: 'token-1' }],
  CAPTCHA_ERRORED: [{ type: 'CAPTCHA_ERRORED', message: 'Network error in the captcha widget' }],
  STEP_SAVED: [{ type: 'STEP_SAVED', secondsRemaining: 480 }],
  NOTICE_DISMISSED: [{ type: 'NOTICE_DISMISSED', id: 1 }],
  NOTICE_RAISED: [{ type: 'NOTICE_RAISED', kind: 'error', text: 'Unable to set the Code. Please try again later' }],
};

const NO_EXPIRY = ['order_completed', 'after_sale_messages', 'awaiting_truelayer'];

/** What this step sent to a child or passed to a spied action. */
function sentTo(step: StepCheck, to: string) {
  return step.produced.filter((entry) => entry.to === to).map((entry) => entry.event);
}
function lastTo(step: StepCheck, to: string) {
  return sentTo(step, to).at(-1);
}
function lastNotice(step: StepCheck) {
  return step.after.context.notices.at(-1);
}

/** What each step of a path means for the buyer, per spec 000 §4 and 001 §4. */
function checkMeaning(step: StepCheck) {
  const { event, before, after } = step;
  const view = viewCheckout(after as never);
  const output = (event as { output?: unknown }).output;

  // Every change of step is saved straight away (determining never is).
  if (after.context.step !== before.context.step) {
    expect(after.context.step).not.toBe('determining');
    expect(lastTo(step, 'stepSaver')).toEqual({ type: 'SAVE', state: after.context.step });
  } else if (after.value === before.value) {
    expect(sentTo(step, 'stepSaver')).toEqual([]);
  }
  expect(view.expiredMessage).toBe(after.context.expired ? CHECKOUT_EXPIRED_MESSAGE : null);

  switch (event.type) {
    case 'xstate.error.actor.loadCheckout':
      expect(lastNotice(step)?.text).toBe('Unable to get Checkout data. Please try again later');
      break;
    case 'xstate.done.actor.loadCheckout': {
      const checkout = output as Checkout;
      if (before.matches('determining') && !['basket', 'captcha', 'reserve', 'determining'].includes(checkout.state)) {
        // The hold resumes from the server's figure, unless payment is already complete.
        expect(sentTo(step, 'countdown')).toEqual([
          checkout.payment_complete ? { type: 'STOP' } : { type: 'START', secondsRemaining: checkout.seconds_remaining },
        ]);
      }
      const leavingPayment =
        before.matches({ pastBasket: { payment: 'advancing' } }) ||
        before.matches({ pastBasket: { awaiting_truelayer: 'advancing' } });
      if (leavingPayment) {
        expect(sentTo(step, 'countdown')).toEqual(checkout.payment_complete ? [{ type: 'STOP' }] : []);
      }
      break;
    }
    case 'xstate.done.actor.reservation':
    case 'xstate.error.actor.reservation': {
      const outcome: ReservationOutcome = (output as ReservationOutcome | undefined) ?? { type: 'failed' };
      const fromCaptcha = before.matches({ pastBasket: 'captcha' });
      if (outcome.type === 'reserved') {
        expect(lastTo(step, 'countdown')).toEqual({ type: 'START', secondsRemaining: 600 });
        expect(after.context.expired).toBe(false);
        expect(after.context.saleReference).toBe('HF-2');
      } else if (outcome.type === 'captcha') {
        expect(view.captcha).toEqual({ status: 'unsolved', message: null, sitekey: 'local-altcha', canContinue: false });
      } else if (outcome.type === 'redirect') {
        expect(lastTo(step, 'navigate')).toEqual({ url: '/queue/' });
        expect(after.value).toEqual(before.value);
      } else {
        expect(view.step).toBe('basket');
        const expected = {
          error: { kind: 'warning', text: 'Sold out' },
          unknown: { kind: 'error', text: 'An unknown error occured. Please try again, or contact support.' },
          failed: {
            kind: 'error',
            text: fromCaptcha
              ? 'Unable to reserve ticket(s). Please try again later'
              : 'Unable to reserve tickets. Please try again later',
          },
        }[outcome.type];
        expect(lastNotice(step)).toMatchObject(expected);
        if (outcome.type === 'error') expect(sentTo(step, 'reloadCheckout')).toHaveLength(1);
      }
      break;
    }
    case 'COUNTDOWN_EXPIRED':
      if (before.matches('pastBasket') && !NO_EXPIRY.includes(before.context.step)) {
        expect(view.step).toBe('basket');
        expect(view.expiredMessage).toBe(CHECKOUT_EXPIRED_MESSAGE);
        expect(sentTo(step, 'reloadCheckout')).toHaveLength(1);
      } else {
        expect(after.value).toEqual(before.value);
      }
      break;
    case 'xstate.done.actor.destroySale':
      expect(view.step).toBe('basket');
      expect(lastTo(step, 'countdown')).toEqual({ type: 'STOP' });
      expect(sentTo(step, 'reloadCheckout')).toHaveLength(1);
      break;
    case 'xstate.error.actor.destroySale':
      // Back to where the buyer was, with the notice.
      expect(lastNotice(step)?.text).toBe('Unable to edit Basket. Please try again later');
      expect(after.matches({ pastBasket: before.context.step } as never)).toBe(true);
      break;
    case 'STEP_SAVED':
      expect(view.secondsRemaining).toBe(480);
      expect(lastTo(step, 'countdown')).toEqual({ type: 'SYNC', secondsRemaining: 480 });
      break;
    case 'STEP_SAVE_FAILED':
      expect(lastNotice(step)?.text).toBe('Unable to update the Basket state. Please try again later');
      break;
    case 'TAB_VISIBLE':
      expect(sentTo(step, 'reloadCheckout')).toHaveLength(1);
      break;
    case 'NOTICE_DISMISSED':
      expect(after.context.notices.some((n: { id: number }) => n.id === 1)).toBe(false);
      break;
    case 'CAPTCHA_CONTINUE_CLICKED':
      expect(step.kit.inputs.reservation?.at(-1)).toEqual({ captchaToken: 'token-1' });
      break;
  }

  if (after.matches({ pastBasket: 'captcha' })) {
    const status = view.captcha.status;
    expect(view.captcha.canContinue).toBe(after.matches({ pastBasket: { captcha: 'passed' } }));
    if (status === 'expired') expect(view.captcha.message).toBe(CAPTCHA_EXPIRED_MESSAGE);
    if (status === 'errored') expect(view.captcha.message).toBe('Network error in the captcha widget');
  }
  if (after.matches({ pastBasket: 'reserve' }) && !before.matches({ pastBasket: 'reserve' })) {
    expect(step.kit.inputs.reservation?.at(-1)).toEqual({});
    expect(view.isReserving).toBe(true);
  }
}

describe('checkout machine (root)', () => {
  it('is walked at 100 % of its states and transitions, with the meaning of each step checked', async () => {
    const result = await walk({
      name: 'checkout',
      machine: checkoutMachine,
      fakes: (kit) => ({
        actors: {
          loadCheckout: kit.controlled(),
          destroySale: kit.controlled(),
          reservation: kit.controlled(),
          basket: kit.recorder('basket'),
          countdown: kit.recorder('countdown'),
          stepSaver: kit.recorder('stepSaver'),
        },
        actions: { reloadCheckout: kit.spy('reloadCheckout'), navigate: kit.spy('navigate') },
      }),
      serializeState: (s) => JSON.stringify([s.value, s.context.step, s.context.expired]),
      events,
      check: checkMeaning,
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });
});
