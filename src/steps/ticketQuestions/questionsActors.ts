/**
 * The ticket questions chart with the app's calls: the questions and tickets from the checkout in
 * the query cache, save_question_answers (JSON). A refusal the server explains is shown in its
 * words; any other failure shows the spec's text.
 */
import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import type { RequestOf, ResponseOf } from '../../../contract';
import { QUESTION_MESSAGES } from '../../../contract/messages/questions';
import { questionsMachine, type QuestionsInput } from '../../../machines/questions/questions.machine';
import type { QuestionsSource } from '../../../machines/questions/questionSteps';
import { CallFailed, callApi } from '../../api/client';
import { checkoutQuery } from '../../api/queries';

function failureText(err: unknown): string {
  return err instanceof CallFailed && err.serverMessage && err.status !== null && err.status < 500
    ? err.serverMessage
    : QUESTION_MESSAGES.unableToSave;
}

export function appQuestionsMachine(queryClient: QueryClient) {
  return questionsMachine.provide({
    actors: {
      loadQuestions: fromPromise<QuestionsSource, QuestionsInput>(async ({ input }) => {
        const checkout = await queryClient.fetchQuery(checkoutQuery());
        return {
          questions:
            input.beforeOrAfter === 'before' ? checkout.before_payment_questions : checkout.after_payment_questions,
          tickets: checkout.tickets,
          intro: checkout.events.find((e) => e.questions_intro)?.questions_intro ?? null,
        };
      }),
      saveQuestionAnswers: fromPromise<ResponseOf<'saveQuestionAnswers'>, RequestOf<'saveQuestionAnswers'>>(
        async ({ input }) => {
          try {
            return await callApi('saveQuestionAnswers', input);
          } catch (err) {
            throw new Error(failureText(err), { cause: err });
          }
        },
      ),
    },
  });
}
