import { lazy } from 'react';
import { stepModule, type StepChart } from '../stepModule';

/** One chart and one screen ask the questions before and after payment (the chart's input says which). */
const chart: StepChart<'questions'> = {
  name: 'questions',
  load: async (deps) => (await import('./questionsActors')).appQuestionsMachine(deps.queryClient),
  definition: async () => (await import('../../../machines/questions/questions.machine')).questionsMachine,
  file: 'machines/questions/questions.machine.ts',
  placement:
    'Invoked by the root on the `ticket_questions_before` and `ticket_questions_after` steps (systemId `questions`, input `beforeOrAfter`); saving the answers completes the step.',
};
const Screen = lazy(() => import('./QuestionsStep'));

/** The `ticket_questions_before` step. */
export const ticketQuestionsBefore = stepModule({ step: 'ticket_questions_before', chart, Screen });

/** The `ticket_questions_after` step. */
export const ticketQuestionsAfter = stepModule({ step: 'ticket_questions_after', chart, Screen });
