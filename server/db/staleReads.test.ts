/**
 * Reads that may be a moment stale: the catalogue's event lists and organiser pages read from the
 * read pool when there is one (DATABASE_READ_URL), while the event's order form, stock and
 * everything else read the database written; without one (and always on PGlite) everything reads
 * the one database. A read the replicas cannot answer is answered by the write pool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { unchecked } from '../../contract/unchecked.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { hotEvent } from '../test/fixtures.ts';
import { eventOrderForm, eventsOnSale } from '../domain/catalogue.ts';
import { databaseUrl, openSeededTestDatabase, openTestDatabase } from './testing.ts';
import { openDatabase, rows, type OpenDatabase } from './index.ts';
import { openStaleReads, readStaleFrom, staleReads } from './staleReads.ts';
import * as t from './schema.ts';
import { parseConfig } from '../config.ts';

const REPLICA_TITLE = 'Only on the replica';
/** A seeded event, on the database written. */
const SEEDED_TITLE = 'Summer Jazz on the Quay';

describe('DATABASE_READ_URL', () => {
  it('is a PostgreSQL address beside DATABASE_URL, and unset by default', () => {
    expect(parseConfig({}).databaseReadUrl).toBeNull();
    expect(parseConfig({ DATABASE_URL: 'postgres://u@h:5000/db' }).databaseReadUrl).toBeNull();
    expect(
      parseConfig({ DATABASE_URL: 'postgres://u@h:5000/db', DATABASE_READ_URL: 'postgres://u@h:5001/db' })
        .databaseReadUrl,
    ).toBe('postgres://u@h:5001/db');
    expect(() => parseConfig({ DATABASE_URL: 'postgres://u@h:5000/db', DATABASE_READ_URL: 'mysql://u@h/db' })).toThrow(
      /DATABASE_READ_URL: must start with postgres:\/\//,
    );
    expect(() => parseConfig({ DATABASE_READ_URL: 'postgres://u@h:5001/db' })).toThrow(
      /DATABASE_READ_URL: needs DATABASE_URL/,
    );
  });
});

describe.each(drivers)('the catalogue’s stale reads on %s', (driver) => {
  let world: TestWorld;
  let replica: OpenDatabase;
  let replicaOrganiser: number;
  let replicaEvent: number;
  beforeAll(async () => {
    world = await openWorld(driver);
    // Another database standing in for a replica a moment behind: one event the leader does not have.
    replica = await openTestDatabase(driver);
    const { types } = await hotEvent(replica.db, { capacity: 10, types: 1 });
    const [date] = await replica.db.select().from(t.eventDates).where(eq(t.eventDates.id, types[0]!.eventDateId));
    const [event] = await replica.db
      .update(t.events)
      .set({ title: REPLICA_TITLE })
      .where(eq(t.events.id, date!.eventId))
      .returning();
    replicaEvent = event!.id;
    replicaOrganiser = event!.organiserId;
  });
  afterAll(async () => {
    await world?.close();
    await replica?.close();
  });

  const allEvents = async () => {
    const res = await new Visitor(world.app).request({ method: 'GET', url: '/all-events/' });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  it('reads the one database when no read pool is set', async () => {
    expect(staleReads(world.database.db)).toBe(world.database.db);
    const list = await allEvents();
    expect(list).not.toContain(REPLICA_TITLE);
    expect(list).toContain(SEEDED_TITLE);
  });

  it('lists the events and finds the organiser through the read pool; the order form and its stock read the database written', async () => {
    readStaleFrom(world.database.db, replica.db);
    const list = await allEvents();
    expect(list).toContain(REPLICA_TITLE);
    expect(list).not.toContain(SEEDED_TITLE);
    const organiser = await new Visitor(world.app).request({ method: 'GET', url: `/organiser/${replicaOrganiser}/` });
    expect(organiser.statusCode).toBe(200);
    expect(organiser.body).toContain(REPLICA_TITLE);
    // The order form shows stock: never from the replica.
    expect((await eventOrderForm(world.database.db, replicaEvent, world.clock.now))?.event.title).not.toBe(
      REPLICA_TITLE,
    );
    expect((await eventOrderForm(world.database.db, world.demo.events.jazz, world.clock.now))?.event.title).toBe(
      SEEDED_TITLE,
    );
  });
});

/** A test database's own address, whichever way testing.ts opened it. */
function urlOf(database: OpenDatabase): string {
  const { connectionString, options } = unchecked<{ $client: pg.Pool }>(database.db).$client.options as {
    connectionString: string;
    options?: string;
  };
  if (!options) return connectionString;
  const u = new URL(connectionString);
  u.searchParams.set('options', options);
  return u.toString();
}

describe.skipIf(!drivers.includes('postgres'))('DATABASE_READ_URL on PostgreSQL', () => {
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const fresh = `holdfast_stale_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = async (text: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(text).finally(() => c.end());
  };
  let seeded: Awaited<ReturnType<typeof openSeededTestDatabase>>;
  let opened: OpenDatabase;
  beforeAll(async () => {
    seeded = await openSeededTestDatabase('postgres');
    await admin(`CREATE DATABASE "${fresh}"`);
  });
  afterAll(async () => {
    await opened?.close();
    await seeded?.database.close();
    await admin(`DROP DATABASE IF EXISTS "${fresh}" WITH (FORCE)`);
  });

  it('opens a pool of its own, which the catalogue’s lists read and the order form does not', async () => {
    // Writes to a new, empty database; stale reads from one holding the demo catalogue.
    opened = await openDatabase({
      databaseUrl: databaseUrl(url, fresh),
      databaseReadUrl: urlOf(seeded.database),
      pgliteDir: 'unused',
      databasePoolSize: 2,
    });
    const { db } = opened;
    expect(staleReads(db)).not.toBe(db);
    const titles = (await eventsOnSale(db, null)).map((e) => e.event.title);
    expect(titles).toContain(SEEDED_TITLE);
    expect(await eventOrderForm(db, seeded.demo.events.jazz, new Date())).toBeNull();
  });

  it('answers a read from the write pool when the replicas cannot', async () => {
    const writes = new pg.Pool({ connectionString: url, max: 1, application_name: 'holdfast-writes' });
    const reads = openStaleReads('postgres://postgres@127.0.0.1:1/holdfast', 1, writes);
    try {
      const [row] = await rows<{ app: string }>(reads.db, sql`SELECT current_setting('application_name') AS app`);
      expect(row!.app).toBe('holdfast-writes');
    } finally {
      await reads.pool.end();
      await writes.end();
    }
  });
});
