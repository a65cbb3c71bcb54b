/** The overview's dialogs: 'How did we do?' feedback, and sharing with its copy button. */
import { useEffect, useRef } from 'react';
import { FEEDBACK_MAX_LENGTH } from '../../../contract/afterSale';
import type {
  orderCompletedSenders,
  OrderCompletedView,
} from '../../../machines/orderCompleted/orderCompleted.connect';
import { ORDER_COMPLETED_MESSAGES } from '../../../contract/messages/orderCompleted';
import { Field } from '../../components/Field';
import { LoadingButton } from '../../../ui/LoadingButton';
import { Modal } from '../../../ui/Modal';
import { t } from '../../../i18n/runtime.ts';

type Senders = ReturnType<typeof orderCompletedSenders>;

export function FeedbackDialog({ view, send }: { view: OrderCompletedView['feedback']; send: Senders }) {
  const field = useRef<HTMLTextAreaElement>(null);
  // Runs after the dialog has opened (and focused its first control): the buyer starts writing at once.
  useEffect(() => {
    if (view.open) field.current?.focus();
  }, [view.open]);
  return (
    <Modal
      open={view.open}
      title={ORDER_COMPLETED_MESSAGES.feedbackTitle}
      onClose={send.closeDialog}
      buttons={
        <>
          <button type="button" className="button button--secondary" onClick={send.closeDialog} disabled={view.sending}>
            {t('completed.cancel')}
          </button>
          <LoadingButton loading={view.sending} disabled={!view.canSend} onClick={send.sendFeedback}>
            {t('completed.send')}
          </LoadingButton>
        </>
      }
    >
      <Field label={t('completed.feedbackLabel')}>
        {(control) => (
          <textarea
            {...control}
            ref={field}
            className="input feedback__message"
            rows={5}
            maxLength={FEEDBACK_MAX_LENGTH}
            value={view.message}
            readOnly={view.sending}
            onChange={(e) => send.changeFeedback(e.target.value)}
          />
        )}
      </Field>
    </Modal>
  );
}

export function ShareDialog({
  title,
  text,
  view,
  send,
}: {
  title: string;
  text: string;
  view: OrderCompletedView['share'];
  send: Senders;
}) {
  const canShareNatively = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  return (
    <Modal
      open={view.open}
      title={title}
      onClose={send.closeDialog}
      buttons={
        <>
          {canShareNatively ? (
            <button type="button" className="button button--secondary" onClick={() => send.shareSheet(text)}>
              {t('completed.shareNative')}
            </button>
          ) : null}
          <button type="button" className="button" onClick={() => send.copy(text)} disabled={view.copying}>
            <span aria-live="polite">{view.copyLabel}</span>
          </button>
        </>
      }
    >
      <Field label={t('completed.shareMessage')}>
        {(control) => (
          <textarea
            {...control}
            className="input share__text"
            rows={4}
            readOnly
            value={text}
            onFocus={(e) => e.currentTarget.select()}
          />
        )}
      </Field>
    </Modal>
  );
}
