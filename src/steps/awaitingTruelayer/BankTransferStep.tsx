import type { ActorRefFrom } from 'xstate';
import type { bankTransferMachine } from '../../../machines/bankTransfer/bankTransfer.machine';
import { useSelector } from '@xstate/react';
import { bankTransferSenders, viewBankTransfer } from '../../../machines/bankTransfer/bankTransfer.connect';
import { BANK_TRANSFER_MESSAGES } from '../../../contract/messages/bankTransfer';
import { Alert } from '../../../ui/Alert';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { StepLayout } from '../StepLayout';
import { useStepChild } from '../useStepChild';
import './bankTransfer.css';
import { t } from '../../../i18n/runtime.ts';

type BankTransferActor = ActorRefFrom<typeof bankTransferMachine>;

function BankTransferStatus({ actor }: { actor: BankTransferActor }) {
  const view = useSelector(actor, viewBankTransfer);
  const send = bankTransferSenders((event) => actor.send(event));
  return (
    <div className="card stack bank-transfer">
      {view.waiting ? (
        <p className="bank-transfer__waiting" role="status" aria-live="polite" data-testid="bank-wait-message">
          <Spinner size="medium" /> <span>{view.waitMessage}</span>
        </p>
      ) : null}
      {view.succeeded ? (
        <div className="bank-transfer__result" role="status">
          <span className="bank-transfer__tick">
            <Icon name="check" />
          </span>
          <h2 className="section-title">{view.succeeded.title}</h2>
          <dl className="bank-transfer__facts">
            <div>
              <dt>{t('bankTransfer.reference')}</dt>
              <dd>{view.succeeded.reference}</dd>
            </div>
            <div>
              <dt>{t('bankTransfer.amount')}</dt>
              <dd>{view.succeeded.amount}</dd>
            </div>
          </dl>
        </div>
      ) : null}
      {view.problem ? <Alert type="error">{view.problem}</Alert> : null}
      {view.notYetConfirmed ? <Alert type="warning">{view.notYetConfirmed}</Alert> : null}
      {view.canContinue ? (
        <button type="button" className="button button--block button--large" onClick={send.continue}>
          {t('ui.continue')}
        </button>
      ) : null}
      {view.canRetry ? (
        <button type="button" className="button button--block" onClick={send.retry}>
          {t('bankTransfer.checkAgain')}
        </button>
      ) : null}
      {view.canSwitchMethod ? (
        <button type="button" className="button button--secondary button--block" onClick={send.switchMethod}>
          {BANK_TRANSFER_MESSAGES.tryDifferentMethod}
        </button>
      ) : null}
    </div>
  );
}

/** Waiting for the bank (spec 001 §2 Bank transfer waiting): the spinner, then success or failure. */
export default function BankTransferStep() {
  const child = useStepChild<typeof bankTransferMachine>('bankTransfer');
  return (
    <StepLayout step="awaiting_truelayer">
      {child ? (
        <BankTransferStatus actor={child} />
      ) : (
        <div className="card step--centred">
          <Spinner size="large" label={t('ui.loading')} />
        </div>
      )}
    </StepLayout>
  );
}
