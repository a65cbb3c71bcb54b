/**
 * The hold's clock's refusal of more time without a server message. A file of its own: the clock's
 * chart loads apart from the countdown's screen, and each carries only its own words.
 */
import { messages } from '../../i18n/lazy.ts';

export const MORE_TIME_MESSAGES = messages({ failed: 'countdown.moreTimeFailed' });
