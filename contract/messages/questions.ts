/** The ticket questions form's messages (spec 001 §5 Questions, §8). */
import { messages } from '../../i18n/lazy.ts';
import { t } from '../../i18n/runtime.ts';

export const QUESTION_MESSAGES = messages({
  enterAnswer: 'questions.enterAnswer',
  unableToSave: 'questions.unableToSave',
});

/** The question steps' pills and headings: a ticket's step, and the whole order's (the basket's). */
export const QUESTION_STEP_WORDS = Object.assign(
  messages({ basketLabel: 'questions.basketLabel', basketHeading: 'questions.basketHeading' }),
  {
    ticketLabel: (n: number) => t('questions.ticketLabel', { n }),
    ticketHeading: (event: string, ticket: string, copy: { n: number; qty: number } | null) =>
      copy
        ? t('questions.ticketHeadingOf', { event, ticket, ...copy })
        : t('questions.ticketHeading', { event, ticket }),
  },
);
