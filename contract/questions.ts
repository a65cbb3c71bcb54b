/**
 * Ticket questions (spec 001 §2 Ticket Questions, §3 Question, §4 Questions, §5, §7, §9): the
 * save_question_answers call, the server's refusals and the answer rules, shared by the screen,
 * the questions machine and the server so each rule is written once. The form's own messages
 * are the questions chart's (contract/messages/questions.ts).
 *
 * Answers are keyed per ticket and question, and per ticket copy unless the question is asked
 * once per checkout: one entry per (ticket_id, question_id, copy), `copy` null for a question
 * asked once per checkout. A checkbox answer is a boolean; a text or dropdown answer a string.
 */
import { z } from 'zod/mini';
import { MAX_ID, MAX_QTY, call } from './primitives.ts';
import type { questionSchema } from './checkout.ts';

export type Question = z.infer<typeof questionSchema>;
export type BeforeOrAfter = 'before' | 'after';
export type AnswerValue = string | boolean;

/** Text answer limit (spec 001 §9). */
export const ANSWER_MAX_LENGTH = 300;
/** The remaining counter warns at this many characters left, or fewer (spec 001 §9). */
export const ANSWER_WARN_AT = 10;

/** The server's refusals (the spec leaves them to the server; the screen shows them as given). */
export const QUESTION_REFUSALS = {
  missing: (question: string) => `Please enter your answer to '${question}'`,
  tooLong: (question: string) => `Your answer to '${question}' is longer than ${ANSWER_MAX_LENGTH} characters`,
  notAnOption: (question: string) => `Choose one of the options for '${question}'`,
  wrongKind: (question: string) => `Your answer to '${question}' is not the kind of answer it asks for`,
  controlCharacters: (question: string) => `Your answer to '${question}' contains characters that cannot be saved`,
  notYourTicket: 'Those answers are not about the tickets in your basket',
  twice: 'Each question can be answered once per ticket',
  notHeld: 'Your tickets are no longer held for you, so your answers cannot be saved. Please reserve them again.',
  notPaid: 'These questions can be answered once your order is paid',
} as const;

const wholeNumber = (min: number, max: number) =>
  z.number().check(z.int(`must be a whole number from ${min} to ${max}`), z.minimum(min), z.maximum(max));

export const answerEntrySchema = z.object({
  ticket_id: wholeNumber(1, MAX_ID),
  question_id: wholeNumber(1, MAX_ID),
  /** Which copy of the ticket (0 for the first); null for a question asked once per checkout. */
  copy: z.nullable(wholeNumber(0, MAX_QTY - 1)),
  /** A coarse bound on the wire; the 300-character rule is the server's, with its own message. */
  answer: z.union([z.string().check(z.maxLength(2000)), z.boolean()]),
});
export type AnswerEntry = z.infer<typeof answerEntrySchema>;

export const questionCalls = {
  /** The one JSON body of the contract (spec 001 §7). */
  saveQuestionAnswers: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/save_question_answers/',
    encoding: 'json',
    request: z.object({
      answers: z.array(answerEntrySchema).check(z.maxLength(5000)),
      before_or_after: z.enum(['before', 'after']),
    }),
    response: z.object({ questions_set: z.literal(true) }),
  }),
} as const;

/** Everything but a newline is refused in a text answer when it is a control character. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const UNPRINTABLE_IN_ANSWER = /[\p{Cs}\u0000-\u0009\u000B-\u001F\u007F-\u009F]/u;

export function isMandatory(question: Pick<Question, 'mandatory'>): boolean {
  return question.mandatory === '1';
}

export function isOncePerCheckout(question: Pick<Question, 'once_per_checkout'>): boolean {
  return question.once_per_checkout === '1';
}

/**
 * Whether a value counts as an answer: text that is not blank, one of a dropdown's options, a
 * ticked checkbox (a mandatory checkbox is a statement the buyer must accept).
 */
export function isAnswered(
  question: Pick<Question, 'type' | 'prepopulated_array'>,
  value: AnswerValue | undefined,
): boolean {
  switch (question.type) {
    case 'text':
      return typeof value === 'string' && value.trim() !== '';
    case 'dropdown':
      return typeof value === 'string' && value !== '' && question.prepopulated_array.includes(value);
    case 'checkbox':
      return value === true;
  }
}

/** The value an unanswered question is sent with. */
export function emptyAnswer(question: Pick<Question, 'type'>): AnswerValue {
  return question.type === 'checkbox' ? false : '';
}

/** Characters left for a text answer. */
export function remainingCharacters(value: string): number {
  return ANSWER_MAX_LENGTH - [...value].length;
}

/** Why the server refuses one answer, or null when it is acceptable (mandatory ones answered). */
export function answerRefusal(
  question: Pick<Question, 'question' | 'type' | 'prepopulated_array' | 'mandatory'>,
  value: AnswerValue,
): string | null {
  const name = question.question;
  if (question.type === 'checkbox' ? typeof value !== 'boolean' : typeof value !== 'string')
    return QUESTION_REFUSALS.wrongKind(name);
  if (question.type === 'text' && typeof value === 'string') {
    if (remainingCharacters(value) < 0) return QUESTION_REFUSALS.tooLong(name);
    if (UNPRINTABLE_IN_ANSWER.test(value)) return QUESTION_REFUSALS.controlCharacters(name);
  }
  if (question.type === 'dropdown' && value !== '' && !question.prepopulated_array.includes(value as string)) {
    return QUESTION_REFUSALS.notAnOption(name);
  }
  if (isMandatory(question) && !isAnswered(question, value)) return QUESTION_REFUSALS.missing(name);
  return null;
}

/**
 * Questions asked once per checkout that are the same organiser question (one `osq_id`) on
 * several ticket types are asked once; the answer is given for each of them.
 */
export function onceGroupKey(question: Pick<Question, 'id' | 'osq_id'>): string {
  return question.osq_id !== null ? `osq-${question.osq_id}` : `q-${question.id}`;
}
