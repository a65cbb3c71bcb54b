/**
 * Whole flows with the real step saver and countdown children, where the order in which the
 * server's replies land is the point.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, type AnyActorRef } from 'xstate';
import { viewCountdown } from '../countdown/countdown.connect';
import { countdownMachine } from '../countdown/countdown.machine';
import { stepSaverMachine } from '../stepSaver/stepSaver.machine';
import { makeCheckout } from '../testing/checkoutFixture';
import type { Checkout } from '../../contract/checkout';
import type { Step } from '../../contract/steps';
import type { ReservationOutcome } from '../reservation/reservation.types';
import { viewCheckout } from './checkout.connect';
import { checkoutMachine } from './checkout.machine';
import { accountMachine } from '../account/account.machine';
import { addressMachine } from '../address/address.machine';
import { deliveryMachine } from '../delivery/delivery.machine';
import { donationMachine } from '../donation/donation.machine';
import { giftAidMachine } from '../donation/giftAid.machine';
import { marketingMachine } from '../marketing/marketing.machine';
import { paymentMachine } from '../payment/payment.machine';
import { questionsMachine } from '../questions/questions.machine';
import { callQueue, settle } from '../testing/calls';

function startCheckout() {
  const saves = callQueue<{ state: Step }, { seconds_remaining: number }>();
  const loads = callQueue<void, Checkout>();
  const reservations = callQueue<{ captchaToken?: string }, ReservationOutcome>();
  const destroys = callQueue<void, unknown>();
  const actor = createActor(
    checkoutMachine.provide({
      actors: {
        loadCheckout: loads.logic,
        destroySale: destroys.logic,
        loadStepCharts: fromPromise<void, void>(async () => {}),
        reservation: reservations.logic as never,
        basket: fromCallback(() => {}) as never,
        countdown: countdownMachine.provide({ actors: { ticker: fromCallback(() => {}) } }),
        stepSaver: stepSaverMachine.provide({ actors: { updateBasketState: saves.logic } }),
        // The step charts, as the app provides them (from their chunks).
        account: accountMachine,
        address: addressMachine,
        delivery: deliveryMachine,
        donation: donationMachine,
        giftAid: giftAidMachine,
        marketing: marketingMachine,
        payment: paymentMachine,
        questions: questionsMachine,
      },
      actions: { reloadCheckout: () => {} },
      delays: { reserveDelay: 0 },
    }),
  ).start();
  /** What the buyer's countdown shows. */
  const hold = () => viewCountdown((actor.getSnapshot().children.countdown as AnyActorRef).getSnapshot());
  return { actor, saves, loads, reservations, destroys, hold, view: () => viewCheckout(actor.getSnapshot()) };
}

describe('checkout flows', () => {
  it('a step save answered with 0 for the reserve step, landing after the hold started, does not expire the hold', async () => {
    const { actor, saves, loads, reservations, hold, view } = startCheckout();
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'basket', seconds_remaining: 0 }));
    await settle();
    // The server has just said the buyer is at the basket: that is no change of step, and no save.
    expect(saves.calls).toHaveLength(0);
    actor.send({ type: 'RESERVE_CLICKED' });
    await new Promise((resolve) => setTimeout(resolve, 5)); // reserveDelay
    await settle();
    expect(saves.calls[0]!.input).toEqual({ state: 'reserve' }); // goes out before the hold exists
    reservations.calls[0]!.reply({
      kind: 'reserved',
      saleReference: 'HF-2',
      checkoutTime: 600,
      checkout: makeCheckout(),
    });
    await settle();
    expect(view().step).toBe('login');
    // The server answers the reserve step's save with 0: it had no hold when it read the step.
    saves.calls[0]!.reply({ seconds_remaining: 0 });
    await settle();
    expect(view()).toMatchObject({ step: 'login', expired: false, expiredMessage: null });
    expect(hold()).toMatchObject({ running: true, expired: false, secondsRemaining: 600 });
    // The login step's own save carries the hold's real figure, and is taken.
    expect(saves.calls[1]!.input).toEqual({ state: 'login' });
    saves.calls[1]!.reply({ seconds_remaining: 590 });
    await settle();
    expect(hold()).toMatchObject({ running: true, secondsRemaining: 590 });
  });

  it('has no clock at the basket; the first hold starts one, which Edit basket stops and the next hold starts again', async () => {
    const { actor, loads, reservations, destroys, hold } = startCheckout();
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'basket' }));
    await settle();
    expect(actor.getSnapshot().children.countdown).toBeUndefined();
    const reserve = async (checkoutTime: number) => {
      actor.send({ type: 'RESERVE_CLICKED' });
      await new Promise((resolve) => setTimeout(resolve, 5)); // reserveDelay
      await settle();
      reservations.calls
        .at(-1)!
        .reply({ kind: 'reserved', saleReference: 'HF-2', checkoutTime, checkout: makeCheckout() });
      await settle();
    };
    await reserve(600);
    const clock = actor.getSnapshot().children.countdown;
    expect(hold()).toMatchObject({ running: true, secondsRemaining: 600 });
    actor.send({ type: 'EDIT_BASKET_CONFIRMED' });
    await settle();
    destroys.calls[0]!.reply(undefined);
    await settle();
    expect(hold()).toMatchObject({ running: false });
    // The same clock, started again: the checkout never has two.
    await reserve(300);
    expect(actor.getSnapshot().children.countdown).toBe(clock);
    expect(hold()).toMatchObject({ running: true, secondsRemaining: 300 });
    actor.stop();
  });

  it('refuses Edit basket once the payment is complete', async () => {
    const { actor, loads, destroys, view } = startCheckout();
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'deliver_tickets', payment_complete: true, sale_reference: 'HF-1' }));
    await settle();
    expect(view()).toMatchObject({ step: 'deliver_tickets', canEditBasket: false });
    actor.send({ type: 'EDIT_BASKET_CONFIRMED' });
    await settle();
    expect(destroys.calls).toHaveLength(0);
    expect(view()).toMatchObject({ step: 'deliver_tickets', isEditingBasket: false });
  });

  it('follows the server when a reload shows the sale was ended in another tab', async () => {
    const { actor, saves, loads, hold, view } = startCheckout();
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'login', sale_reference: 'HF-1', seconds_remaining: 597 }));
    await settle();
    expect(saves.calls).toHaveLength(0); // resumed where the server has the buyer: nothing to save
    expect(view()).toMatchObject({ step: 'login', canEditBasket: true });
    expect(hold()).toMatchObject({ running: true });
    // Another tab edited the basket: back in this tab, the reload says basket, with no sale and no hold.
    actor.send({
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({ state: 'basket', sale_reference: null, seconds_remaining: 0 }),
    });
    await settle();
    expect(view()).toMatchObject({ step: 'basket', expired: false, expiredMessage: null, notices: [] });
    expect(hold()).toMatchObject({ running: false, expired: false });
  });

  it('stays on the step when a reload shows the same sale', async () => {
    const { actor, loads, hold, view } = startCheckout();
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'login', sale_reference: 'HF-1', seconds_remaining: 597 }));
    await settle();
    actor.send({
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({ state: 'login', sale_reference: 'HF-1', seconds_remaining: 590 }),
    });
    await settle();
    expect(view()).toMatchObject({ step: 'login', expired: false });
    expect(hold()).toMatchObject({ running: true });
  });

  it('ends the step only when the reload shows both the basket and no sale', async () => {
    const { actor, loads, hold, view } = startCheckout();
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'login', sale_reference: 'HF-1', seconds_remaining: 597 }));
    await settle();
    // The basket state with the sale still there, and another step with no sale: neither ends the hold.
    actor.send({
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({ state: 'basket', sale_reference: 'HF-1', seconds_remaining: 590 }),
    });
    await settle();
    expect(view()).toMatchObject({ step: 'login', expired: false });
    actor.send({
      type: 'CHECKOUT_RELOADED',
      checkout: makeCheckout({ state: 'login', sale_reference: null, seconds_remaining: 590 }),
    });
    await settle();
    expect(view()).toMatchObject({ step: 'login', expired: false });
    expect(hold()).toMatchObject({ running: true });
  });

  it('dismisses only the notice the buyer closed', async () => {
    const { actor, loads, view } = startCheckout();
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'basket' }));
    await settle();
    actor.send({ type: 'NOTICE_RAISED', kind: 'error', text: 'Unable to set the Code. Please try again later' });
    actor.send({
      type: 'NOTICE_RAISED',
      kind: 'error',
      text: 'Unable to update Ticket quantity. Please try again later',
    });
    const [first, second] = view().notices;
    expect(first!.id).not.toBe(second!.id);
    actor.send({ type: 'NOTICE_DISMISSED', id: first!.id });
    expect(view().notices).toEqual([second]);
  });

  it('shows a failure once, however often it repeats', async () => {
    const { actor, loads, view } = startCheckout();
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'basket' }));
    await settle();
    // Two step saves refused in a row (the reserve step's, then the next step's) raise the same notice.
    actor.send({
      type: 'NOTICE_RAISED',
      kind: 'error',
      text: 'Unable to update the Basket state. Please try again later',
    });
    actor.send({
      type: 'NOTICE_RAISED',
      kind: 'error',
      text: 'Unable to update the Basket state. Please try again later',
    });
    expect(view().notices.map((n) => n.text)).toEqual(['Unable to update the Basket state. Please try again later']);
  });
});
