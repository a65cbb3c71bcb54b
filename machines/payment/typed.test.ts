/**
 * What the buyer typed on the payment step reaches the server without the spaces around it (a name
 * pasted with a trailing space, a phone number typed with a leading one), and a field holding only
 * spaces is an empty one: it says nothing when left, and sends no contact number.
 */
import { createActor, fromPromise, waitFor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../contract/messages/checkout';
import { PAYMENT_MESSAGES } from '../../contract/messages/payment';
import { refused } from '../../contract/outcome';
import { addressMachine } from '../address/address.machine';
import { viewPayment } from './payment.connect';
import { paymentMachine } from './payment.machine';
import type { CardResult, PaymentSituation } from './payment.types';
import type { PossibleAddress, RequestOf, ResponseOf, SavedAddress } from '../../contract';

const situation: PaymentSituation = {
  paid: false,
  blockedBy: null,
  free: false,
  express: true,
  phoneRequired: false,
  offered: ['stripe'],
  autoMethod: 'stripe',
  marketingOrganisers: [],
  email: '',
  paymentError: null,
  planOptions: [],
};
const ADDRESS = {
  selected_user_address_id: 'new',
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '4 Mill Lane',
  address_2: '',
  town: 'Cirencester',
  postcode: 'GL7 1AB',
  country: '1',
  state: '',
} as const;

/**
 * The payment chart with calls that record what they were sent. `accountDetails` answers the
 * account details (by default, taken); `failFirst` names calls whose first try fails.
 */
function start(s: PaymentSituation, { accountDetails = (): void => undefined, failFirst = [] as string[] } = {}) {
  const sent: Record<string, unknown[]> = {};
  const call = <I, T>(name: string, answer: (input: I) => T) =>
    fromPromise<T, I>(async ({ input }) => {
      (sent[name] ??= []).push(input);
      if (failFirst.includes(name) && sent[name]!.length === 1) throw new Error('503');
      return answer(input);
    });
  const billingAddress = addressMachine.provide({
    actors: {
      loadSavedAddresses: fromPromise(async (): Promise<SavedAddress[]> => []),
      lookupAddress: fromPromise(async (): Promise<PossibleAddress[]> => []),
      deleteAddress: fromPromise(async (): Promise<unknown> => undefined),
      submitAddress: fromPromise(async (): Promise<unknown> => undefined),
    },
  });
  const actor = createActor(
    paymentMachine.provide({
      actors: {
        loadPayment: call('loadPayment', (): PaymentSituation => s),
        billingAddress,
        setAccountDetails: call('setAccountDetails', (_: RequestOf<'setAccountDetails'>) => {
          accountDetails();
          return {} as ResponseOf<'setAccountDetails'>;
        }),
        claimFreeTickets: call(
          'claimFreeTickets',
          (_: RequestOf<'claimFreeTickets'>) => ({}) as ResponseOf<'claimFreeTickets'>,
        ),
        sendOneTimeCode: call('sendOneTimeCode', (_: { email: string }): void => undefined),
        setBillingAddress: call(
          'setBillingAddress',
          (_: RequestOf<'setBillingAddress'>): ResponseOf<'setBillingAddress'> => ({
            ...ADDRESS,
            country_code: 'GB',
            id: 1,
          }),
        ),
        getStripeToken: call('getStripeToken', (): ResponseOf<'getStripeToken'> => ({
          public_key: 'pk',
          client_secret: 'cs',
        })),
        confirmCard: call('confirmCard', (_: ResponseOf<'getStripeToken'>): CardResult => ({ status: 'succeeded' })),
        payWithTruelayer: call(
          'payWithTruelayer',
          (_: RequestOf<'payWithTruelayer'>): ResponseOf<'payWithTruelayer'> => ({ auth_url: '/sandbox/bank/' }),
        ),
      },
    }),
  ).start();
  return { actor, sent };
}

const type = (actor: ReturnType<typeof start>['actor'], fields: Record<string, string>) => {
  for (const [field, value] of Object.entries(fields))
    actor.send({ type: 'FIELD_CHANGED', field: field as 'fullName', value });
};

describe('what the buyer typed on the payment step', () => {
  it('is sent as the account details without the spaces around it', async () => {
    const { actor, sent } = start(situation);
    await waitFor(actor, (x) => x.matches({ ready: 'account' }));
    type(actor, { fullName: ' Ann Lee  ', email: '  ann@example.com ', contactNumber: ' 07700 900123 ' });
    actor.send({ type: 'PAY_CLICKED' });
    await waitFor(actor, () => (sent.getStripeToken ?? []).length > 0);
    expect(sent.setAccountDetails).toEqual([
      {
        fullname: 'Ann Lee',
        email: 'ann@example.com',
        contact_number: '07700 900123',
        organiser_subscribed_marketing: {},
        ct_subscribed: 'false',
      },
    ]);
    actor.stop();
  });

  it('sends no contact number when the field holds only spaces', async () => {
    const { actor, sent } = start(situation);
    await waitFor(actor, (x) => x.matches({ ready: 'account' }));
    type(actor, { fullName: 'Ann Lee', email: 'ann@example.com', contactNumber: '   ' });
    actor.send({ type: 'PAY_CLICKED' });
    await waitFor(actor, () => (sent.getStripeToken ?? []).length > 0);
    expect(sent.setAccountDetails).toEqual([
      { fullname: 'Ann Lee', email: 'ann@example.com', organiser_subscribed_marketing: {}, ct_subscribed: 'false' },
    ]);
    actor.stop();
  });

  it('sends the one-time code to the e-mail without its spaces when the e-mail has an account', async () => {
    const { actor, sent } = start(situation, {
      accountDetails: () => {
        throw refused('That e-mail has an account.', 'sign_in');
      },
    });
    await waitFor(actor, (x) => x.matches({ ready: 'account' }));
    type(actor, { fullName: 'Ann Lee', email: ' ann@example.com  ' });
    actor.send({ type: 'PAY_CLICKED' });
    await waitFor(actor, () => (sent.sendOneTimeCode ?? []).length > 0);
    expect(sent.sendOneTimeCode).toEqual([{ email: 'ann@example.com' }]);
    actor.stop();
  });

  it.each([
    ['a card', 'stripe', 'setBillingAddress'],
    ['a bank transfer', 'truelayer', 'payWithTruelayer'],
  ] as const)(
    'sends the contact number without its spaces with the billing address, paying by %s',
    async (_, method, call) => {
      const { actor, sent } = start({
        ...situation,
        express: false,
        offered: ['stripe', 'truelayer'],
        autoMethod: method,
      });
      await waitFor(actor, (x) => x.matches({ ready: 'billing' }));
      type(actor, { contactNumber: '  07700 900123 ' });
      actor.send({ type: 'ADDRESS_GIVEN', outcome: { address: ADDRESS } });
      await waitFor(actor, () => (sent[call] ?? []).length > 0);
      expect(sent.setBillingAddress).toEqual([{ address: ADDRESS, contact_number: '07700 900123' }]);
      if (call === 'payWithTruelayer') expect(sent.payWithTruelayer).toEqual([{ contact_number: '07700 900123' }]);
      actor.stop();
    },
  );

  it('sends no contact number with the billing address when the field holds only spaces', async () => {
    const { actor, sent } = start({
      ...situation,
      express: false,
      offered: ['stripe', 'truelayer'],
      autoMethod: 'truelayer',
    });
    await waitFor(actor, (x) => x.matches({ ready: 'billing' }));
    type(actor, { contactNumber: '    ' });
    actor.send({ type: 'ADDRESS_GIVEN', outcome: { address: ADDRESS } });
    await waitFor(actor, () => (sent.payWithTruelayer ?? []).length > 0);
    expect(sent.setBillingAddress).toEqual([{ address: ADDRESS }]);
    expect(sent.payWithTruelayer).toEqual([{}]);
    actor.stop();
  });

  it('starts from empty fields when the sale knows no e-mail', async () => {
    const { actor } = start(situation);
    const ready = await waitFor(actor, (x) => x.matches({ ready: 'account' }));
    expect(viewPayment(ready).form).toMatchObject({ fullName: '', email: '', contactNumber: '' });
    actor.stop();
  });

  it('says nothing about a field left empty or holding only spaces, and at once what is wrong with one left filled', async () => {
    const { actor } = start(situation);
    await waitFor(actor, (x) => x.matches({ ready: 'account' }));
    actor.send({ type: 'FIELD_LEFT', field: 'email' });
    type(actor, { email: '   ' });
    actor.send({ type: 'FIELD_LEFT', field: 'email' });
    expect(viewPayment(actor.getSnapshot()).problems).toEqual({});
    type(actor, { email: 'ann@' });
    actor.send({ type: 'FIELD_LEFT', field: 'email' });
    expect(viewPayment(actor.getSnapshot()).problems.email).toBeTruthy();
    actor.stop();
  });
});

describe('a call of the payment step that fails', () => {
  it('reading the step: says so and reads it again on Retry', async () => {
    const { actor, sent } = start(situation, { failFirst: ['loadPayment'] });
    const failed = await waitFor(actor, (x) => viewPayment(x).canRetry);
    expect(viewPayment(failed).error).toBe(MESSAGES.unableToGetCheckout);
    actor.send({ type: 'RETRY_CLICKED' });
    const ready = await waitFor(actor, (x) => x.matches({ ready: 'account' }));
    expect(viewPayment(ready).error).toBeNull();
    expect(sent.loadPayment).toHaveLength(2);
    actor.stop();
  });

  it('claiming free tickets: says so and claims again on Retry, then the step is done', async () => {
    const { actor, sent } = start({ ...situation, free: true }, { failFirst: ['claimFreeTickets'] });
    const failed = await waitFor(actor, (x) => viewPayment(x).canRetry);
    expect(viewPayment(failed).error).toBe(PAYMENT_MESSAGES.claimFree);
    actor.send({ type: 'RETRY_CLICKED' });
    const done = await waitFor(actor, (x) => x.status === 'done');
    expect(done.output).toEqual({ kind: 'paid' });
    expect(sent.claimFreeTickets).toHaveLength(2);
  });

  it.each([
    [
      'refused for another reason than an account: the server’s words',
      () => refused('That name is too long.'),
      'That name is too long.',
    ],
    ['failing without words: the step’s own', () => new Error(''), PAYMENT_MESSAGES.unableToPay],
    ['refused with no words: the step’s own', () => refused(''), PAYMENT_MESSAGES.unableToPay],
    [
      'refused with the server’s words on the app’s error: those words',
      () => Object.assign(new Error('409'), { serverMessage: 'That e-mail cannot be used.' }),
      'That e-mail cannot be used.',
    ],
    [
      'failing with no server words on the app’s error: the step’s own, not the status',
      () => Object.assign(new Error('500'), { serverMessage: null }),
      PAYMENT_MESSAGES.unableToPay,
    ],
    [
      'failing with empty server words on the app’s error: the step’s own',
      () => Object.assign(new Error('500'), { serverMessage: '' }),
      PAYMENT_MESSAGES.unableToPay,
    ],
    ['failing with words of its own: those words', () => new Error('The network is down.'), 'The network is down.'],
    ['failing with something not an error: the step’s own', () => 'down', PAYMENT_MESSAGES.unableToPay],
  ])('sending the account details, %s, back on the form with no sign-in', async (_, error, shown) => {
    const { actor, sent } = start(situation, {
      accountDetails: () => {
        throw error();
      },
    });
    await waitFor(actor, (x) => x.matches({ ready: 'account' }));
    type(actor, { fullName: 'Ann Lee', email: 'ann@example.com' });
    actor.send({ type: 'PAY_CLICKED' });
    const back = await waitFor(actor, (x) => viewPayment(x).error !== null);
    expect(back.matches({ ready: 'account' })).toBe(true);
    expect(viewPayment(back)).toMatchObject({ error: shown, signIn: null });
    expect(sent.sendOneTimeCode).toBeUndefined();
    actor.stop();
  });
});
