/**
 * The session: the visitor's sale and signed-in user ride in signed cookies (see
 * http/session.ts for reading and writing them), signed with SESSION_SECRET.
 */
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';

async function sessionCookies(app: FastifyInstance, opts: { secret: string }): Promise<void> {
  await app.register(cookie, { secret: opts.secret });
}

export const session = fp(sessionCookies, { name: 'session', fastify: '5.x' });
