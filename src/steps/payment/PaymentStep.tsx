import { useStepChild } from '../useStepChild';
import { Field, onLeaving } from '../../components/Field';
import { lazy, Suspense, useSyncExternalStore, type FormEvent, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { formatMoney } from '../../../contract/money';
import { paymentSenders, viewPayment, type PaymentView } from '../../../machines/payment/payment.connect';
import type { paymentMachine } from '../../../machines/payment/payment.machine';
import { PAYMENT_TITLES } from '../../../contract/messages/payment';
import type { squareMachine } from '../../../machines/square/square.machine';
import type { instalmentMachine } from '../../../machines/instalment/instalment.machine';
import { viewInstalment } from '../../../machines/instalment/instalment.connect';
import type { addressMachine } from '../../../machines/address/address.machine';
import { Alert } from '../../../ui/Alert';
import { activeIntlLocale, t } from '../../../i18n/runtime.ts';
import { LoadingButton } from '../../../ui/LoadingButton';
import { Spinner } from '../../../ui/Spinner';
import { useCheckoutData } from '../../app/checkoutContext';
import { StepLayout } from '../StepLayout';
import { BillingAddress } from './BillingAddress';
import { stripeSessions } from './stripeSession';
import { InstalmentPlan } from './InstalmentPlan';
import { SquareCard } from './SquareCard';
import type { Checkout } from '../../../contract';

/** For the payment chart's confirmation, which this screen's chunk carries (see paymentActors.ts). */
export { confirmCard } from './confirmCard';
import './payment.css';
import { rich } from '../../../ui/rich.tsx';

/** Stripe's Payment Element and Stripe.js: fetched only when Stripe takes the card. */
const StripeCard = lazy(() => import('./StripeCard'));
/** Stripe's form for a plan's new card: fetched only when Stripe saves the card. */
const StripeSetupCard = lazy(() => import('./StripeSetupCard'));

type PaymentActor = ActorRefFrom<typeof paymentMachine>;
type Senders = ReturnType<typeof paymentSenders>;

function TextField({
  label,
  value,
  error,
  onChange,
  onLeave,
  type = 'text',
  autoComplete,
  hint,
  required,
}: {
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
  /** The buyer left the field: the chart checks what was typed. */
  onLeave?: () => void;
  type?: 'text' | 'email' | 'tel';
  autoComplete: string;
  hint?: string;
  required?: boolean;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <input
          {...control}
          className="input"
          type={type}
          autoComplete={autoComplete}
          value={value}
          required={required}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onLeave ? onLeaving(onLeave) : undefined}
        />
      )}
    </Field>
  );
}

function ExpressDetails({ view, send }: { view: PaymentView; send: Senders }) {
  return (
    <fieldset className="payment__fieldset" disabled={view.paying}>
      <legend className="section-title">{t('payment.yourDetails')}</legend>
      <TextField
        label={t('payment.fullNameLabel')}
        autoComplete="name"
        value={view.form.fullName}
        error={view.problems.fullName}
        onChange={(v) => send.change('fullName', v)}
        onLeave={() => send.leave('fullName')}
        required
      />
      <TextField
        label={t('payment.emailLabel')}
        type="email"
        autoComplete="email"
        value={view.form.email}
        error={view.problems.email}
        onChange={(v) => send.change('email', v)}
        onLeave={() => send.leave('email')}
        required
      />
      <div className="payment__boxes">
        {view.organisers.map((o) => (
          <label key={o.id} className="payment__box">
            <input type="checkbox" checked={o.checked} onChange={() => send.toggleOrganiser(o.id)} />
            <span>{o.message}</span>
          </label>
        ))}
        <label className="payment__box">
          <input type="checkbox" checked={view.form.newsletter} onChange={send.toggleNewsletter} />
          <span>{t('payment.newsletter')}</span>
        </label>
      </div>
    </fieldset>
  );
}

/** The e-mail has an account: the code sent to it signs the buyer in, right here. */
function AccountSignIn({ view, send }: { view: PaymentView; send: Senders }) {
  const signIn = view.signIn!;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (signIn.canVerify) send.verify();
  };
  return (
    <form className="card stack payment" onSubmit={onSubmit} noValidate>
      {view.error ? <Alert type="info">{view.error}</Alert> : null}
      <p>
        {rich(
          signIn.busy && !signIn.code ? 'payment.sendingCodeTo' : 'payment.codeSentTo',
          { email: signIn.email },
          { strong: (text) => <strong>{text}</strong> },
        )}
      </p>
      <Field label={t('login.code')} hint={t('login.codeHint')} error={signIn.error} alert>
        {(control) => (
          <input
            {...control}
            className="input"
            type="text"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            value={signIn.code}
            readOnly={signIn.busy}
            onChange={(e) => send.changeCode(e.target.value)}
          />
        )}
      </Field>
      <LoadingButton type="submit" loading={signIn.busy} disabled={!signIn.canVerify} className="button--block">
        {t('login.verify')}
      </LoadingButton>
      <div className="payment__signin-links">
        <button type="button" className="link-button" onClick={send.useAnotherEmail} disabled={signIn.busy}>
          {t('payment.useAnotherEmail')}
        </button>
        <button type="button" className="link-button" onClick={send.resend} disabled={signIn.busy}>
          {t('login.resend')}
        </button>
      </div>
    </form>
  );
}

function MethodChoice({ view, send }: { view: PaymentView; send: Senders }) {
  if (view.noMethod) return <Alert type="warning">{view.noMethod}</Alert>;
  if (view.methods.length === 0) return null;
  return (
    <fieldset className="payment__fieldset" disabled={view.paying}>
      <legend className="section-title">{t('payment.howToPay')}</legend>
      <div className="choice-group">
        {view.methods.map((m) => (
          <label key={m.method} className={`choice${m.chosen ? ' choice--selected' : ''}`}>
            <input type="radio" name="payment-method" checked={m.chosen} onChange={() => send.chooseMethod(m.method)} />
            <span>{m.label}</span>
          </label>
        ))}
      </div>
      {view.problems.method ? (
        <span className="field__error" role="alert">
          {view.problems.method}
        </span>
      ) : null}
    </fieldset>
  );
}

function PaymentForm({
  actor,
  total,
  checkout,
}: {
  actor: PaymentActor;
  total: string | null;
  checkout: Checkout | undefined;
}) {
  const view = useSelector(actor, viewPayment);
  const squareRef = useSelector(actor, (s) => s.children.square) as ActorRefFrom<typeof squareMachine> | undefined;
  const billingRef = useSelector(actor, (s) => s.children.billingAddress) as
    ActorRefFrom<typeof addressMachine> | undefined;
  const planRef = useSelector(actor, (s) => s.children.instalment) as
    ActorRefFrom<typeof instalmentMachine> | undefined;
  const planTakesCard = useSelector(planRef, (s) => (s ? viewInstalment(s).takingCard : false));
  const send = paymentSenders((event) => actor.send(event));
  const stripe = useSyncExternalStore(stripeSessions.subscribe, stripeSessions.get);
  const bank = view.method === 'truelayer';
  // A plan takes its first instalment today: the button says how much.
  const firstInstalment =
    view.method === 'instalment' && view.form.plan.option
      ? checkout?.payment_plan_schedule_options[view.form.plan.option]?.schedule[0]
      : undefined;
  const payLabel =
    firstInstalment && checkout
      ? t('payment.payToday', { amount: formatMoney(firstInstalment.value, checkout.currency.code) })
      : t('payment.pay', { amount: total ?? 'none', bank: bank ? 'yes' : 'no' });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send.pay();
  };
  let body: ReactNode;
  if (view.loading) {
    body = (
      <div className="card step--centred">
        <Spinner size="large" label={t('ui.loading')} />
      </div>
    );
  } else if (view.blocked) {
    body = (
      <div className="card">
        <Alert type="warning">{view.blocked}</Alert>
      </div>
    );
  } else if (view.claiming || view.free) {
    body = (
      <div className="card stack payment__claim">
        {view.error ? (
          <>
            <Alert type="error">{view.error}</Alert>
            <button type="button" className="button button--block" onClick={send.retry}>
              {t('payment.tryAgain')}
            </button>
          </>
        ) : (
          <p className="payment__working">
            <Spinner size="medium" /> {t('payment.freeClaiming')}
          </p>
        )}
      </div>
    );
  } else if (view.signIn) {
    body = <AccountSignIn view={view} send={send} />;
  } else if (view.canRetry) {
    body = (
      <div className="card stack">
        {view.error ? <Alert type="error">{view.error}</Alert> : null}
        <button type="button" className="button button--block" onClick={send.retry}>
          {t('payment.tryAgain')}
        </button>
      </div>
    );
  } else {
    body = (
      <form className="card stack payment" onSubmit={onSubmit} noValidate>
        {view.opoaTeam.length > 0 ? (
          <Alert type="info">
            {t('payment.opoaTeam', {
              names: new Intl.ListFormat(activeIntlLocale(), { type: 'conjunction' }).format(view.opoaTeam),
            })}
          </Alert>
        ) : null}
        {view.express ? (
          <ExpressDetails view={view} send={send} />
        ) : (
          <BillingAddress actor={billingRef} given={view.billing} disabled={view.paying} />
        )}
        <fieldset className="payment__fieldset" disabled={view.paying}>
          <TextField
            label={
              view.phoneRequired || view.method === 'instalment'
                ? t('payment.contactNumber')
                : t('payment.contactNumberOptional')
            }
            type="tel"
            autoComplete="tel"
            hint={t('payment.contactNumberHint')}
            value={view.form.contactNumber}
            error={view.problems.contactNumber}
            onChange={(v) => send.change('contactNumber', v)}
            onLeave={() => send.leave('contactNumber')}
            required={view.phoneRequired || view.method === 'instalment'}
          />
        </fieldset>
        <MethodChoice view={view} send={send} />
        {view.method === 'instalment' && checkout ? (
          <InstalmentPlan view={view} send={send} checkout={checkout} />
        ) : null}
        {view.error ? <Alert type="error">{view.error}</Alert> : null}
        {squareRef ? (
          <SquareCard actor={squareRef} payLabel={payLabel} />
        ) : planRef && planTakesCard ? (
          <Suspense
            fallback={
              <p className="payment__working">
                <Spinner size="medium" /> {t('payment.loadingCardForm')}
              </p>
            }
          >
            <StripeSetupCard actor={planRef} payLabel={payLabel} />
          </Suspense>
        ) : stripe && view.paying ? (
          <Suspense
            fallback={
              <p className="payment__working">
                <Spinner size="medium" /> {t('payment.loadingCardForm')}
              </p>
            }
          >
            <StripeCard session={stripe} payLabel={payLabel} />
          </Suspense>
        ) : (
          <LoadingButton
            type="submit"
            loading={view.paying}
            disabled={!view.canPay}
            className="button--block button--large"
          >
            {view.paying ? t('payment.confirming') : payLabel}
          </LoadingButton>
        )}
        <p className="muted payment__secure">{bank ? t('payment.bankNote') : t('payment.cardNote')}</p>
      </form>
    );
  }
  return body;
}

function usePaymentTitle(actor: PaymentActor | undefined, express: boolean): string {
  const title = useSelector(actor, (s) => (s ? viewPayment(s).title : null));
  return title ?? (express ? PAYMENT_TITLES.express : PAYMENT_TITLES.payment);
}

/** The payment step: details, the method and the card; or the free tickets claimed; or the SaaS block. */
export default function PaymentStep() {
  const checkout = useCheckoutData();
  const actor = useStepChild<typeof paymentMachine>('payment');
  const title = usePaymentTitle(actor, checkout?.express ?? false);
  const total = checkout ? formatMoney(checkout.basket_total, checkout.currency.code) : null;
  return (
    <StepLayout step="payment" title={title}>
      {actor ? (
        <PaymentForm actor={actor} total={total} checkout={checkout} />
      ) : (
        <div className="card step--centred">
          <Spinner size="large" label={t('ui.loading')} />
        </div>
      )}
    </StepLayout>
  );
}
