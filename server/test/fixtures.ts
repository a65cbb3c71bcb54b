/** Stock fixtures for the concurrency tests: a fresh event whose ticket types share one pool. */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/index.ts';
import { Visitor } from './harness.ts';
import { rows } from '../db/index.ts';
import * as t from '../db/schema.ts';

export async function hotEvent(
  db: Database,
  opts: { capacity: number; types: number; ownLimit?: { typeIndex: number; capacity: number } },
) {
  const [org] = await db
    .insert(t.organisers)
    .values({ slug: `rush-${randomUUID()}`, name: 'Rush Promotions' })
    .returning();
  const [event] = await db
    .insert(t.events)
    .values({
      organiserId: org!.id,
      title: 'Rush Night',
      currency: 'GBP',
      venueName: 'Hall',
      venueAddress: '1 High St',
      city: 'Leeds',
      thumbnail: '',
    })
    .returning();
  const [pool] = await db
    .insert(t.capacityPools)
    .values({ name: 'Rush Night capacity', capacity: opts.capacity })
    .returning();
  const [date] = await db
    .insert(t.eventDates)
    .values({ eventId: event!.id, startsAt: new Date('2026-12-01T19:00:00Z'), poolId: pool!.id })
    .returning();
  const own = opts.ownLimit
    ? (
        await db
          .insert(t.capacityPools)
          .values({ name: 'Rush Night own limit', capacity: opts.ownLimit.capacity })
          .returning()
      )[0]!
    : null;
  const types = [];
  for (let i = 0; i < opts.types; i++) {
    const [type] = await db
      .insert(t.ticketTypes)
      .values({
        eventDateId: date!.id,
        name: `Rush ticket ${i + 1}`,
        price: 1000 + i * 500,
        poolId: own && opts.ownLimit?.typeIndex === i ? own.id : null,
      })
      .returning();
    types.push(type!);
  }
  return { poolId: pool!.id, ownPoolId: own?.id ?? null, types };
}

/** A sale with the given lines, inserted directly: the rush is about reserving, not adding. */
export async function saleWith(db: Database, lines: { ticketTypeId: number; qty: number }[]): Promise<string> {
  return (await salesWith(db, [lines]))[0]!;
}

export async function salesWith(db: Database, baskets: { ticketTypeId: number; qty: number }[][]): Promise<string[]> {
  const ids = baskets.map(() => randomUUID());
  await db.insert(t.sales).values(ids.map((id) => ({ id, currency: 'GBP' })));
  const lines = baskets.flatMap((lines, i) => lines.map((l) => ({ saleId: ids[i]!, ...l })));
  if (lines.length) await db.insert(t.saleLines).values(lines);
  return ids;
}

/** Sold plus live holds of a pool, as the claim counts them. */
export async function taken(db: Database, poolId: number, now: Date): Promise<number> {
  const [row] = await rows<{ taken: number }>(
    db,
    sql`SELECT (p.sold + COALESCE((SELECT sum(qty) FROM holds h WHERE h.pool_id = p.id AND h.deadline > ${now.toISOString()}::timestamptz), 0))::int AS taken
        FROM capacity_pools p WHERE p.id = ${poolId}`,
  );
  return Number(row!.taken);
}

/** A small deterministic generator, so a failing seed can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A visitor signed in as a new account of their own: a buyer the payment step knows. */
export async function signedInVisitor(app: FastifyInstance, db: Database): Promise<Visitor> {
  const tag = randomUUID().slice(0, 8);
  const [user] = await db
    .insert(t.users)
    .values({ email: `buyer-${tag}@fixtures.example`, firstName: 'Pat', lastName: `Buyer${tag}` })
    .returning();
  const visitor = new Visitor(app);
  const res = await visitor.request({ method: 'POST', url: '/signin/', body: `user_id=${user!.id}` });
  if (res.statusCode !== 303) throw new Error(`signing in answered ${res.statusCode}`);
  return visitor;
}
