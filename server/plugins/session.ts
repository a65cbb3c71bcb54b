/**
 * The session (server/http/session.ts): cookies parsed, the request's session read before any
 * route, and signed-in sessions kept in the `sessions` table (server/db/sessions.ts).
 */
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import type { Database } from '../db/index.ts';
import { sessionStore } from '../db/sessions.ts';
import { installSession } from '../http/session.ts';

async function sessionPlugin(
  app: FastifyInstance,
  opts: { secret: string; db: Database; clock: () => Date },
): Promise<void> {
  await app.register(cookie);
  installSession(app, { secret: opts.secret, store: sessionStore(opts.db), clock: opts.clock });
}

export const session = fp(sessionPlugin, { name: 'session', fastify: '5.x' });
