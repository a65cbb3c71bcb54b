/**
 * The instalment and Square charts with the app's calls: how a new plan card is saved
 * (create_setup_intent), with Stripe keyed the SetupIntent confirmed by Stripe.js with the card in
 * Stripe's form, else the card saved by the sandbox processor (its card form's fields);
 * pay_with_instalment, the redirect it may name; Square's
 * credentials, its card tokenised (the sandbox's fields, or Square's SDK card when keyed) and
 * pay-with-square, whose address error and hold loss come back as the charts expect them.
 */
import { fromPromise } from 'xstate';
import { SQUARE_SANDBOX_APP_ID, type BillingAddress, type RequestOf } from '../../../contract';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment';
import { instalmentMachine } from '../../../machines/instalment/instalment.machine';
import type { SavedCard, SetupConfirmation, StripeSetup } from '../../../machines/instalment/instalment.types';
import { INSTALMENT_MESSAGES } from '../../../contract/messages/instalment';
import { squareMachine, type SquareCredentials } from '../../../machines/square/square.machine';
import { failed } from '../../../contract/outcome';
import { CallFailed, callApi } from '../../api/client';
import { failureFrom, settled } from '../../api/outcome';
import { sandboxCardElement, squareCardElement } from './sandboxCardElement';
import { stripeSetupElement } from './stripeSetupElement';

/** Where Stripe would send the buyer back from a bank's check it cannot show in the page: the checkout, to pay again. */
const SETUP_RETURN_PATH = '/checkout/';

/** Stripe.js confirms the SetupIntent with the card in Stripe's form; rejects with Stripe's words. */
async function confirmSetupWithStripe(setup: StripeSetup): Promise<SetupConfirmation> {
  const form = stripeSetupElement.get();
  if (!form || form.clientSecret !== setup.client_secret) throw new Error(PAYMENT_MESSAGES.stripeRedirect);
  const { error, setupIntent } = await form.stripe.confirmSetup({
    elements: form.elements,
    redirect: 'if_required',
    confirmParams: { return_url: new URL(SETUP_RETURN_PATH, window.location.origin).href },
  });
  // Card fields left incomplete are marked inside the Element itself; the buyer corrects them there.
  if (error?.type === 'validation_error') return { status: 'incomplete' };
  if (error || !setupIntent) throw new Error(error?.message ?? INSTALMENT_MESSAGES.error);
  return { status: 'saved', setupIntentId: setupIntent.id };
}

/** The card form's refusal in its own words (a 4xx), else the fallback. */
function refusal(err: unknown, fallback: string): Error {
  return new Error(
    err instanceof CallFailed && err.serverMessage && err.status !== null && err.status < 500
      ? err.serverMessage
      : fallback,
  );
}

export function appInstalmentMachine(navigate: (url: string) => void) {
  return instalmentMachine.provide({
    actors: {
      createSetupIntent: fromPromise(() => settled(callApi('createPlanSetupIntent'))),
      confirmSetup: fromPromise<SetupConfirmation, StripeSetup>(({ input }) => confirmSetupWithStripe(input)),
      saveNewCard: fromPromise<SavedCard, void>(async () => {
        try {
          const saved = await callApi('saveSandboxCard', sandboxCardElement.get());
          sandboxCardElement.clear();
          return saved;
        } catch (err) {
          throw refusal(err, PAYMENT_MESSAGES.unableToPay);
        }
      }),
      payWithInstalment: fromPromise(({ input }: { input: RequestOf<'payWithInstalment'> }) =>
        settled(callApi('payWithInstalment', input)),
      ),
    },
    actions: { goToUrl: (_, params: { url: string }) => navigate(params.url) },
  });
}

export function appSquareMachine() {
  return squareMachine.provide({
    actors: {
      getSquareCredentials: fromPromise(() => callApi('getSquareCredentials')),
      tokeniseCard: fromPromise<string, SquareCredentials>(async ({ input }) => {
        if (input.app_id === SQUARE_SANDBOX_APP_ID) {
          try {
            const { token } = await callApi('tokeniseSandboxSquareCard', sandboxCardElement.get());
            sandboxCardElement.clear();
            return token;
          } catch (err) {
            throw refusal(err, PAYMENT_MESSAGES.unableToPay);
          }
        }
        const card = squareCardElement.get();
        if (!card) throw new Error(PAYMENT_MESSAGES.unableToPay);
        const result = await card.tokenize();
        if (result.status !== 'OK' || !result.token)
          throw new Error(result.errors?.[0]?.message ?? PAYMENT_MESSAGES.unableToPay);
        return result.token;
      }),
      payWithSquare: fromPromise(
        async ({ input }: { input: { billing_address_data: BillingAddress; source_id: string } }) => {
          try {
            return await callApi('payWithSquare', input);
          } catch (err) {
            const failure = failureFrom(err);
            if (failure.kind === 'holdLost') throw failure;
            // The address error rides in the refusal's body (spec 001 §7: response.addressError).
            const body =
              err instanceof CallFailed ? (err.body as { response?: { addressError?: string | null } } | null) : null;
            throw failed(body?.response?.addressError || PAYMENT_MESSAGES.unableToPay);
          }
        },
      ),
    },
  });
}
