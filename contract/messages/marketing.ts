/** The keep-updated step's failure notice (spec 000 §8). */
import { messages } from '../../i18n/lazy.ts';

export const MARKETING_MESSAGES = messages({ failed: 'marketing.failed' });
