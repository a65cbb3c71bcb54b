/**
 * Transfer tickets (spec 001 §2 Transfer tickets): the intro, a collapsible section per ticket type
 * (seated tickets left out) with its rows, Back and Send tickets. The transfers chart owns the form;
 * this screen renders its view and sends what the buyer does. Its own chunk, loaded when opened;
 * the chart is the order-completed chart's child `transfers`.
 */
import { Field, FIELD_LOOKS } from '../../../components/Field';
import { useEffect, useId, useMemo, useRef, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { SEND_GIFT_CHOICES, WALLET_PATH, type CalendarDate } from '../../../../contract';
import {
  transfersSenders,
  viewTransfers,
  type TransferRowView,
  type TransferSectionView,
} from '../../../../machines/transfers/transfers.connect';
import type { transfersMachine } from '../../../../machines/transfers/transfers.machine';
import { TRANSFER_MESSAGES } from '../../../../contract/messages/transfers';
import { fromDateInput, toDateInput } from '../../../../machines/transfers/transferRows';
import { Alert } from '../../../../ui/Alert';
import { Icon } from '../../../../ui/Icon';
import { LoadingButton } from '../../../../ui/LoadingButton';
import { Spinner } from '../../../../ui/Spinner';
import './transfer.css';
import { t } from '../../../../i18n/runtime.ts';

type TransfersActor = ActorRefFrom<typeof transfersMachine>;
type Senders = ReturnType<typeof transfersSenders>;

const isoOf = (d: CalendarDate) => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

function TextField({
  label,
  value,
  problem,
  type = 'text',
  autoComplete,
  onChange,
  min,
}: {
  label: string;
  value: string;
  problem: string | null;
  type?: 'text' | 'email' | 'date' | 'time';
  autoComplete?: string;
  min?: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label} error={problem} look={FIELD_LOOKS.transfer}>
      {(control) => (
        <input
          {...control}
          className="input"
          type={type}
          value={value}
          min={min}
          autoComplete={autoComplete}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

function RowForm({
  section,
  row,
  send,
  todayIso,
  disabled,
}: {
  section: TransferSectionView;
  row: TransferRowView;
  send: Senders;
  todayIso: string;
  disabled: boolean;
}) {
  const at = { ticketId: section.ticketId, index: row.index };
  const who = t('transfers.who', { n: row.index + 1, title: section.title });
  return (
    <fieldset className="transfer-row" disabled={disabled} data-testid="transfer-row">
      <legend className="transfer-row__legend">{t('transfers.recipient', { n: row.index + 1 })}</legend>
      <div className="transfer-row__top">
        <Field label={t('transfers.ticketsToSend')} look={FIELD_LOOKS.transfer}>
          {(control) => (
            <div className="stepper">
              <button
                type="button"
                className="stepper__button"
                aria-label={t('transfers.oneFewer', { who })}
                disabled={!row.canDecrease}
                onClick={() => send.decrease(at)}
              >
                <Icon name="minus" />
              </button>
              <input {...control} className="stepper__input" type="text" inputMode="numeric" readOnly value={row.qty} />
              <button
                type="button"
                className="stepper__button"
                aria-label={t('transfers.oneMore', { who })}
                disabled={!row.canIncrease}
                onClick={() => send.increase(at)}
              >
                <Icon name="plus" />
              </button>
            </div>
          )}
        </Field>
        {row.removable ? (
          <button
            type="button"
            className="button button--secondary transfer-row__remove"
            aria-label={t('transfers.removeWho', { who })}
            onClick={() => send.removeRow(at)}
          >
            <Icon name="trash" />
            {t('transfers.remove')}
          </button>
        ) : null}
      </div>
      <label className="choice transfer-row__gift">
        <input type="checkbox" checked={row.isGift} onChange={() => send.toggleGift(at)} />
        <span>{TRANSFER_MESSAGES.isGift}</span>
      </label>
      <div className="transfer-row__fields">
        <TextField
          label={TRANSFER_MESSAGES.fullName}
          value={row.name}
          problem={row.problems.name}
          autoComplete="off"
          onChange={(v) => send.change(at, 'name', v)}
        />
        <TextField
          label={TRANSFER_MESSAGES.email}
          type="email"
          value={row.email}
          problem={row.problems.email}
          autoComplete="off"
          onChange={(v) => send.change(at, 'email', v)}
        />
      </div>
      {row.isGift ? (
        <>
          <div className="transfer-row__when" role="radiogroup" aria-label={t('transfers.whenToSend', { who })}>
            {SEND_GIFT_CHOICES.map((choice) => (
              <label key={choice} className={`transfer-pill${row.sendGift === choice ? ' transfer-pill--on' : ''}`}>
                <input
                  type="radio"
                  name={`when-${row.key}`}
                  checked={row.sendGift === choice}
                  onChange={() => send.chooseDelivery(at, choice)}
                />
                {choice === 'Schedule' ? TRANSFER_MESSAGES.schedule : TRANSFER_MESSAGES.sendNow}
              </label>
            ))}
          </div>
          {row.scheduled ? (
            <div className="transfer-row__fields">
              <TextField
                label={TRANSFER_MESSAGES.deliveryDate}
                type="date"
                min={todayIso}
                value={toDateInput(row.deliveryDate)}
                problem={row.problems.date}
                onChange={(v) => send.change(at, 'delivery_date', fromDateInput(v))}
              />
              <TextField
                label={TRANSFER_MESSAGES.deliveryTime}
                type="time"
                value={row.deliveryTime}
                problem={row.problems.time}
                onChange={(v) => send.change(at, 'delivery_time', v)}
              />
            </div>
          ) : null}
          <MessageField value={row.message} onChange={(v) => send.change(at, 'message', v)} />
        </>
      ) : null}
    </fieldset>
  );
}

function MessageField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <Field label={TRANSFER_MESSAGES.message} look={FIELD_LOOKS.transfer}>
      {(control) => (
        <textarea
          {...control}
          className="input transfer__message"
          rows={3}
          maxLength={1000}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

function Section({
  section,
  send,
  todayIso,
  disabled,
}: {
  section: TransferSectionView;
  send: Senders;
  todayIso: string;
  disabled: boolean;
}) {
  const panelId = useId();
  return (
    <section className="card transfer-section" data-testid="transfer-section">
      <h3 className="transfer-section__heading">
        <button
          type="button"
          className="transfer-section__toggle"
          aria-expanded={section.open}
          aria-controls={panelId}
          onClick={() => send.toggleSection(section.ticketId)}
        >
          <span>{section.title}</span>
          <span className="muted transfer-section__count">{t('transfers.ticketCount', { count: section.qty })}</span>
          <Icon name="chevron" className="transfer-section__chevron" />
        </button>
      </h3>
      <div id={panelId} className="stack transfer-section__panel" hidden={!section.open}>
        {section.rows.map((row) => (
          <RowForm key={row.key} section={section} row={row} send={send} todayIso={todayIso} disabled={disabled} />
        ))}
        <button
          type="button"
          className="button button--secondary transfer-section__add"
          disabled={disabled || !section.canAddRow}
          aria-label={t('transfers.addRecipientFor', { title: section.title })}
          onClick={() => send.addRow(section.ticketId)}
        >
          <Icon name="plus" />
          {t('transfers.addRecipient')}
        </button>
      </div>
    </section>
  );
}

/** Sent: the success message, with Back and the wallet (the form's chart has ended). */
function TicketsSent({ onBack }: { onBack: () => void }) {
  const done = useRef<HTMLDivElement>(null);
  useEffect(() => done.current?.focus(), []);
  return (
    <div className="card stack transfer" ref={done} tabIndex={-1}>
      <Alert type="success">{TRANSFER_MESSAGES.transferred}</Alert>
      <p>{t('transfers.eachRecipient')}</p>
      <div className="transfer__actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          {t('transfers.back')}
        </button>
        <a className="button" href={WALLET_PATH}>
          {t('completed.wallet')}
        </a>
      </div>
    </div>
  );
}

function TransferForm({ actor, onBack, todayIso }: { actor: TransfersActor; onBack: () => void; todayIso: string }) {
  const view = useSelector(actor, viewTransfers);
  const send = useMemo(() => transfersSenders((event) => actor.send(event)), [actor]);
  if (view.ticketsSent) return <TicketsSent onBack={onBack} />;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send.sendTickets();
  };
  return (
    <form className="stack transfer" noValidate onSubmit={onSubmit} aria-label={t('transfers.formLabel')}>
      <p className="transfer__intro">{t('transfers.intro')}</p>
      {view.sections.length === 0 ? (
        <p className="card">{t('transfers.allSeated')}</p>
      ) : (
        view.sections.map((section) => (
          <Section
            key={section.ticketId}
            section={section}
            send={send}
            todayIso={todayIso}
            disabled={view.sendingTickets}
          />
        ))
      )}
      {view.problem ? <Alert type="error">{view.problem}</Alert> : null}
      <div className="transfer__actions">
        <button type="button" className="button button--secondary" onClick={onBack}>
          {t('transfers.back')}
        </button>
        <LoadingButton type="submit" loading={view.sendingTickets} disabled={!view.canSend}>
          {TRANSFER_MESSAGES.sendTickets}
        </LoadingButton>
      </div>
    </form>
  );
}

/**
 * The form for the order's tickets: the order-completed chart's `transfers` child while it runs,
 * then, once the tickets are sent, the success message.
 */
export default function TransferTickets({
  form,
  transferred,
  onBack,
}: {
  form: TransfersActor | undefined;
  transferred: boolean;
  onBack: () => void;
}) {
  if (form) return <TransferForm actor={form} onBack={onBack} todayIso={isoOfToday(form)} />;
  if (transferred) return <TicketsSent onBack={onBack} />;
  return <Spinner label={t('ui.loading')} />;
}

function isoOfToday(form: TransfersActor): string {
  return isoOf(form.getSnapshot().context.today);
}
