/**
 * The versions of sales' checkouts as the database has them (checkout_versions,
 * server/db/functions/checkout_version.sql): what GET checkout asks before it sends a body it keeps
 * (server/http/checkoutData.ts).
 */
import { preparedRows, type Database } from '../db/index.ts';
import { writeWatchOf } from '../db/writeWatch.ts';

export type Version = { version: string; deadlineMs: number | null } | null;

/** A PostgreSQL array literal of these values (null as NULL), each element quoted. */
const arrayLiteral = (values: readonly (string | number | null)[]) =>
  `{${values.map((v) => (v === null ? 'NULL' : `"${String(v).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`)).join(',')}}`;

/**
 * The versions of sales' checkouts (checkout_versions), asked for in batches: a question asked
 * while none is on its way goes at once; those asked while one is on its way wait for it and then go
 * together, one round trip for all of them (the same sale and user asked for twice, once). Each
 * question goes in a round trip that starts after it was asked, so it sees every write committed
 * before it. A quiet server answers each read after one round trip, as without batches; a busy one
 * makes one round trip for many reads.
 */
export function versionReader(db: Database, entries: number) {
  let waiting = new Map<
    string,
    {
      saleId: string;
      userId: number | null;
      answers: { resolve: (v: Version) => void; reject: (err: unknown) => void }[];
    }
  >();
  let sending = false;
  // On the embedded database, the versions last read and the count of its writes they were read at:
  // while no write has ended since, the database would answer the same (server/db/writeWatch.ts).
  const watch = writeWatchOf(db);
  const known = new Map<string, { writes: number; version: Version }>();

  async function send(batch: typeof waiting): Promise<void> {
    const asked = [...batch.values()];
    try {
      const writes = watch?.count;
      const found = await preparedRows<{
        sale_id: string;
        user_id: number | null;
        version: string;
        deadline_ms: number | null;
      }>(
        db,
        'checkout_versions',
        'SELECT sale_id, user_id, version, deadline_ms FROM checkout_versions($1::text[], $2::int[])',
        [arrayLiteral(asked.map((a) => a.saleId)), arrayLiteral(asked.map((a) => a.userId))],
      );
      const byKey = new Map(found.map((r) => [`${r.sale_id}|${r.user_id ?? ''}`, r]));
      for (const a of asked) {
        const row = byKey.get(`${a.saleId}|${a.userId ?? ''}`);
        const version: Version = row
          ? { version: row.version, deadlineMs: row.deadline_ms === null ? null : Number(row.deadline_ms) }
          : null;
        if (writes !== undefined) {
          const key = `${a.saleId}|${a.userId ?? ''}`;
          known.delete(key);
          known.set(key, { writes, version });
          if (known.size > entries) known.delete(known.keys().next().value!);
        }
        for (const answer of a.answers) answer.resolve(version);
      }
    } catch (err) {
      for (const a of asked) for (const answer of a.answers) answer.reject(err);
    }
  }

  async function drain(): Promise<void> {
    sending = true;
    try {
      while (waiting.size > 0) {
        const batch = waiting;
        waiting = new Map();
        await send(batch);
      }
    } finally {
      sending = false;
    }
  }

  return (saleId: string, userId: number | null): Promise<Version> =>
    new Promise((resolve, reject) => {
      const key = `${saleId}|${userId ?? ''}`;
      const seen = watch && known.get(key);
      if (seen && seen.writes === watch!.count) return resolve(seen.version);
      let entry = waiting.get(key);
      if (!entry) waiting.set(key, (entry = { saleId, userId, answers: [] }));
      entry.answers.push({ resolve, reject });
      if (!sending) void drain();
    });
}
