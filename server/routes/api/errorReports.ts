/**
 * Browser errors reported to this server's log when no error service is keyed (SENTRY_DSN unset):
 * validated, rate limited per address, logged with the user the app was told about and the
 * session's own signed-in user. A bad report is refused 400 and logged as nothing.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_REPORT_PATH, ERROR_REPORTS_PER_MINUTE, errorReportSchema } from '../../../contract/errorReport.ts';
import { describeIssue } from '../../http/calls.ts';
import { userIdOf } from '../../http/session.ts';

export function registerErrorReports(app: FastifyInstance): void {
  app.post(
    ERROR_REPORT_PATH,
    { config: { rateLimit: { max: ERROR_REPORTS_PER_MINUTE, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const parsed = errorReportSchema.safeParse(request.body ?? {});
      if (!parsed.success) return reply.status(400).send({ error: describeIssue(parsed.error.issues[0]) });
      const report = parsed.data;
      request.log.error(
        {
          browserError: { message: report.message, stack: report.stack, page: report.page },
          user: report.user_id !== undefined ? { id: report.user_id, email: report.email ?? null } : null,
          sessionUserId: userIdOf(request),
        },
        'browser error reported',
      );
      return reply.status(204).send();
    },
  );
}
