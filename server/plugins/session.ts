/**
 * The session (server/http/session.ts): cookies parsed, the request's session read before any
 * route, and signed-in sessions kept in the `sessions` table.
 */
import type { FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { sessions } from '../db/schema.ts';
import { installSession, type SessionStore } from '../http/session.ts';

export function sessionStore(db: Database): SessionStore {
  return {
    async find(idHash) {
      const [row] = await db.select({ userId: sessions.userId, expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt }).from(sessions).where(eq(sessions.idHash, idHash));
      return row ?? null;
    },
    async create(row) {
      await db.insert(sessions).values(row);
    },
    async seen(idHash, at) {
      await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.idHash, idHash));
    },
    async remove(idHash) {
      await db.delete(sessions).where(eq(sessions.idHash, idHash));
    },
    async removeAllOf(userId) {
      const gone = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ idHash: sessions.idHash });
      return gone.length;
    },
  };
}

async function sessionPlugin(app: FastifyInstance, opts: { secret: string; db: Database; clock: () => Date }): Promise<void> {
  await app.register(cookie);
  installSession(app, { secret: opts.secret, store: sessionStore(opts.db), clock: opts.clock });
}

export const session = fp(sessionPlugin, { name: 'session', fastify: '5.x' });
