/**
 * The billing address on the payment step is the shared address form (machines/address) run as
 * the payment chart's child: it starts from what the sale knows, is asked by Pay, and after a
 * declined card starts again from what the buyer gave.
 */
import { createActor, fromPromise, waitFor, type ActorRefFrom } from 'xstate';
import { describe, expect, it } from 'vitest';
import { viewAddress } from '../address/address.connect';
import { addressMachine } from '../address/address.machine';
import { viewPayment } from './payment.connect';
import { paymentMachine } from './payment.machine';
import type { CardResult, PaymentSituation } from './payment.types';
import type { AddressFields, PossibleAddress, RequestOf, SavedAddress } from '../../contract';

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
const GIVEN: AddressFields = {
  first_name: 'Tom',
  last_name: 'Okafor',
  address_1: '4 Mill Lane',
  address_2: '',
  town: 'Cirencester',
  postcode: 'GL7 1AB',
  state: '',
  country: '1',
};
const EMPTY: AddressFields = {
  first_name: '',
  last_name: '',
  address_1: '',
  address_2: '',
  town: '',
  postcode: '',
  state: '',
  country: '1',
};
const SAVED: SavedAddress[] = [
  { id: 7, first_name: 'Tom', last_name: 'Okafor', full_address: '4 Mill Lane, Cirencester, GL7 1AB, United Kingdom' },
  { id: 3, first_name: 'Tom', last_name: 'Okafor', full_address: '1 Quay St, Plymouth, PL1 2LD, United Kingdom' },
];
const BILLED = {
  first_name: 'Tom',
  last_name: 'Okafor',
  address_1: '1 Quay St',
  address_2: '',
  town: 'Plymouth',
  postcode: 'PL1 2LD',
  state: '',
  country_code: 'GB',
  id: 1,
};

function start(s: PaymentSituation, saved: SavedAddress[] = [], sent: RequestOf<'setBillingAddress'>[] = []) {
  const billingAddress = addressMachine.provide({
    actors: {
      loadSavedAddresses: fromPromise(async () => saved),
      lookupAddress: fromPromise(async (): Promise<PossibleAddress[]> => []),
      deleteAddress: fromPromise(async (): Promise<unknown> => undefined),
      submitAddress: fromPromise(async (): Promise<unknown> => undefined),
    },
  });
  return createActor(
    paymentMachine.provide({
      actors: {
        loadPayment: fromPromise(async () => s),
        billingAddress,
        setBillingAddress: fromPromise(async ({ input }: { input: RequestOf<'setBillingAddress'> }) => {
          sent.push(input);
          return BILLED;
        }),
        getStripeToken: fromPromise(async () => ({ public_key: 'pk', client_secret: 'cs' })),
        confirmCard: fromPromise(async (): Promise<CardResult> => ({
          status: 'failed',
          message: 'Your card was declined.',
        })),
      },
    }),
  ).start();
}

type Payment = ReturnType<typeof start>;
const billingForm = async (actor: Payment) => {
  const ready = await waitFor(actor, (x) => x.matches({ ready: 'billing' }), { timeout: 2000 });
  const child = ready.children.billingAddress as ActorRefFrom<typeof addressMachine>;
  return viewAddress(await waitFor(child, (x) => !x.hasTag('loading'), { timeout: 2000 }), { giftVouchers: false });
};

describe('the billing address the form starts from', () => {
  it('is the one the sale knows (after a declined card, or given as the delivery address), in its fields', async () => {
    const actor = start({ ...situation, billingStart: { selected: 'new', fields: GIVEN } });
    const form = await billingForm(actor);
    expect(form.fields).toEqual(GIVEN);
    expect(form.fieldsShown).toBe(true);
    actor.stop();
  });

  it('is the finder, for a buyer the sale knows nothing of; the newest saved address for one who has some', async () => {
    const nothing = start(situation);
    expect(await billingForm(nothing)).toMatchObject({ fields: EMPTY, finderShown: true, fieldsShown: false });
    nothing.stop();
    const named = start(
      { ...situation, billingStart: { selected: 'new', fields: { ...EMPTY, first_name: 'Tom', last_name: 'Okafor' } } },
      SAVED,
    );
    expect(await billingForm(named)).toMatchObject({ selected: 7, savedIds: [7, 3] });
    named.stop();
  });

  it('is the saved address the buyer chose before', async () => {
    const actor = start({ ...situation, billingStart: { selected: 3, fields: EMPTY } }, SAVED);
    expect((await billingForm(actor)).selected).toBe(3);
    actor.stop();
  });
});

describe('Pay and the billing address', () => {
  it('shows what the address needs and sends nothing; a valid address is sent, and after a declined card the form starts from it', async () => {
    const sent: RequestOf<'setBillingAddress'>[] = [];
    const actor = start(situation, SAVED, sent);
    await billingForm(actor);
    actor.getSnapshot().children.billingAddress!.send({ type: 'SAVED_ADDRESS_CHOSEN', selection: 'new' });
    actor.send({ type: 'PAY_CLICKED' });
    const asked = await billingForm(actor);
    expect(asked.problems).toMatchObject({
      form: 'Please complete your address',
      postcode: 'Type your postcode or zip code',
    });
    expect(sent).toEqual([]);

    // The other saved address, and a contact number that is not one: nothing is sent yet.
    actor.getSnapshot().children.billingAddress!.send({ type: 'SAVED_ADDRESS_CHOSEN', selection: 3 });
    actor.send({ type: 'FIELD_CHANGED', field: 'contactNumber', value: '12ab' });
    actor.send({ type: 'PAY_CLICKED' });
    expect(viewPayment(actor.getSnapshot()).problems).toEqual({ contactNumber: 'Type a valid phone number' });
    expect(sent).toEqual([]);

    actor.send({ type: 'FIELD_CHANGED', field: 'contactNumber', value: '07700 900123' });
    actor.send({ type: 'PAY_CLICKED' });
    await waitFor(actor, (x) => x.matches('ready') && viewPayment(x).error === 'Your card was declined.', {
      timeout: 2000,
    });
    expect(sent).toEqual([{ address: { selected_user_address_id: '3' }, contact_number: '07700 900123' }]);
    expect((await billingForm(actor)).selected).toBe(3);
    actor.stop();
  });
});

describe('the express account form', () => {
  it("starts from the signed-in buyer's full name (get_opoa_users), and is empty for a buyer no one has signed in; it has no billing address", async () => {
    const named = start({ ...situation, express: true, fullName: 'Tom Okafor' });
    const snapshot = await waitFor(named, (x) => x.matches('ready'), { timeout: 2000 });
    expect(viewPayment(snapshot).form.fullName).toBe('Tom Okafor');
    expect(viewPayment(snapshot).billing).toBeNull();
    expect(snapshot.children.billingAddress).toBeUndefined();
    named.stop();
    const nobody = start({ ...situation, express: true });
    expect(viewPayment(await waitFor(nobody, (x) => x.matches('ready'), { timeout: 2000 })).form.fullName).toBe('');
    nobody.stop();
  });
});
