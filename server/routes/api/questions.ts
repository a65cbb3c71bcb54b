/** save_question_answers: a thin mapping onto the questions domain. */
import { QUESTION_REFUSALS } from '../../../contract/index.ts';
import { Refusal } from '../../domain/refusal.ts';
import { saveQuestionAnswers } from '../../domain/questions.ts';
import type { Handlers } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';

export function questionHandlers(deps: AppDeps): Pick<Handlers, 'saveQuestionAnswers'> {
  const { db, clock } = deps;
  return {
    saveQuestionAnswers: async ({ input, request }) => {
      const sale = await request.visitorSale();
      if (!sale) throw new Refusal('hold-lost', QUESTION_REFUSALS.notHeld);
      await saveQuestionAnswers(db, sale.id, { answers: input.answers, beforeOrAfter: input.before_or_after }, clock());
      return { questions_set: true };
    },
  };
}
