/**
 * Ticket questions (spec 001 §2 Ticket Questions, §5 Questions), before or after payment: step
 * pills, the questions of the step shown and Continue. The questions chart owns the steps; this
 * screen renders its view and sends what the buyer does.
 */
import { useEffect, useId, useMemo, useRef, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { questionsSenders, viewQuestions, type QuestionView } from '../../../machines/questions/questions.connect';
import type { questionsMachine } from '../../../machines/questions/questions.machine';
import { Field, FIELD_LOOKS } from '../../components/Field';
import { Alert } from '../../../ui/Alert';
import { Icon } from '../../../ui/Icon';
import { LoadingButton } from '../../../ui/LoadingButton';
import { Spinner } from '../../../ui/Spinner';
import { StepLayout } from '../StepLayout';
import { useStepChild } from '../useStepChild';
import './questions.css';
import { t } from '../../../i18n/runtime.ts';
import { rich } from '../../../ui/rich.tsx';

type QuestionsActor = ActorRefFrom<typeof questionsMachine>;
type Senders = ReturnType<typeof questionsSenders>;

/** The Basket step's intro when neither the event nor its organiser has one of their own. */
const standardBasketIntro = () => t('questions.basketIntro');

function Asterisk({ mandatory }: { mandatory: boolean }) {
  return mandatory ? (
    <>
      <span className="questions__asterisk" aria-hidden="true">
        {' '}
        *
      </span>
      <span className="visually-hidden">{t('questions.required')}</span>
    </>
  ) : null;
}

function QuestionField({ q, answer }: { q: QuestionView; answer: Senders['answer'] }) {
  const id = useId();
  const problemId = `${id}-problem`;
  const counterId = `${id}-counter`;
  const problem = q.problem ? (
    <p id={problemId} className="questions__problem">
      {q.problem}
    </p>
  ) : null;
  const invalid = q.problem ? true : undefined;
  const label = (
    <>
      {q.label}
      <Asterisk mandatory={q.mandatory} />
    </>
  );

  if (q.type === 'checkbox') {
    return (
      <div className="questions__field">
        <label className="questions__box">
          <input
            type="checkbox"
            checked={q.value === true}
            aria-required={q.mandatory || undefined}
            aria-invalid={invalid}
            aria-describedby={q.problem ? problemId : undefined}
            onChange={(e) => answer(q.key, e.target.checked)}
          />
          <span>
            {q.label}
            <Asterisk mandatory={q.mandatory} />
          </span>
        </label>
        {problem}
      </div>
    );
  }

  if (q.type === 'dropdown') {
    return (
      <Field label={label} error={q.problem} look={FIELD_LOOKS.questions}>
        {(control) => (
          <select
            {...control}
            className="input questions__select"
            value={String(q.value)}
            aria-required={q.mandatory || undefined}
            onChange={(e) => answer(q.key, e.target.value)}
          >
            <option value="">{t('questions.chooseAnswer')}</option>
            {q.options.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        )}
      </Field>
    );
  }

  return (
    <Field label={label} error={q.problem} look={FIELD_LOOKS.questions} notes={counterId}>
      {(control) => (
        <>
          <textarea
            {...control}
            className="input questions__text"
            rows={2}
            maxLength={300}
            value={String(q.value)}
            aria-required={q.mandatory || undefined}
            onChange={(e) => answer(q.key, e.target.value)}
          />
          <p
            id={counterId}
            className={`questions__counter${q.warning ? ' questions__counter--warning' : ''}`}
            data-testid="answer-counter"
          >
            {q.warning ? <Icon name="warning" /> : null}
            {q.remaining === 1 ? '1 character remaining' : `${q.remaining} characters remaining`}
          </p>
        </>
      )}
    </Field>
  );
}

function QuestionsForm({ actor }: { actor: QuestionsActor }) {
  const view = useSelector(actor, viewQuestions);
  const send = useMemo(() => questionsSenders((event) => actor.send(event)), [actor]);
  const headingId = useId();
  // A step that replaces another (Continue, a pill) starts with focus on its heading.
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const shownIndex = view.step?.index;
  const firstStep = useRef(true);
  useEffect(() => {
    if (shownIndex === undefined) return;
    if (firstStep.current) {
      firstStep.current = false;
      return;
    }
    stepHeading.current?.focus();
  }, [shownIndex]);

  if (view.loading) {
    return (
      <div className="card step--centred">
        <Spinner label={t('ui.loading')} />
      </div>
    );
  }
  if (view.canRetry) {
    return (
      <div className="card stack">
        {view.problem ? <Alert type="error">{view.problem}</Alert> : null}
        <button type="button" className="button button--secondary" onClick={send.retry}>
          {t('questions.tryAgain')}
        </button>
      </div>
    );
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send.continueClicked();
  };
  return (
    <form className="card stack questions" noValidate onSubmit={onSubmit} aria-labelledby={headingId}>
      <nav aria-label={t('questions.steps')}>
        <ol className="questions__pills">
          {view.steps.map((s, index) => (
            <li key={s.label}>
              <button
                type="button"
                className={`questions__pill${s.current ? ' questions__pill--current' : ''}${s.complete ? ' questions__pill--complete' : ''}`}
                aria-current={s.current ? 'step' : undefined}
                disabled={view.saving}
                onClick={() => send.chooseStep(index)}
              >
                {s.complete ? <Icon name="check" /> : null}
                {s.label}
                <span className="visually-hidden">
                  {s.complete ? t('questions.completed') : t('questions.notCompleted')}
                </span>
              </button>
            </li>
          ))}
        </ol>
      </nav>
      {view.step ? (
        <div className="questions__step" key={view.step.index}>
          <h2 id={headingId} className="section-title questions__heading" tabIndex={-1} ref={stepHeading}>
            {view.step.heading}
          </h2>
          {view.step.isBasket ? (
            <p className="muted questions__intro">{view.step.intro ?? standardBasketIntro()}</p>
          ) : null}
          <p className="muted questions__legend">
            {rich('questions.legend', {}, { mark: (text) => <span aria-hidden="true">{text}</span> })}
          </p>
          <fieldset className="questions__fields" disabled={view.saving}>
            <legend className="visually-hidden">{view.step.heading}</legend>
            {view.questions.map((q) => (
              <QuestionField key={q.key} q={q} answer={send.answer} />
            ))}
          </fieldset>
        </div>
      ) : null}
      {view.isLastStep && !view.canSubmit ? <p className="muted questions__blocked">{t('questions.blocked')}</p> : null}
      {view.problem ? <Alert type="error">{view.problem}</Alert> : null}
      <LoadingButton type="submit" loading={view.saving} className="button--block">
        {t('ui.continue')}
      </LoadingButton>
    </form>
  );
}

/** The ticket questions step, before payment (ticket_questions_before) or after it (ticket_questions_after). */
export default function QuestionsStep({ step }: { step: 'ticket_questions_before' | 'ticket_questions_after' }) {
  const child = useStepChild<typeof questionsMachine>('questions');
  return (
    <StepLayout step={step}>
      {child ? (
        <QuestionsForm actor={child} />
      ) : (
        <div className="card step--centred">
          <Spinner label={t('ui.loading')} />
        </div>
      )}
    </StepLayout>
  );
}
