/**
 * Stripe's card form for a plan's new card (Stripe keyed), in its own chunk: Stripe.js is fetched
 * from js.stripe.com only when this renders. It shows the Payment Element for the SetupIntent the
 * instalment chart holds and hands Stripe.js and the Elements to the actor that confirms it; paying
 * sends the chart CARD_SUBMITTED. A form Stripe cannot load or show sends CARD_FORM_FAILED.
 */
import { useEffect, useMemo, useState } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { instalmentSenders, viewInstalment } from '../../../machines/instalment/instalment.connect';
import type { instalmentMachine } from '../../../machines/instalment/instalment.machine';
import type { StripeSetup } from '../../../machines/instalment/instalment.types';
import { LoadingButton } from '../../../ui/LoadingButton';
import { appearanceFromTokens, stripeFor } from './stripeJs';
import { stripeSetupElement } from './stripeSetupElement';
import { t } from '../../../i18n/runtime.ts';

type Senders = ReturnType<typeof instalmentSenders>;

function SetupForm({
  clientSecret,
  confirming,
  payLabel,
  send,
}: {
  clientSecret: string;
  confirming: boolean;
  payLabel: string;
  send: Senders;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!stripe || !elements) return;
    stripeSetupElement.set({ stripe, elements, clientSecret });
    return () => stripeSetupElement.set(null);
  }, [stripe, elements, clientSecret]);
  return (
    <div className="stack payment__stripe">
      <PaymentElement onReady={() => setShown(true)} onLoadError={send.cardFormFailed} options={{ layout: 'tabs' }} />
      <LoadingButton loading={confirming || !shown} onClick={send.submitCard} className="button--block button--large">
        {confirming ? t('payment.savingCard') : payLabel}
      </LoadingButton>
    </div>
  );
}

function SetupElements({
  setup,
  confirming,
  payLabel,
  send,
}: {
  setup: StripeSetup;
  confirming: boolean;
  payLabel: string;
  send: Senders;
}) {
  const stripe = useMemo(
    () =>
      stripeFor(setup.public_key).then(
        (loaded) => {
          if (!loaded) send.cardFormFailed();
          return loaded;
        },
        () => {
          send.cardFormFailed();
          return null;
        },
      ),
    // The senders are made afresh on each render; the form is set up once per key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [setup.public_key],
  );
  const appearance = useMemo(() => appearanceFromTokens(), []);
  return (
    <Elements stripe={stripe} options={{ clientSecret: setup.client_secret, appearance }}>
      <SetupForm clientSecret={setup.client_secret} confirming={confirming} payLabel={payLabel} send={send} />
    </Elements>
  );
}

export default function StripeSetupCard({
  actor,
  payLabel,
}: {
  actor: ActorRefFrom<typeof instalmentMachine>;
  payLabel: string;
}) {
  const view = useSelector(actor, viewInstalment);
  const send = instalmentSenders((event) => actor.send(event));
  if (!view.stripeSetup) return null;
  // A new SetupIntent (another attempt) is a new form: Elements keeps the secret it was made with.
  return (
    <SetupElements
      key={view.stripeSetup.client_secret}
      setup={view.stripeSetup}
      confirming={view.confirmingCard}
      payLabel={payLabel}
      send={send}
    />
  );
}
