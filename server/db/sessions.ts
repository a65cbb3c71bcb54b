/**
 * Signed-in sessions, kept in the `sessions` table by the hash of their id: the store the session
 * (server/http/session.ts) reads and writes.
 */
import { eq } from 'drizzle-orm';
import type { Database } from './index.ts';
import { sessions } from './schema.ts';

export interface SessionStore {
  /** The user and ends of a signed-in session, by the hash of its id; null when there is none. */
  find(idHash: string): Promise<{ userId: number; expiresAt: Date; lastSeenAt: Date } | null>;
  create(row: { idHash: string; userId: number; createdAt: Date; lastSeenAt: Date; expiresAt: Date }): Promise<void>;
  seen(idHash: string, at: Date): Promise<void>;
  remove(idHash: string): Promise<void>;
  /** Ends every session of the user; returns how many there were. */
  removeAllOf(userId: number): Promise<number>;
}

export function sessionStore(db: Database): SessionStore {
  return {
    async find(idHash) {
      const [row] = await db
        .select({ userId: sessions.userId, expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt })
        .from(sessions)
        .where(eq(sessions.idHash, idHash));
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
