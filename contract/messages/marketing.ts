/** The keep-updated step's failure notice (spec 000 §8). */
export const MARKETING_FAILED_MESSAGE = 'Unable to set the marketing preferences. Please try again later';
