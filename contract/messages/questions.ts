/** The ticket questions form's messages (spec 001 §5 Questions, §8). */
import { messages } from '../../i18n/lazy.ts';

export const QUESTION_MESSAGES = messages({
  enterAnswer: 'questions.enterAnswer',
  unableToSave: 'questions.unableToSave',
});
