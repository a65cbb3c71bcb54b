/**
 * Stripe's Payment Element for one PaymentIntent, in its own chunk: Stripe.js is fetched from
 * js.stripe.com only when this renders. Paying confirms with Stripe; a completed payment (or a
 * 3-D Secure check) leaves for /do/checkout/stripe_auth/, whose answer the step reads on return.
 * A refusal ends the confirmation with Stripe's message, shown as the payment error.
 */
import { useMemo, useState } from 'react';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { LoadingButton } from '../../../ui/LoadingButton';
import type { StripeSession } from './stripeSession';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment';
import { appearanceFromTokens, stripeFor } from './stripeJs';
import { t } from '../../../i18n/runtime.ts';

/** Where Stripe sends the buyer back after a completed payment or a security check. */
export const STRIPE_RETURN_PATH = '/do/checkout/stripe_auth/';

function CardForm({ session, payLabel }: { session: StripeSession; payLabel: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!stripe || !elements || busy) return;
    setBusy(true);
    const { error } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: new URL(STRIPE_RETURN_PATH, window.location.origin).href },
    });
    setBusy(false);
    // Card fields left incomplete are marked inside the Element itself; the buyer corrects them here.
    if (error?.type === 'validation_error') return;
    session.finish({ status: 'failed', message: error?.message ?? null });
  };
  return (
    <div className="stack payment__stripe">
      <PaymentElement
        onReady={() => setShown(true)}
        onLoadError={() => session.fail(new Error(PAYMENT_MESSAGES.stripeRedirect))}
        options={{ layout: 'tabs' }}
      />
      <LoadingButton loading={busy || !shown} onClick={() => void confirm()} className="button--block button--large">
        {busy ? t('payment.confirming') : payLabel}
      </LoadingButton>
    </div>
  );
}

export default function StripeCard({ session, payLabel }: { session: StripeSession; payLabel: string }) {
  const stripe = useMemo(
    () =>
      stripeFor(session.publicKey).then(
        (loaded) => {
          if (!loaded) session.fail(new Error(PAYMENT_MESSAGES.stripeRedirect));
          return loaded;
        },
        () => {
          session.fail(new Error(PAYMENT_MESSAGES.stripeRedirect));
          return null;
        },
      ),
    [session],
  );
  const appearance = useMemo(() => appearanceFromTokens(), []);
  return (
    <Elements stripe={stripe} options={{ clientSecret: session.clientSecret, appearance }}>
      <CardForm session={session} payLabel={payLabel} />
    </Elements>
  );
}
