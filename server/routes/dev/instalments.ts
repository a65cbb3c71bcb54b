/**
 * POST /dev/instalments/run?as_of=<ISO date>: runs the instalment job once as of that date (now
 * when absent) and answers what it did. It lets a person or an end-to-end test see a later
 * instalment charged.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { runInstalmentJob } from '../../domain/instalments/job.ts';
import { instalmentJobDeps, type AppDeps } from '../../http/deps.ts';

const asOfQuery = z.object({ as_of: z.optional(z.iso.datetime({ offset: true })) });

export function registerInstalmentRun(app: FastifyInstance, deps: AppDeps): void {
  app.post('/dev/instalments/run', async (request, reply) => {
    const parsed = asOfQuery.safeParse(request.query ?? {});
    if (!parsed.success)
      return reply.status(400).send({ error: 'as_of must be a date and time, e.g. 2030-01-31T09:00:00Z' });
    const asOf = parsed.data.as_of ? new Date(parsed.data.as_of) : deps.clock();
    return runInstalmentJob(instalmentJobDeps(deps), asOf);
  });
}
