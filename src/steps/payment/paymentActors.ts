/**
 * The payment chart with the app's calls. The card is confirmed by the processor the server
 * names (confirmCard.ts, in the payment screen's chunk): the sandbox processor's card page (the
 * browser goes there and comes back through /do/checkout/stripe_auth/), or Stripe's Payment
 * Element when keyed.
 */
import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import {
  COUNTRY_UK,
  checkCodeRefusalSchema,
  type AddressStart,
  type RequestOf,
  type ResponseOf,
} from '../../../contract';
import { ACCOUNT_MESSAGES } from '../../../contract/messages/account';
import { ADDRESS_MESSAGES } from '../../../contract/messages/address';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment';
import { paymentMachine } from '../../../machines/payment/payment.machine';
import { BUILT_METHODS, paymentSituation } from '../../../machines/payment/payment.rules';
import type { CardResult, PaymentSituation } from '../../../machines/payment/payment.types';
import { HOLD_LOST_ON_THE_WIRE, holdLost, refused } from '../../../contract/outcome';
import { CallFailed, callApi } from '../../api/client';
import { settled } from '../../api/outcome';
import { checkoutQuery } from '../../api/queries';
import { refreshUser } from '../refreshUser';
import { appInstalmentMachine, appSquareMachine } from './planActors';
import { appAddressMachine } from '../../components/address/addressActors';

type Prefill = NonNullable<ResponseOf<'getPaymentError'>['billing_address']>;

/**
 * Where the billing form starts: the saved address chosen before, or the billing address as the
 * sale knows it, named after the signed-in buyer (get_opoa_users' full_name: the last word the
 * last name) when it carries no name of its own.
 */
export function billingStartOf(prefill: Prefill, fullName: string): AddressStart {
  const words = fullName.split(/\s+/).filter(Boolean);
  const named =
    prefill.first_name || prefill.last_name || words.length < 2
      ? prefill
      : { ...prefill, first_name: words.slice(0, -1).join(' '), last_name: words.at(-1)! };
  const fields = {
    first_name: named.first_name,
    last_name: named.last_name,
    address_1: named.address_1,
    address_2: named.address_2,
    town: named.town,
    postcode: named.postcode,
    country: named.country || COUNTRY_UK,
    state: named.state,
  };
  const chosen = Number(prefill.selected_user_address_id);
  return { selected: Number.isInteger(chosen) && chosen > 0 ? chosen : 'new', fields };
}

/** The payment step's screen, the chunk the step loads to render, which also confirms the card. */
const paymentScreen = () => import('./PaymentStep');

export function appPaymentMachine(queryClient: QueryClient, navigate: (url: string) => void) {
  return paymentMachine.provide({
    actors: {
      loadPayment: fromPromise<PaymentSituation, void>(async () => {
        const [checkout, reply, opoa] = await Promise.all([
          queryClient.fetchQuery({ ...checkoutQuery(), staleTime: 0 }),
          callApi('getPaymentError').then(
            (r) => r,
            () => null,
          ),
          // The signed-in buyer's name, which the express account form starts from, and the paying
          // organiser's team when the buyer is one of them; without it the buyer types the name and
          // no team is named, so a failure is silent.
          callApi('getOpoaUsers', {}).then(
            (r) => r,
            () => null,
          ),
        ]);
        const error = reply?.payment_error ?? null;
        const fullName = opoa?.full_name.trim() ?? '';
        const opoaTeam = opoa?.opoa_users.map((u) => u.full_name) ?? [];
        const billing = {
          ...(reply?.billing_address ? { billingStart: billingStartOf(reply.billing_address, fullName) } : {}),
          ...(fullName ? { fullName } : {}),
          ...(opoaTeam.length > 0 ? { opoaTeam } : {}),
        };
        const situation = { ...paymentSituation(checkout, error), ...billing };
        // The bank payment is created as the step loads; if it cannot be, the bank transfer is not offered.
        if (!situation.offered.includes('truelayer') || situation.paid || situation.free || situation.blockedBy)
          return situation;
        const created = await callApi('createTruelayerPayment', {}).then(
          () => true,
          () => false,
        );
        return created
          ? situation
          : {
              ...paymentSituation(
                checkout,
                error,
                BUILT_METHODS.filter((m) => m !== 'truelayer'),
              ),
              ...billing,
            };
      }),
      claimFreeTickets: fromPromise(({ input }: { input: RequestOf<'claimFreeTickets'> }) =>
        callApi('claimFreeTickets', input),
      ),
      /** Refused with 'sign_in' when the e-mail has an account: the step asks for its one-time code. */
      setAccountDetails: fromPromise(({ input }: { input: RequestOf<'setAccountDetails'> }) =>
        settled(callApi('setAccountDetails', input), PAYMENT_MESSAGES.unableToPay),
      ),
      sendOneTimeCode: fromPromise(async ({ input }: { input: { email: string } }) => {
        await settled(callApi('sendOneTimeCode', input), ACCOUNT_MESSAGES.sendFailed);
      }),
      checkOneTimeCode: fromPromise(async ({ input }: { input: { email: string; code: string } }) => {
        try {
          await callApi('checkOneTimeCode', input);
        } catch (err) {
          const refusal = err instanceof CallFailed ? checkCodeRefusalSchema.safeParse(err.body) : null;
          if (refusal?.success) {
            const r = refusal.data;
            throw r.type === HOLD_LOST_ON_THE_WIRE ? holdLost(r.message.error) : refused(r.message);
          }
          return settled(Promise.reject(err), ACCOUNT_MESSAGES.checkFailed);
        }
        // Signed in: the header and the next steps know the buyer.
        await refreshUser(queryClient).catch(() => null);
      }),
      setBillingAddress: fromPromise(({ input }: { input: RequestOf<'setBillingAddress'> }) =>
        settled(callApi('setBillingAddress', input), ADDRESS_MESSAGES.unableToFindBilling),
      ),
      getStripeToken: fromPromise(() => callApi('getStripeToken')),
      confirmCard: fromPromise<CardResult, ResponseOf<'getStripeToken'>>(async ({ input, signal }) =>
        (await paymentScreen()).confirmCard(input, navigate, signal),
      ),
      payWithTruelayer: fromPromise(({ input }: { input: RequestOf<'payWithTruelayer'> }) =>
        callApi('payWithTruelayer', input),
      ),
      instalment: appInstalmentMachine(navigate),
      square: appSquareMachine(),
      billingAddress: appAddressMachine(queryClient),
    },
    actions: {
      goToBank: (_, params) => navigate(params.url),
    },
  });
}
