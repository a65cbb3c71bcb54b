/**
 * A browser error reported to this server's own log, when no error service (Sentry) is keyed: what
 * went wrong, where, and who the signed-in user was (spec 000 §1: the error-reporting service is
 * told the user's id and e-mail). Not a call of the spec's; the app's own.
 */
import { z } from 'zod/mini';
import { MAX_ERROR_MESSAGE, MAX_ERROR_STACK } from './errorReportLimits.ts';
import { formId, formText } from './primitives.ts';

export {
  ERROR_REPORT_PATH,
  ERROR_REPORTS_PER_MINUTE,
  MAX_ERROR_MESSAGE,
  MAX_ERROR_STACK,
} from './errorReportLimits.ts';

/** A stack trace keeps its line breaks; no other control character is let in. */
const stack = z.string().check(
  z.maxLength(MAX_ERROR_STACK),
  z.refine(
    // eslint-disable-next-line no-control-regex -- control characters are what it finds
    (s) => !/[\u0000-\u0009\u000b-\u001f\u007f]/.test(s),
    'must not contain control characters other than line breaks',
  ),
);

export const errorReportSchema = z.object({
  message: formText(MAX_ERROR_MESSAGE, 1),
  stack: z.optional(stack),
  /** The page's path and query. */
  page: formText(2000, 1),
  user_id: z.optional(formId),
  email: z.optional(formText(320)),
});
export type ErrorReport = z.input<typeof errorReportSchema>;
