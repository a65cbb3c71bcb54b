import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { paymentSenders, viewPayment } from './payment.connect';
import { paymentMachine } from './payment.machine';
import type { PaymentSituation } from './payment.types';
import { PAYMENT_MESSAGES } from '../../contract/messages/payment';

/** The payment screen's controls, each as the event of the spec's action (spec 001 §2 Payment, §4). */
describe('payment senders', () => {
  it('turn each control into its event', () => {
    const sent: unknown[] = [];
    const send = paymentSenders((event) => sent.push(event));
    send.change('contactNumber', '07700 900123');
    send.toggleOrganiser(4);
    send.toggleNewsletter();
    send.chooseMethod('truelayer');
    send.pay();
    send.retry();
    send.choosePlanOption('3');
    send.choosePlanCard('new');
    send.togglePlanDefault();
    send.changeCode('123456');
    send.verify();
    send.resend();
    send.useAnotherEmail();
    expect(sent).toEqual([
      { type: 'FIELD_CHANGED', field: 'contactNumber', value: '07700 900123' },
      { type: 'ORGANISER_TOGGLED', organiserId: 4 },
      { type: 'NEWSLETTER_TOGGLED' },
      { type: 'METHOD_CHOSEN', method: 'truelayer' },
      { type: 'PAY_CLICKED' },
      { type: 'RETRY_CLICKED' },
      { type: 'PLAN_OPTION_CHOSEN', option: '3' },
      { type: 'PLAN_CARD_CHOSEN', card: 'new' },
      { type: 'PLAN_DEFAULT_TOGGLED' },
      { type: 'CODE_CHANGED', value: '123456' },
      { type: 'VERIFY_CLICKED' },
      { type: 'RESEND_CLICKED' },
      { type: 'SIGN_IN_CANCELLED' },
    ]);
  });
});

describe('payment view', () => {
  const situation = (over: Partial<PaymentSituation>): PaymentSituation => ({
    paid: false,
    blockedBy: null,
    free: false,
    express: false,
    phoneRequired: false,
    offered: ['stripe'],
    autoMethod: 'stripe',
    marketingOrganisers: [],
    email: '',
    paymentError: null,
    planOptions: [],
    ...over,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  async function start(s: PaymentSituation, claim: () => Promise<never> = () => new Promise<never>(() => {})) {
    const actor = createActor(
      paymentMachine.provide({
        actors: {
          loadPayment: fromPromise<PaymentSituation, void>(async () => s),
          claimFreeTickets: fromPromise(claim) as never,
        },
      }),
    ).start();
    await settle();
    return actor;
  }

  it('names the organiser whose payments are not set up (spec 001 §2)', async () => {
    const actor = await start(situation({ blockedBy: 'Moonlight Screenings' }));
    expect(viewPayment(actor.getSnapshot()).blocked).toBe(
      'We currently are unable to take payments for this basket as the payment integration has not yet been configured by Moonlight Screenings',
    );
    const open = await start(situation({}));
    expect(viewPayment(open.getSnapshot()).blocked).toBeNull();
  });

  it('keeps the free title and offers a retry when claiming free tickets fails', async () => {
    const actor = await start(situation({ free: true }), () => Promise.reject(new Error('500')));
    await settle();
    expect(viewPayment(actor.getSnapshot())).toMatchObject({
      title: 'Claiming free tickets',
      canRetry: true,
      free: true,
      claiming: false,
    });
  });

  it('shows the phone rule and each organiser box as the buyer sets it', async () => {
    const actor = await start(
      situation({ phoneRequired: true, marketingOrganisers: [{ id: 4, message: 'News from Docklands' }] }),
    );
    expect(viewPayment(actor.getSnapshot())).toMatchObject({
      phoneRequired: true,
      free: false,
      organisers: [{ id: 4, message: 'News from Docklands', checked: false }],
    });
    actor.send({ type: 'ORGANISER_TOGGLED', organiserId: 4 });
    expect(viewPayment(actor.getSnapshot()).organisers).toEqual([
      { id: 4, message: 'News from Docklands', checked: true },
    ]);
  });

  it('lets Pay go for a plan only with an option, a valid phone and a card', async () => {
    const actor = await start(situation({ offered: ['stripe', 'instalment'], autoMethod: 'none', planOptions: ['3'] }));
    actor.send({ type: 'METHOD_CHOSEN', method: 'instalment' });
    expect(viewPayment(actor.getSnapshot())).toMatchObject({ canPay: false, planOptions: ['3'] });
    actor.send({ type: 'PLAN_OPTION_CHOSEN', option: '3' });
    actor.send({ type: 'PLAN_CARD_CHOSEN', card: 'new' });
    actor.send({ type: 'FIELD_CHANGED', field: 'contactNumber', value: ' 07700 900123 ' });
    expect(viewPayment(actor.getSnapshot()).canPay).toBe(true);
  });

  it('says in words that no method can take the basket, with what the buyer can do, and offers no Pay', async () => {
    const actor = await start(situation({ offered: [], autoMethod: 'none' }));
    expect(viewPayment(actor.getSnapshot())).toMatchObject({
      noMethod:
        'A basket of £2,000.00 or more from this organiser cannot be paid online. Edit your basket to bring the total under £2,000.00, or buy the tickets as two or more smaller orders.',
      canPay: false,
    });
    const open = await start(situation({}));
    expect(viewPayment(open.getSnapshot())).toMatchObject({ noMethod: null, canPay: true });
  });

  it('offers nothing before the sale is read', () => {
    const actor = createActor(
      paymentMachine.provide({
        actors: { loadPayment: fromPromise<PaymentSituation, void>(() => new Promise<PaymentSituation>(() => {})) },
      }),
    ).start();
    expect(viewPayment(actor.getSnapshot())).toMatchObject({
      loading: true,
      free: false,
      phoneRequired: false,
      blocked: null,
      methods: [],
      organisers: [],
      planOptions: [],
      canPay: true,
    });
    actor.stop();
  });
});

/** The server's words, which the payment screen shows as its payment error, for a payment that arrived after the hold ended (not in the spec). */
describe('late payment words', () => {
  it('say whether the tickets are the buyer’s or the payment was refunded', () => {
    expect(PAYMENT_MESSAGES.lateBooked).toBe(
      'Your payment arrived after your hold ended. The tickets were still available, so they are yours.',
    );
    expect(PAYMENT_MESSAGES.lateRefunded).toBe(
      'Your payment arrived after your hold ended and the tickets had been taken, so we have refunded it in full. If tickets are still available, you can reserve them again.',
    );
  });
});
