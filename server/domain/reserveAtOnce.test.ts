/**
 * The reservation of a basket without seats is one statement (`reserve_sale`): it reserves only
 * the basket that was read and checked, answers a sale already holding its tickets, and a refused
 * claim leaves nothing of itself behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from '../db/testing.ts';
import { rows, type OpenDatabase } from '../db/index.ts';
import { reserveSaleAtOnce, type ReserveClaims } from './stock.ts';
import { reserveSale } from './reserve.ts';
import { drivers } from '../test/harness.ts';
import { hotEvent, saleWith } from '../test/fixtures.ts';

const now = new Date('2026-06-01T12:00:00.000Z');
const deadline = new Date(now.getTime() + 600_000);

function claimsFor(saleId: string, poolId: number, typeId: number, qty: number): ReserveClaims {
  return {
    saleId,
    now,
    deadline,
    pools: [poolId],
    claims: [{ pool: poolId, type: typeId, qty }],
    buyerKeys: [],
    wanted: new Map(),
    cap: null,
    codeId: null,
    reference: 'HF-TESTREF1',
    buyerIp: null,
    userId: null,
  };
}

describe.each(drivers)('reserving in one statement on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(driver, 4);
  });
  afterAll(async () => database?.close());

  async function state(saleId: string, poolId: number) {
    const [row] = await rows<{ reference: string | null; held: number; holds: number }>(
      database.db,
      sql`SELECT (SELECT reference FROM sales WHERE id = ${saleId}) AS reference,
                 (SELECT held FROM capacity_pools WHERE id = ${poolId}) AS held,
                 (SELECT count(*)::int FROM holds WHERE sale_id = ${saleId}) AS holds`,
    );
    return { reference: row!.reference, held: Number(row!.held), holds: Number(row!.holds) };
  }

  it('does not reserve a basket that changed after it was read: it asks for a fresh read', async () => {
    const { db } = database;
    const { poolId, types } = await hotEvent(db, { capacity: 10, types: 1 });
    const sale = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 2 }]);
    // Read when the basket held one ticket; it holds two now.
    const result = await reserveSaleAtOnce(db, {
      ...claimsFor(sale, poolId, types[0]!.id, 1),
      basket: `${types[0]!.id}:1|v0`,
      lockTimeout: '5s',
    });
    expect(result).toEqual({ outcome: 'changed' });
    expect(await state(sale, poolId)).toEqual({ reference: null, held: 0, holds: 0 });
    // Read again, it reserves the two.
    expect(await reserveSale(db, sale, now, 600)).toMatchObject({ reserved: true, freshReservation: true });
    expect(await state(sale, poolId)).toMatchObject({ held: 2, holds: 1 });
  });

  it('answers a sale that already holds its tickets with its reference, claiming nothing more', async () => {
    const { db } = database;
    const { poolId, types } = await hotEvent(db, { capacity: 10, types: 1 });
    const sale = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 1 }]);
    const first = await reserveSale(db, sale, now, 600);
    expect(first).toMatchObject({ reserved: true });
    const again = await reserveSaleAtOnce(db, {
      ...claimsFor(sale, poolId, types[0]!.id, 1),
      basket: `${types[0]!.id}:1|v0`,
      lockTimeout: '5s',
    });
    expect(again).toEqual({ outcome: 'held', reference: first.reserved ? first.saleReference : '', deadline });
    expect(await state(sale, poolId)).toMatchObject({ held: 1, holds: 1 });
  });

  it('leaves nothing behind when a claim is refused: no reference, no hold, the pool unchanged', async () => {
    const { db } = database;
    const { poolId, types } = await hotEvent(db, { capacity: 1, types: 1 });
    const sale = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty: 2 }]);
    const result = await reserveSaleAtOnce(db, {
      ...claimsFor(sale, poolId, types[0]!.id, 2),
      basket: `${types[0]!.id}:2|v0`,
      lockTimeout: '5s',
    });
    expect(result).toEqual({ outcome: 'refused', verdict: { refused: null, unavailable: [types[0]!.id] } });
    expect(await state(sale, poolId)).toEqual({ reference: null, held: 0, holds: 0 });
    expect(await reserveSale(db, sale, now, 600)).toEqual({
      reserved: false,
      error: 'Sorry, these tickets are no longer available in the numbers you chose: Rush ticket 1',
    });
  });
});

// An on-sale sends this statement once per buyer: PostgreSQL parses and plans it once per connection.
describe.each(drivers.filter((d) => d === 'postgres'))('the usual reservation on %s', (driver) => {
  let database: OpenDatabase;
  beforeAll(async () => {
    // One connection, so every reservation meets the statement the first one prepared.
    database = await openTestDatabase(driver, 1);
  });
  afterAll(async () => database?.close());

  it('is one prepared statement, kept on the connection for the next buyer', async () => {
    const { db } = database;
    const { poolId, types } = await hotEvent(db, { capacity: 10, types: 1 });
    for (const qty of [1, 2]) {
      const sale = await saleWith(db, [{ ticketTypeId: types[0]!.id, qty }]);
      expect(
        await reserveSale(db, sale, now, 600, { maxHeldPerBuyer: 6, buyer: { userId: null, ip: '192.0.2.7' } }),
      ).toMatchObject({ reserved: true, freshReservation: true });
    }
    expect(await state2(poolId)).toBe(3);
    const prepared = await rows<{ statement: string }>(
      db,
      sql`SELECT statement FROM pg_prepared_statements WHERE name = 'reserve_basket'`,
    );
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.statement).toMatch(/^SELECT reserve_basket\(\$1/);
  });

  async function state2(poolId: number) {
    const [row] = await rows<{ held: number }>(database.db, sql`SELECT held FROM capacity_pools WHERE id = ${poolId}`);
    return Number(row!.held);
  }
});
