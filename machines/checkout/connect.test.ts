import { describe, expect, it } from 'vitest';
import { makeCheckout } from '../testing/checkoutFixture';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { checkoutSenders, connectCheckout } from './checkout.connect';
import { checkoutMachine } from './checkout.machine';
import type { Checkout } from '../../contract/checkout';

/** What the screens ask of the root checkout, each as the event of the spec's action (spec 000 §2, §4). */
describe('checkout senders', () => {
  it('turn each control into its event', () => {
    const sent: unknown[] = [];
    const send = checkoutSenders((event) => sent.push(event));
    const checkout = makeCheckout({ state: 'login' });
    send.retry();
    send.reserve();
    send.continueStep();
    send.editBasket();
    send.dismissNotice(3);
    send.tabVisible();
    send.checkoutReloaded(checkout);
    send.captchaPassed('token-1');
    send.captchaExpired();
    send.captchaErrored('Network error');
    send.captchaContinue();
    send.copyLink();
    send.toggleWhy();
    expect(sent).toEqual([
      { type: 'RETRY_CLICKED' },
      { type: 'RESERVE_CLICKED' },
      { type: 'STEP_COMPLETED' },
      { type: 'EDIT_BASKET_CONFIRMED' },
      { type: 'NOTICE_DISMISSED', id: 3 },
      { type: 'TAB_VISIBLE' },
      { type: 'CHECKOUT_RELOADED', checkout },
      { type: 'CAPTCHA_PASSED', token: 'token-1' },
      { type: 'CAPTCHA_EXPIRED' },
      { type: 'CAPTCHA_ERRORED', message: 'Network error' },
      { type: 'CAPTCHA_CONTINUE_CLICKED' },
      { type: 'COPY_LINK_CLICKED' },
      { type: 'WHY_TOGGLED' },
    ]);
  });

  it('gives a screen the view and the senders together', () => {
    const pending = fromPromise<Checkout, void>(() => new Promise<Checkout>(() => {}));
    const actor = createActor(
      checkoutMachine.provide({ actors: { loadCheckout: pending, countdown: fromCallback(() => {}) as never, stepSaver: fromCallback(() => {}) as never } }),
    ).start();
    const sent: unknown[] = [];
    const checkout = connectCheckout(actor.getSnapshot(), (event) => sent.push(event));
    expect(checkout).toMatchObject({ step: 'determining', isDetermining: true, determiningFailed: false, canEditBasket: false });
    checkout.reserve();
    expect(sent).toEqual([{ type: 'RESERVE_CLICKED' }]);
    actor.stop();
  });
});
