/**
 * The account (login) step, spec 000 §2: the four modes of the account chart. Enter never submits
 * a text field (spec 000 §5); each mode moves on with its button.
 */
import { Field } from '../../components/Field';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { connectAccount } from '../../../machines/account/account.connect';
import type { accountMachine } from '../../../machines/account/account.machine';
import { Alert } from '../../../ui/Alert';
import { Icon } from '../../../ui/Icon';
import { LoadingButton } from '../../../ui/LoadingButton';
import { Spinner } from '../../../ui/Spinner';
import { StepLayout } from '../StepLayout';
import { useStepChild } from '../useStepChild';
import './login.css';
import { t } from '../../../i18n/runtime.ts';
import { rich } from '../../../ui/rich.tsx';

const blockEnter = (e: KeyboardEvent<HTMLInputElement>) => {
  if (e.key === 'Enter') e.preventDefault();
};

function Account({ actor }: { actor: ActorRefFrom<typeof accountMachine> }) {
  const snapshot = useSelector(actor, (s) => s);
  const view = connectAccount(snapshot, actor.send);
  const codeRef = useRef<HTMLInputElement>(null);
  /** The first field of the mode on screen; it takes the focus when one form replaces another. */
  const firstFieldRef = useRef<HTMLInputElement>(null);
  const shownMode = useRef(view.mode);

  useEffect(() => {
    if (view.codeFocus > 0) codeRef.current?.focus();
  }, [view.codeFocus]);

  // The button just pressed has gone with its form: the keyboard user carries on in the next form,
  // not from the top of the page. The first form after loading leaves focus on the step's heading.
  useEffect(() => {
    const before = shownMode.current;
    shownMode.current = view.mode;
    if (before === view.mode || before === 'loading') return;
    (view.mode === 'one_time_code_sent' ? codeRef : firstFieldRef).current?.focus();
  }, [view.mode]);

  switch (view.mode) {
    case 'enter_email':
      return (
        <form className="card stack login" noValidate onSubmit={(e) => e.preventDefault()}>
          <p className="lead">{t('login.lead')}</p>
          <Field label={t('login.email')} hint={t('login.emailHint')} error={view.emailError} alert>
            {(control) => (
              <input
                {...control}
                className="input"
                type="email"
                ref={firstFieldRef}
                name="email"
                autoComplete="email"
                inputMode="email"
                value={view.email}
                readOnly={view.busy}
                onChange={(e) => view.changeEmail(e.target.value)}
                onKeyDown={blockEnter}
              />
            )}
          </Field>
          {view.sendError ? (
            <Alert type="error">
              {view.sendError.notice}
              {view.sendError.detail ? <span className="login__detail">. {view.sendError.detail}</span> : null}
            </Alert>
          ) : null}
          <p className="muted">
            {rich(
              'login.terms',
              {},
              { a: (text) => <a href="/legal-information/purchase-terms-and-conditions/">{text}</a> },
            )}
          </p>
          <LoadingButton loading={view.busy} className="button--block" onClick={view.submitEmail}>
            {t('ui.continue')}
          </LoadingButton>
        </form>
      );
    case 'one_time_code_sent':
      return (
        <form className="card stack login" noValidate onSubmit={(e) => e.preventDefault()}>
          <Alert type="success">
            {t('login.codeSent')}
            <span className="login__who"> {view.email.trim()}</span>
          </Alert>
          <Field label={t('login.code')} hint={t('login.codeHint')} error={view.codeError} alert>
            {(control) => (
              <div className="code-field">
                <input
                  {...control}
                  ref={codeRef}
                  className="input"
                  type="text"
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  pattern="[0-9]{6}"
                  minLength={6}
                  value={view.code}
                  readOnly={view.busy}
                  onChange={(e) => view.changeCode(e.target.value)}
                  onKeyDown={blockEnter}
                />
                <button
                  type="button"
                  className="icon-button"
                  aria-label={t('login.clearCode')}
                  onClick={view.clearCode}
                  disabled={view.busy || view.code === ''}
                >
                  <Icon name="close" />
                </button>
              </div>
            )}
          </Field>
          {view.sendError ? (
            <Alert type="error">
              {view.sendError.notice}
              {view.sendError.detail ? <span className="login__detail">. {view.sendError.detail}</span> : null}
            </Alert>
          ) : null}
          <LoadingButton loading={view.busy} disabled={!view.canVerify} className="button--block" onClick={view.verify}>
            {t('login.verify')}
          </LoadingButton>
          <div className="login__links">
            <button type="button" className="link-button" onClick={view.changeAddress} disabled={view.busy}>
              {t('login.changeEmail')}
            </button>
            <button type="button" className="link-button" onClick={view.resend} disabled={view.busy}>
              {t('login.resend')}
            </button>
          </div>
          {view.resent ? (
            <p className="muted" role="status">
              {t('login.resent')}
            </p>
          ) : null}
        </form>
      );
    case 'confirm_name':
      return (
        <form className="card stack login" noValidate onSubmit={(e) => e.preventDefault()}>
          <p className="lead">
            {rich(
              'login.welcome',
              { email: view.email.trim() },
              { who: (text) => <span className="login__who">{text}</span> },
            )}
          </p>
          <Field label={t('login.fullName')} hint={t('login.fullNameHint')} error={view.nameError} alert>
            {(control) => (
              <input
                {...control}
                className="input"
                type="text"
                ref={firstFieldRef}
                name="fullname"
                autoComplete="name"
                value={view.fullName}
                readOnly={view.busy}
                onChange={(e) => view.changeName(e.target.value)}
                onKeyDown={blockEnter}
              />
            )}
          </Field>
          <LoadingButton loading={view.busy} className="button--block" onClick={view.submitName}>
            {t('ui.continue')}
          </LoadingButton>
        </form>
      );
    case 'confirm_account':
      return (
        <div className="card stack login">
          <p className="lead">{t('login.buyingAs')}</p>
          <p className="login__who">
            <strong>{view.user?.full_name}</strong>
            <br />
            {view.user?.email}
          </p>
          {view.logoutError ? <Alert type="error">{view.logoutError}</Alert> : null}
          <button type="button" className="link-button" onClick={view.signOut} disabled={view.busy}>
            {t('login.signOut')}
          </button>
          <LoadingButton loading={view.busy} className="button--block" onClick={view.continueAsUser}>
            {t('ui.continue')}
          </LoadingButton>
        </div>
      );
    default:
      return (
        <div className="card step--centred">
          <Spinner label={t('ui.loading')} />
        </div>
      );
  }
}

/** The login step: the screen of the account chart the root runs on this step. */
export default function LoginStep() {
  const child = useStepChild<typeof accountMachine>('account');
  return (
    <StepLayout step="login">
      {child ? (
        <Account actor={child} />
      ) : (
        <div className="card step--centred">
          <Spinner label={t('ui.loading')} />
        </div>
      )}
    </StepLayout>
  );
}
