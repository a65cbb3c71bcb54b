import { describe, expect, it } from 'vitest';
import { makeCheckout } from '../testing/checkoutFixture';
import { createActor, fromCallback, fromPromise, type AnyActorLogic, type EventObject } from 'xstate';
import { basketEditableOn, checkoutSenders, connectCheckout, viewCheckout } from './checkout.connect';
import { checkoutMachine } from './checkout.machine';
import type { Checkout } from '../../contract/checkout';
import { inSpec } from '../../contract/specSteps';
import { FLOW, STEPS, type Step } from '../../contract/steps';
import type { ReservationOutcome } from '../reservation/reservation.types';
import { callQueue, settle } from '../testing/calls';

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
      checkoutMachine.provide({
        actors: {
          loadCheckout: pending,
          countdown: fromCallback(() => {}) as never,
          stepSaver: fromCallback(() => {}) as never,
        },
      }),
    ).start();
    const sent: unknown[] = [];
    const checkout = connectCheckout(actor.getSnapshot(), (event) => sent.push(event));
    expect(checkout).toMatchObject({
      step: 'determining',
      isDetermining: true,
      determiningFailed: false,
      canEditBasket: false,
    });
    checkout.reserve();
    expect(sent).toEqual([{ type: 'RESERVE_CLICKED' }]);
    actor.stop();
  });
});

/**
 * The root checkout with the server's calls answered by the test, and each step's chart a stand-in
 * that keeps what the root sends it (the reservation's may be replaced, to answer it).
 */
function startRoot(charts: Record<string, AnyActorLogic> = {}) {
  const loads = callQueue<void, Checkout>();
  const destroys = callQueue<void, unknown>();
  const received: Record<string, EventObject[]> = {};
  const standIn = (name: string) =>
    fromCallback(({ receive }) => {
      receive((event) => (received[name] ??= []).push(event));
    });
  const actor = createActor(
    checkoutMachine.provide({
      actors: {
        loadCheckout: loads.logic,
        destroySale: destroys.logic,
        loadStepCharts: fromPromise<void, void>(async () => {}),
        countdown: fromCallback(() => {}) as never,
        stepSaver: fromCallback(() => {}) as never,
        basket: standIn('basket') as never,
        reservation: standIn('reservation') as never,
        account: standIn('account') as never,
        ...(charts as Record<string, never>),
      },
      delays: { reserveDelay: 0 },
    }),
  ).start();
  const reserve = async () => {
    actor.send({ type: 'RESERVE_CLICKED' });
    await new Promise((resolve) => setTimeout(resolve, 5)); // reserveDelay
    await settle();
  };
  return { actor, loads, destroys, received, reserve, view: () => viewCheckout(actor.getSnapshot()) };
}

describe('checkout view', () => {
  it("offers 'Edit basket' on the steps after the reservation up to the payment, none before the hold and none after paying", () => {
    // The flow's steps from the one after the reservation to the payment itself (a step in another's place is not in it).
    const flow = FLOW.map((row) => row.step);
    const offered: Step[] = flow.slice(flow.indexOf('reserve') + 1, flow.indexOf('payment') + 1);
    expect(offered.filter(inSpec)).toEqual([
      'donation',
      'gift_aid',
      'login',
      'marketing_preferences',
      'delivery_address',
      'ticket_questions_before',
      'payment',
    ]);
    for (const step of STEPS) expect([step, basketEditableOn(step)]).toEqual([step, offered.includes(step)]);
  });

  it("gives a step's screen the chart of the step the buyer is on, never the hold, the step saver or a call", async () => {
    const { actor, loads, destroys, reserve, view } = startRoot();
    // Reading where the buyer was: no step's chart yet.
    expect(view().stepChild).toBeUndefined();
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'basket' }));
    await settle();
    expect(view()).toMatchObject({ step: 'basket', stepChild: { id: 'basket' } });
    await reserve();
    expect(view()).toMatchObject({ step: 'reserve', stepChild: { id: 'reservation' } });
    // 'Edit basket' destroying the sale: no step's chart until the basket's is back.
    actor.send({ type: 'EDIT_BASKET_CONFIRMED' });
    expect(view()).toMatchObject({ isEditingBasket: true, stepChild: undefined });
    destroys.calls[0]!.reply({ success: true });
    await settle();
    expect(view()).toMatchObject({ step: 'basket', stepChild: { id: 'basket' } });
    actor.stop();

    // Resumed past the reservation: the account's chart, beside the running hold.
    const resumed = startRoot();
    await settle();
    resumed.loads.calls[0]!.reply(makeCheckout({ state: 'login', sale_reference: 'HF-1' }));
    await settle();
    expect(resumed.view()).toMatchObject({ step: 'login', stepChild: { id: 'account' } });
    resumed.actor.stop();
  });

  it("passes the in-app browser's Copy link and Why? to the reservation, on the reserve step and while the captcha step reserves", async () => {
    const { actor, loads, received, reserve } = startRoot();
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'basket' }));
    await settle();
    await reserve();
    const send = checkoutSenders((event) => actor.send(event));
    send.copyLink();
    send.toggleWhy();
    expect(received.reservation).toEqual([{ type: 'COPY_LINK_CLICKED' }, { type: 'WHY_TOGGLED' }]);
    actor.stop();

    const atCaptcha = startRoot();
    await settle();
    atCaptcha.loads.calls[0]!.reply(makeCheckout({ state: 'captcha', captcha_sitekey: 'local-altcha' }));
    await settle();
    const sendHere = checkoutSenders((event) => atCaptcha.actor.send(event));
    sendHere.captchaPassed('token-1');
    sendHere.captchaContinue();
    expect(atCaptcha.view()).toMatchObject({ step: 'captcha', isReserving: true });
    sendHere.copyLink();
    sendHere.toggleWhy();
    expect(atCaptcha.received.reservation).toEqual([{ type: 'COPY_LINK_CLICKED' }, { type: 'WHY_TOGGLED' }]);
    atCaptcha.actor.stop();
  });

  it("shows the captcha widget's error only while that widget is in error, not on a fresh widget", async () => {
    const reservations = callQueue<{ captchaToken?: string }, ReservationOutcome>();
    const { actor, loads, destroys, reserve, view } = startRoot({ reservation: reservations.logic });
    await settle();
    loads.calls[0]!.reply(makeCheckout({ state: 'captcha', captcha_sitekey: 'local-altcha' }));
    await settle();
    actor.send({ type: 'CAPTCHA_ERRORED', message: 'Network error in the captcha widget' });
    expect(view().captcha).toMatchObject({ status: 'errored', message: 'Network error in the captcha widget' });
    // The buyer goes back to the basket and reserves again; the server asks for a captcha again.
    actor.send({ type: 'EDIT_BASKET_CONFIRMED' });
    destroys.calls[0]!.reply({ success: true });
    await settle();
    expect(view()).toMatchObject({ step: 'basket', captcha: { status: 'unsolved', message: null } });
    await reserve();
    reservations.calls[0]!.reply({ kind: 'captcha', sitekey: 'local-altcha' });
    await settle();
    expect(view()).toMatchObject({
      step: 'captcha',
      captcha: { status: 'unsolved', message: null, canContinue: false },
    });
    actor.stop();
  });
});
