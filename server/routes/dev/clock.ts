/**
 * A clock that can be moved forward, for demo mode with DEV_CLOCK=1. Everything the server times
 * (holds and their grace, More time, the sandbox bank's slow answers, the sweeper, the instalment
 * and reconciliation jobs, scheduled gifts) reads the time from it, so a person or an end-to-end
 * test sees what happens later without waiting for it, and a loaded machine cannot change what is
 * seen. Time never goes back: the clock is the real one plus the time it has been moved on.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';

export interface MovableClock {
  now: () => Date;
  /** Moves the clock forward; answers the time it now reads. */
  advance: (ms: number) => Date;
}

export function movableClock(real: () => number = Date.now): MovableClock {
  let movedMs = 0;
  const now = () => new Date(real() + movedMs);
  return {
    now,
    advance(ms) {
      movedMs += ms;
      return now();
    },
  };
}

/** A day: far more than any hold, grace or slow answer, and a bound on a mistyped number. */
const MAX_ADVANCE_SECONDS = 86_400;

const advanceQuery = z.object({
  seconds: z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_ADVANCE_SECONDS)),
});

/**
 * POST /dev/clock?seconds=N moves the server's clock N seconds forward and answers the time it now
 * reads; GET /dev/clock answers the time. Registered only when the clock can be moved (demo mode
 * with DEV_CLOCK=1).
 */
export function registerDevClock(app: FastifyInstance, clock: MovableClock): void {
  app.get('/dev/clock', async () => ({ now: clock.now().toISOString() }));
  app.post('/dev/clock', async (request, reply) => {
    const parsed = advanceQuery.safeParse(request.query ?? {});
    if (!parsed.success)
      return reply.status(400).send({ error: `seconds must be a whole number from 1 to ${MAX_ADVANCE_SECONDS}` });
    return { now: clock.advance(parsed.data.seconds * 1000).toISOString() };
  });
}
