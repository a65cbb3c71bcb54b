/**
 * Requests per minute per address, across all routes (RATE_LIMIT_PER_MINUTE), counted in this
 * process's memory or in the database that every process shares (RATE_LIMIT_STORE). The database's
 * count is taken in leases (leasedRateLimitStore): most requests are counted in memory, and every
 * process together still lets no more than the limit through.
 */
import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import { leasedRateLimitStore } from '../http/rateLimitStore.ts';
import { t } from '../../i18n/runtime.ts';

/** A queued buyer's poll of their place (contract/queuePage.ts `queueStatusPath`). */
const QUEUE_POLL = /^\/ajax\/queue\/\d{1,9}\/status\/?(\?|$)/;

async function requestBudget(
  app: FastifyInstance,
  opts: { db: Database; config: Pick<Config, 'rateLimitPerMinute' | 'rateLimitStore' | 'databaseUrl'> },
): Promise<void> {
  const { db, config } = opts;
  await app.register(rateLimit, {
    max: config.rateLimitPerMinute,
    ...(config.rateLimitStore === 'database'
      ? { store: leasedRateLimitStore(db, { relaxedCommit: config.databaseUrl !== null }) as never }
      : {}),
    timeWindow: '1 minute',
    /**
     * Not counted: the hashed build files a page load fetches (a dozen, costing nothing to serve), and
     * a queued buyer's polls of their place, which the server paces itself (`poll_ms`) and answers
     * from a signed cookie without the database. Counted, the polls of many buyers queued behind one
     * address (a mobile carrier's or a campus's shared address) would spend that address's budget
     * and lock them all out of the checkout once admitted.
     */
    allowList: (request) =>
      (request.method === 'GET' || request.method === 'HEAD') &&
      (request.url.startsWith('/assets/') || QUEUE_POLL.test(request.url)),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: t('page.tooManyRequests', { seconds: Math.ceil(context.ttl / 1000) }),
    }),
  });
}

export const requestRateLimit = fp(requestBudget, { name: 'rate-limit', fastify: '5.x' });
