/** What the ticket questions screen shows, and the events it may send. */
import type { SnapshotFrom } from 'xstate';
import {
  ANSWER_WARN_AT,
  emptyAnswer,
  isAnswered,
  isMandatory,
  remainingCharacters,
  type AnswerValue,
  type Question,
} from '../../contract';
import { QUESTION_MESSAGES } from '../../contract/messages/questions';
import { allStepsComplete, stepIsComplete, type QuestionsEvent, type questionsMachine } from './questions.machine';

export interface QuestionView {
  key: string;
  label: string;
  type: Question['type'];
  /** Marked with an asterisk. */
  mandatory: boolean;
  value: AnswerValue;
  /** Dropdown options. */
  options: string[];
  /** Characters left for a text answer; null for the other kinds. */
  remaining: number | null;
  /** The counter warns at 10 or fewer left. */
  warning: boolean;
  /** 'Please enter your answer', once the buyer has tried to go on without it. */
  problem: string | null;
}

export interface QuestionsView {
  loading: boolean;
  /** The read or the save that failed, in the words the buyer is shown. */
  problem: string | null;
  /** The checkout could not be read: the screen offers to try again. */
  canRetry: boolean;
  /** The step pills. */
  steps: { label: string; current: boolean; complete: boolean }[];
  /** The step shown, or null before the questions are read. */
  step: { index: number; heading: string; isBasket: boolean; intro: string | null } | null;
  questions: QuestionView[];
  /** Every step is completed: Continue on the last step sends the answers. */
  canSubmit: boolean;
  isLastStep: boolean;
  saving: boolean;
  saved: boolean;
}

export function viewQuestions(snapshot: SnapshotFrom<typeof questionsMachine>): QuestionsView {
  const c = snapshot.context;
  const shown = c.steps[c.current];
  const pointOut = c.checked.includes(c.current);
  return {
    loading: snapshot.hasTag('loading'),
    problem: c.problem,
    canRetry: snapshot.can({ type: 'RETRY_CLICKED' }),
    steps: c.steps.map((s, index) => ({
      label: s.label,
      current: index === c.current,
      complete: stepIsComplete(c, index),
    })),
    step: shown
      ? {
          index: c.current,
          heading: shown.heading,
          isBasket: shown.kind === 'basket',
          intro: shown.kind === 'basket' ? c.intro : null,
        }
      : null,
    questions: (shown?.questions ?? []).map((q) => {
      const value = c.answers[q.key] ?? emptyAnswer(q.question);
      const remaining = q.question.type === 'text' ? remainingCharacters(value as string) : null;
      const mandatory = isMandatory(q.question);
      return {
        key: q.key,
        label: q.question.question,
        type: q.question.type,
        mandatory,
        value,
        options: q.question.prepopulated_array,
        remaining,
        warning: remaining !== null && remaining <= ANSWER_WARN_AT,
        problem: pointOut && mandatory && !isAnswered(q.question, value) ? QUESTION_MESSAGES.enterAnswer : null,
      };
    }),
    canSubmit: c.steps.length > 0 && allStepsComplete(c),
    isLastStep: c.current === c.steps.length - 1,
    saving: snapshot.hasTag('saving'),
    saved: snapshot.status === 'done',
  };
}

export function questionsSenders(send: (event: QuestionsEvent) => void) {
  return {
    answer: (key: string, value: AnswerValue) => send({ type: 'ANSWER_CHANGED', key, value }),
    chooseStep: (index: number) => send({ type: 'STEP_CHOSEN', index }),
    continueClicked: () => send({ type: 'CONTINUE_CLICKED' }),
    retry: () => send({ type: 'RETRY_CLICKED' }),
  };
}
