/**
 * The ticket questions form (spec 001 §2 Ticket Questions, §4 Questions, §5 Questions), before or
 * after payment: a step per ticket copy and a 'Basket' step, with step pills and Continue. A step
 * is completed when visited and all its mandatory answers are present; the answers are sent with
 * save_question_answers only once every step is completed. The machine owns the steps; the root
 * turns its output into the next step.
 */
import { assertEvent, assign, setup } from 'xstate';
import {
  ANSWER_MAX_LENGTH,
  type AnswerValue,
  type BeforeOrAfter,
  type RequestOf,
  type ResponseOf,
} from '../../contract';
import { MESSAGES } from '../../contract/messages/checkout';
import { QUESTION_MESSAGES } from '../../contract/messages/questions';
import { answerEntries, buildSteps, isMissingAnswers, type QuestionStep, type QuestionsSource } from './questionSteps';
import { providedByApp } from '../providedByApp';

export type QuestionsEvent =
  /** The buyer typed, ticked or chose an answer on the step shown. */
  | { type: 'ANSWER_CHANGED'; key: string; value: AnswerValue }
  /** A step pill. */
  | { type: 'STEP_CHOSEN'; index: number }
  | { type: 'CONTINUE_CLICKED' }
  /** After 'Unable to get Checkout data'. */
  | { type: 'RETRY_CLICKED' };

export type QuestionsOutput = { kind: 'saved'; beforeOrAfter: BeforeOrAfter };

export interface QuestionsInput {
  beforeOrAfter: BeforeOrAfter;
}

export interface QuestionsContext {
  beforeOrAfter: BeforeOrAfter;
  steps: QuestionStep[];
  intro: string | null;
  /** By question key (see `AskedQuestion.key`). */
  answers: Record<string, AnswerValue>;
  /** The step shown. */
  current: number;
  /** Steps the buyer has been shown. */
  visited: number[];
  /** Steps on which the missing answers are pointed out ('Please enter your answer'). */
  checked: number[];
  /** The failed save or the failed read, in the words the buyer is shown. */
  problem: string | null;
}

/** `index` is one of `context.steps`. */
export function stepIsComplete(
  context: Pick<QuestionsContext, 'steps' | 'visited' | 'answers'>,
  index: number,
): boolean {
  return context.visited.includes(index) && !isMissingAnswers(context.steps[index]!, context.answers);
}

export function allStepsComplete(context: Pick<QuestionsContext, 'steps' | 'visited' | 'answers'>): boolean {
  return context.steps.every((_, index) => stepIsComplete(context, index));
}

const withIndex = (list: number[], index: number) => (list.includes(index) ? list : [...list, index]);

export const questionsMachine = setup({
  types: {
    context: {} as QuestionsContext,
    events: {} as QuestionsEvent,
    input: {} as QuestionsInput,
    output: {} as QuestionsOutput,
    children: {} as { loadQuestions: 'loadQuestions'; saveQuestionAnswers: 'saveQuestionAnswers' },
    tags: {} as 'loading' | 'saving',
  },
  // Stryker disable next-line ObjectLiteral: the app and every test provide these actors.
  actors: {
    /** The checkout's questions of this phase and its ticket lines, from the app's query cache. */
    loadQuestions: providedByApp.call<QuestionsSource, QuestionsInput>('loadQuestions'),
    /** Rejects with an Error whose message is the text to show. */
    saveQuestionAnswers: providedByApp.call<ResponseOf<'saveQuestionAnswers'>, RequestOf<'saveQuestionAnswers'>>(
      'saveQuestionAnswers',
    ),
  },
  actions: {
    keepQuestions: assign((_, params: { source: QuestionsSource }) => ({
      steps: buildSteps(params.source),
      intro: params.source.intro,
      current: 0,
      visited: [0],
      problem: null,
    })),
    /** Shown when the checkout cannot be read to build the form (spec 001 §8). */
    showUnavailable: assign({ problem: MESSAGES.unableToGetCheckout }),
    clearProblem: assign({ problem: null }),
    keepAnswer: assign(({ context, event }) => {
      assertEvent(event, 'ANSWER_CHANGED');
      const value =
        typeof event.value === 'string' ? [...event.value].slice(0, ANSWER_MAX_LENGTH).join('') : event.value;
      return { answers: { ...context.answers, [event.key]: value } };
    }),
    goToChosenStep: assign(({ context, event }) => {
      assertEvent(event, 'STEP_CHOSEN');
      return { current: event.index, visited: withIndex(context.visited, event.index) };
    }),
    goToNextStep: assign(({ context }) => ({
      current: context.current + 1,
      visited: withIndex(context.visited, context.current + 1),
    })),
    pointOutMissing: assign(({ context }) => ({ checked: withIndex(context.checked, context.current) })),
    goToFirstIncompleteStep: assign(({ context }) => {
      const index = context.steps.findIndex((_, i) => !stepIsComplete(context, i));
      return { current: index, visited: withIndex(context.visited, index), checked: withIndex(context.checked, index) };
    }),
    showSaveFailure: assign((_, params: { error: unknown }) => ({
      problem:
        params.error instanceof Error && params.error.message ? params.error.message : QUESTION_MESSAGES.unableToSave,
    })),
  },
  guards: {
    /** Only the questions of the step shown can be answered, each with its own kind of value. */
    answerFitsStepShown: ({ context, event }) => {
      assertEvent(event, 'ANSWER_CHANGED');
      const asked = context.steps[context.current]?.questions.find((q) => q.key === event.key);
      if (!asked) return false;
      const { type, prepopulated_array: options } = asked.question;
      if (type === 'checkbox') return typeof event.value === 'boolean';
      if (type === 'dropdown') return event.value === '' || options.includes(event.value as string);
      return typeof event.value === 'string';
    },
    isAStep: ({ context, event }) => {
      assertEvent(event, 'STEP_CHOSEN');
      return Number.isInteger(event.index) && event.index >= 0 && event.index < context.steps.length;
    },
    stepShownIsMissingAnswers: ({ context }) => {
      const step = context.steps[context.current];
      return step !== undefined && isMissingAnswers(step, context.answers);
    },
    isBeforeLastStep: ({ context }) => context.current < context.steps.length - 1,
    everyStepIsComplete: ({ context }) => allStepsComplete(context),
  },
}).createMachine({
  // Stryker disable next-line StringLiteral: no target names the questions chart by its id.
  id: 'questions',
  description: 'The ticket questions, step by step, saved with save_question_answers once every step is completed.',
  context: ({ input }) => ({
    beforeOrAfter: input.beforeOrAfter,
    steps: [],
    intro: null,
    answers: {},
    current: 0,
    // Stryker disable next-line ArrayDeclaration: the questions are read before any step is shown; reading them marks the first visited.
    visited: [],
    // Stryker disable next-line ArrayDeclaration: only step numbers are ever looked up in it.
    checked: [],
    problem: null,
  }),
  output: ({ context }) => ({ kind: 'saved', beforeOrAfter: context.beforeOrAfter }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadQuestions',
        id: 'loadQuestions',
        input: ({ context }) => ({ beforeOrAfter: context.beforeOrAfter }),
        onDone: {
          target: 'answering',
          actions: { type: 'keepQuestions', params: ({ event }) => ({ source: event.output }) },
        },
        onError: { target: 'unavailable', actions: 'showUnavailable' },
      },
    },
    unavailable: {
      description: 'The checkout could not be read: the buyer may try again.',
      on: { RETRY_CLICKED: { target: 'loading', actions: 'clearProblem' } },
    },
    answering: {
      on: {
        ANSWER_CHANGED: {
          guard: 'answerFitsStepShown',
          actions: 'keepAnswer',
          description: 'A text answer is cut at 300 characters.',
        },
        STEP_CHOSEN: {
          guard: 'isAStep',
          actions: 'goToChosenStep',
          description: 'A step pill: that step is now visited.',
        },
        CONTINUE_CLICKED: [
          { guard: 'stepShownIsMissingAnswers', actions: 'pointOutMissing', description: 'Please enter your answer.' },
          { guard: 'isBeforeLastStep', actions: 'goToNextStep' },
          { guard: 'everyStepIsComplete', target: 'saving', actions: 'clearProblem' },
          {
            actions: 'goToFirstIncompleteStep',
            description: 'Submit is blocked until every step is completed: the first step that is not is shown.',
          },
        ],
      },
    },
    saving: {
      tags: ['saving'],
      invoke: {
        src: 'saveQuestionAnswers',
        id: 'saveQuestionAnswers',
        input: ({ context }) => ({
          answers: answerEntries(context.steps, context.answers),
          before_or_after: context.beforeOrAfter,
        }),
        onDone: { target: 'saved' },
        onError: {
          target: 'answering',
          actions: { type: 'showSaveFailure', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    saved: { type: 'final', description: 'questions_set: the root reads the checkout and picks the next step.' },
  },
});
