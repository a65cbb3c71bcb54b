/**
 * The money ledger property test's world: one small-capacity event whose organiser takes card (its
 * own processor or Square's), bank and plan payments, two single-use codes, buyers signed in as their own accounts,
 * and an app that can be restarted on the same database while the buyers keep their cookies.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../db/index.ts';
import * as t from '../../db/schema.ts';
import type { Demo } from '../../seed.ts';
import { appOn, Visitor, type TestWorld } from '../harness.ts';

export const HOLD_SECONDS = 600;

export interface LedgerEvent {
  organiserId: number;
  eventId: number;
  poolId: number;
  capacity: number;
  typeId: number;
  charityId: number;
  codes: { half: { id: number; code: string }; free: { id: number; code: string } };
  userIds: number[];
}

/** A fresh event for one run: a pool of `capacity`, one ticket type, plans in 1 or 2 payments, two single-use codes. */
export async function ledgerEvent(
  db: Database,
  demo: Demo,
  opts: { capacity: number; buyers: number },
): Promise<LedgerEvent> {
  const tag = randomUUID().slice(0, 8).toUpperCase();
  const [org] = await db
    .insert(t.organisers)
    // Its own card processor to begin with; a run may switch it to Square and back.
    .values({
      slug: `ledger-${tag.toLowerCase()}`,
      name: `Ledger Hall ${tag}`,
      paymentProvider: null,
      charityId: demo.charity.id,
      contactEmail: `box-${tag.toLowerCase()}@ledger.example`,
    })
    .returning();
  const [event] = await db
    .insert(t.events)
    .values({
      organiserId: org!.id,
      title: `Ledger Night ${tag}`,
      currency: 'GBP',
      venueName: 'Hall',
      venueAddress: '1 High St',
      city: 'Leeds',
      thumbnail: '',
    })
    .returning();
  const [pool] = await db
    .insert(t.capacityPools)
    .values({ name: `Ledger Night ${tag} capacity`, capacity: opts.capacity })
    .returning();
  const [date] = await db
    .insert(t.eventDates)
    .values({ eventId: event!.id, startsAt: new Date('2026-12-01T19:00:00Z'), poolId: pool!.id })
    .returning();
  const [type] = await db
    .insert(t.ticketTypes)
    .values({ eventDateId: date!.id, name: 'Ledger ticket', price: 1000 })
    .returning();
  await db.insert(t.eventPaymentPlans).values([
    { eventId: event!.id, option: '1', label: 'Pay in full', instalments: 1, intervalDays: 0 },
    { eventId: event!.id, option: '2', label: '2 monthly payments', instalments: 2, intervalDays: 30 },
  ]);
  const [half] = await db
    .insert(t.discountCodes)
    .values({ code: `HALF${tag}`, kind: 'percent', amount: 5000, usageLimit: 1 })
    .returning();
  const [free] = await db
    .insert(t.discountCodes)
    .values({ code: `FREE${tag}`, kind: 'percent', amount: 10_000, usageLimit: 1 })
    .returning();
  const users = await db
    .insert(t.users)
    .values(
      Array.from({ length: opts.buyers }, (_, i) => ({
        email: `buyer${i}-${tag.toLowerCase()}@ledger.example`,
        firstName: `Buyer${i}`,
        lastName: `Ledger${tag}`,
      })),
    )
    .returning();
  return {
    organiserId: org!.id,
    eventId: event!.id,
    poolId: pool!.id,
    capacity: opts.capacity,
    typeId: type!.id,
    charityId: demo.charity.id,
    codes: { half: { id: half!.id, code: half!.code }, free: { id: free!.id, code: free!.code } },
    userIds: users.map((u) => u.id),
  };
}

type Clock = { now: Date; advance(ms: number): void };

/**
 * The running app, replaceable by a restart: buyers send their requests through `view`, which always
 * reaches the current app, so their cookies survive the restart. Time carries over to the new app.
 */
export class AppHandle {
  readonly view: FastifyInstance;
  private started: FastifyInstance[] = [];
  constructor(
    private readonly world: TestWorld,
    public app: FastifyInstance,
    public clock: Clock,
  ) {
    this.view = {
      inject: (...args: unknown[]) => (this.app.inject as (...a: unknown[]) => unknown)(...args),
    } as unknown as FastifyInstance;
  }

  now(): Date {
    return this.clock.now;
  }

  async restart(): Promise<void> {
    const now = this.clock.now;
    const next = await appOn(this.world.database, { checkoutTimeSeconds: HOLD_SECONDS });
    next.clock.now = now;
    const old = this.app;
    this.app = next.app;
    this.clock = next.clock;
    this.started.push(next.app);
    // The first app is the world's, closed with it.
    if (old !== this.world.app) await old.close();
  }

  async close(): Promise<void> {
    if (this.app !== this.world.app) await this.app.close();
  }
}

/** A buyer: a visitor whose every answer is checked for a server error, which is never allowed. */
export class Buyer extends Visitor {
  constructor(
    app: FastifyInstance,
    readonly label: string,
  ) {
    super(app);
  }

  override async request(opts: Parameters<Visitor['request']>[0]): Promise<LightMyRequestResponse> {
    const res = await super.request(opts);
    if (process.env.LEDGER_DEBUG)
      console.log(`  ${this.label} ${opts.method} ${opts.url} ${res.statusCode} ${res.body.slice(0, 160)}`);
    if (res.statusCode >= 500)
      throw new Error(
        `${this.label}: ${opts.method} ${opts.url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`,
      );
    return res;
  }

  /** The sale this buyer's cookie names, if any. */
  get saleId(): string | null {
    return /(?:^|;\s*)hf_sale=([0-9a-f-]{36})/.exec(this.cookieHeader)?.[1] ?? null;
  }
}
