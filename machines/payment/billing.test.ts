import { createActor, fromPromise, waitFor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { viewPayment } from './payment.connect';
import { paymentMachine } from './payment.machine';
import type { PaymentSituation } from './payment.types';

const situation: PaymentSituation = {
  paid: false,
  blockedBy: null,
  free: false,
  express: false,
  phoneRequired: false,
  offered: ['stripe'],
  autoMethod: 'stripe',
  marketingOrganisers: [],
  email: '',
  paymentError: 'Your card was declined.',
  planOptions: [],
};
const GIVEN = { first_name: 'Tom', last_name: 'Okafor', address_1: '4 Mill Lane', address_2: '', town: 'Cirencester', postcode: 'GL7 1AB', state: '', country_code: 'GB' };

async function formOnLoading(s: PaymentSituation) {
  const actor = createActor(paymentMachine.provide({ actors: { loadPayment: fromPromise(async () => s) } })).start();
  const snapshot = await waitFor(actor, (x) => x.matches('ready'));
  actor.stop();
  return viewPayment(snapshot).form;
}
const formAfterLoading = async (s: PaymentSituation) => (await formOnLoading(s)).address;

describe('the billing address the form starts from', () => {
  it('is the one the sale knows (after a declined card, or given as the delivery address)', async () => {
    expect(await formAfterLoading({ ...situation, billingAddress: GIVEN })).toEqual(GIVEN);
  });

  it('is empty, in the United Kingdom, when the sale knows none', async () => {
    expect(await formAfterLoading(situation)).toEqual({ ...GIVEN, first_name: '', last_name: '', address_1: '', town: '', postcode: '' });
  });
});

describe('the express account form', () => {
  it("starts from the signed-in buyer's full name (get_opoa_users), and is empty for a buyer no one has signed in", async () => {
    expect((await formOnLoading({ ...situation, express: true, fullName: 'Tom Okafor' })).fullName).toBe('Tom Okafor');
    expect((await formOnLoading({ ...situation, express: true })).fullName).toBe('');
  });
});
