/** The ticket questions form's messages (spec 001 §5 Questions, §8). */
export const QUESTION_MESSAGES = {
  enterAnswer: 'Please enter your answer',
  unableToSave: 'Unable to save your answers. Please try again',
};
