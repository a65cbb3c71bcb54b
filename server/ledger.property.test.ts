/**
 * The money ledger under random interleavings, through the real app on each driver (fast-check
 * model-based commands). Two or three buyers share one ticket type of small capacity and edit their
 * baskets, apply a single-use code, toggle refund protection, donate, reserve, and pay every way:
 * a card client secret on the sandbox card page (old secrets included), the sandbox bank (at once or
 * slowly), Square's sandbox, an instalment plan, a free claim. Processor words arrive duplicated,
 * reordered and late; the clock passes the hold and the grace; the sweeper, the reconciliation job,
 * the bank's due decisions and the instalment job run; the app restarts on the same database.
 * After every command the ledger's invariants (see test/ledger/invariants.ts) are read by SQL.
 *
 * LEDGER_RUNS sets the number of runs; a failure is replayed with the seed and path it prints
 * (LEDGER_SEED, LEDGER_REPLAY) and its commands' replayPath (LEDGER_PATH); LEDGER_DEBUG=1 prints
 * every command and request.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import fc from 'fast-check';
import { eq, sql } from 'drizzle-orm';
import { rows } from './db/index.ts';
import * as t from './db/schema.ts';
import { drivers, openWorld, type TestWorld } from './test/harness.ts';
import { AppHandle, Buyer, HOLD_SECONDS, ledgerEvent, type LedgerEvent } from './test/ledger/world.ts';
import { basketOf, emptyModel, ledgerViolations, type LedgerModel, type Snapshot } from './test/ledger/invariants.ts';
import { parseConfig } from './config.ts';
import { paymentWiring } from './providers/payment.ts';
import { bankWiring } from './providers/bank.ts';
import { planWiring } from './providers/plans.ts';
import { processorLinks } from './providers/processorLinks.ts';
import { settlePayment, type Payment } from './domain/payment/payments.ts';
import { reconcilePayments } from './domain/payment/reconcile.ts';
import { settleDueBankDecisions } from './domain/payment/bankTransfer.ts';
import { sandboxBank } from './domain/payment/bank.ts';
import { sweepExpiredHolds } from './domain/stock.ts';
import { runInstalmentJob } from './domain/instalments/job.ts';
import { sandboxSavedCards } from './domain/instalments/offSession.ts';
import { Refusal } from './domain/refusal.ts';
import { SANDBOX_CARDS } from '../contract/index.ts';

const RUNS = Number(process.env.LEDGER_RUNS ?? 20);
const SEED = Number(process.env.LEDGER_SEED ?? 20_260_601);
const BUYERS = 2;
const CAPACITY = 2;
const MAX_COMMANDS = 60;
const DAY = 86_400_000;
const SUCCESS_CARD = SANDBOX_CARDS.success;
const ADDRESS = {
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '1 Quay St',
  address_2: '',
  town: 'Plymouth',
  postcode: 'PL1 2LD',
  state: '',
  country_code: 'GB',
};

interface Ledger {
  world: TestWorld;
  handle: AppHandle;
  event: LedgerEvent;
  buyers: Buyer[];
  graceMs: number;
}

type Cmd = fc.AsyncCommand<LedgerModel, Ledger>;

/** One step of a run: act, learn the buyers' sales, then check the whole ledger. */
abstract class Step implements Cmd {
  check(): boolean {
    return true;
  }
  async run(m: LedgerModel, r: Ledger): Promise<void> {
    if (process.env.LEDGER_DEBUG) console.log(this.toString());
    await this.act(m, r);
    for (const b of r.buyers) if (b.saleId) m.sales.add(b.saleId);
    const problems = await ledgerViolations(r.world.database.db, r.event, m, r.handle.now());
    if (problems.length) throw new Error(`after ${this.toString()}:\n  - ${problems.join('\n  - ')}`);
  }
  abstract act(m: LedgerModel, r: Ledger): Promise<void>;
  abstract toString(): string;
}

const B = (b: number) => `B${b}`;

/**
 * Runs `start` (a step that may begin a payment, a plan or a free claim) with a snapshot of what the
 * buyer's basket is when it begins; whatever it made is recorded as made for that snapshot.
 */
async function beginning(m: LedgerModel, r: Ledger, b: number, by: string, start: () => Promise<void>): Promise<void> {
  const { db } = r.world.database;
  const buyer = r.buyers[b]!;
  const saleId = buyer.saleId;
  let snapshot: Snapshot | null = null;
  if (saleId) {
    const checkout = await buyer.checkout();
    snapshot = { total: checkout.basket_total, basket: await basketOf(db, r.event, saleId), by };
    if (process.env.LEDGER_DEBUG) console.log(`  ${by} begins at ${snapshot.total} for [${snapshot.basket}]`);
  }
  const [{ max }] = (await rows<{ max: number }>(db, sql`SELECT COALESCE(max(id), 0)::int AS max FROM payments`)) as [
    { max: number },
  ];
  const hadPlan = saleId
    ? (await db.select().from(t.instalmentPlans).where(eq(t.instalmentPlans.saleId, saleId))).length > 0
    : false;
  const wasPaid = saleId ? Boolean((await db.select().from(t.sales).where(eq(t.sales.id, saleId)))[0]?.paidAt) : false;
  await start();
  if (!saleId || !snapshot) return;
  const made = await rows<{ id: number; sale_id: string }>(
    db,
    sql`SELECT id, sale_id FROM payments WHERE id > ${max} ORDER BY id`,
  );
  for (const p of made) if (p.sale_id === saleId) m.payments.set(p.id, snapshot);
  if (!hadPlan && (await db.select().from(t.instalmentPlans).where(eq(t.instalmentPlans.saleId, saleId))).length > 0)
    m.plans.set(saleId, snapshot);
  const [sale] = await db.select().from(t.sales).where(eq(t.sales.id, saleId));
  if (!wasPaid && sale?.paidAt && made.length === 0 && !m.plans.has(saleId)) m.claims.set(saleId, snapshot);
}

class AddTickets extends Step {
  constructor(
    readonly b: number,
    readonly qty: number,
  ) {
    super();
  }
  async act(_m: LedgerModel, r: Ledger) {
    await r.buyers[this.b]!.add({ [r.event.typeId]: this.qty });
  }
  toString() {
    return `add(${B(this.b)}, ${this.qty})`;
  }
}

class SetQuantity extends Step {
  constructor(
    readonly b: number,
    readonly qty: number,
  ) {
    super();
  }
  async act(_m: LedgerModel, r: Ledger) {
    await r.buyers[this.b]!.call('updateTicketQuantity', { ticket_id: r.event.typeId, quantity: this.qty } as never);
  }
  toString() {
    return `quantity(${B(this.b)}, ${this.qty})`;
  }
}

class ApplyCode extends Step {
  constructor(
    readonly b: number,
    readonly which: 'half' | 'free',
  ) {
    super();
  }
  async act(_m: LedgerModel, r: Ledger) {
    await r.buyers[this.b]!.call('setCode', { code: r.event.codes[this.which].code });
  }
  toString() {
    return `code(${B(this.b)}, ${this.which.toUpperCase()})`;
  }
}

class Protection extends Step {
  constructor(
    readonly b: number,
    readonly on: boolean,
  ) {
    super();
  }
  async act(_m: LedgerModel, r: Ledger) {
    await r.buyers[this.b]!.call('updateRefundProtection', { refund_protection: String(this.on) } as never);
  }
  toString() {
    return `protection(${B(this.b)}, ${this.on ? 'on' : 'off'})`;
  }
}

class Donate extends Step {
  constructor(
    readonly b: number,
    readonly amount: number,
  ) {
    super();
  }
  async act(_m: LedgerModel, r: Ledger) {
    await r.buyers[this.b]!.call('saveDonation', {
      amount_before_booking_fee: String(this.amount),
      charity_id: String(r.event.charityId),
    } as never);
  }
  toString() {
    return `donate(${B(this.b)}, ${this.amount})`;
  }
}

/** reserve_tickets, then the payment step, as the checkout goes on after a reservation. */
async function reserve(buyer: Buyer): Promise<void> {
  const res = await buyer.call('reserveTickets', {} as never);
  if (res.statusCode === 200 && (res.json() as { reserved?: boolean }).reserved)
    await buyer.call('updateBasketState', { state: 'payment' } as never);
}

/** A payment step, taken straight after reserving (`fresh`) or whenever the buyer is. */
const named = (step: string, b: number, fresh: boolean, extra = '') =>
  `${fresh ? 'reserve+' : ''}${step}(${B(b)}${extra})`;

class Reserve extends Step {
  constructor(readonly b: number) {
    super();
  }
  async act(_m: LedgerModel, r: Ledger) {
    await reserve(r.buyers[this.b]!);
  }
  toString() {
    return `reserve(${B(this.b)})`;
  }
}

/** get_token: a card payment begins (or the open one is answered again). */
class GetToken extends Step {
  constructor(
    readonly b: number,
    readonly fresh: boolean,
  ) {
    super();
  }
  async act(m: LedgerModel, r: Ledger) {
    if (this.fresh) await reserve(r.buyers[this.b]!);
    await beginning(m, r, this.b, this.toString(), async () => {
      const res = await r.buyers[this.b]!.call('getStripeToken');
      if (res.statusCode !== 200) return;
      const secret = String((res.json() as { client_secret: string }).client_secret);
      const mine = m.secrets[this.b]!;
      if (mine.at(-1) !== secret) mine.push(secret);
    });
  }
  toString() {
    return named('getToken', this.b, this.fresh);
  }
}

/** The buyer pays one of their client secrets on the sandbox card page: 0 the latest, 1 the one before, … */
class PayCard extends Step {
  constructor(
    readonly b: number,
    readonly back: number,
    readonly start: boolean,
  ) {
    super();
  }
  async act(m: LedgerModel, r: Ledger) {
    if (this.start) await new GetToken(this.b, false).act(m, r);
    const mine = m.secrets[this.b]!;
    if (mine.length === 0) return;
    const secret = mine[mine.length - 1 - (this.back % mine.length)]!;
    await r.buyers[this.b]!.request({
      method: 'POST',
      url: '/sandbox/card/',
      body: new URLSearchParams({ secret, number: SUCCESS_CARD, expiry: '12/34', cvc: '123' }).toString(),
    });
  }
  toString() {
    return `${this.start ? 'getToken+' : ''}payCard(${B(this.b)}, ${this.back === 0 ? 'latest secret' : `secret ${this.back} back`})`;
  }
}

/** pay_with_truelayer, then the sandbox bank approves at once or slowly, then the bank's return. */
class PayBank extends Step {
  constructor(
    readonly b: number,
    readonly fresh: boolean,
    readonly slow: boolean,
  ) {
    super();
  }
  async act(m: LedgerModel, r: Ledger) {
    if (this.fresh) await reserve(r.buyers[this.b]!);
    const buyer = r.buyers[this.b]!;
    await beginning(m, r, this.b, this.toString(), async () => {
      const res = await buyer.call('payWithTruelayer', { contact_number: '07700 900123' });
      if (res.statusCode !== 200) return;
      const authUrl = String((res.json() as { auth_url: string }).auth_url);
      const token = new URL(authUrl, 'http://x').searchParams.get('token')!;
      const decided = await buyer.request({
        method: 'POST',
        url: '/sandbox/bank/',
        body: new URLSearchParams({
          token,
          decision: this.slow ? 'slow' : 'approve',
          ...(this.slow ? { delay: String(HOLD_SECONDS + 120) } : {}),
        }).toString(),
      });
      if (decided.statusCode === 303) await buyer.request({ method: 'GET', url: String(decided.headers.location) });
    });
  }
  toString() {
    return named('payBank', this.b, this.fresh, this.slow ? ', slow approval' : ', approve');
  }
}

class PaySquare extends Step {
  constructor(
    readonly b: number,
    readonly fresh: boolean,
  ) {
    super();
  }
  async act(m: LedgerModel, r: Ledger) {
    if (this.fresh) await reserve(r.buyers[this.b]!);
    const buyer = r.buyers[this.b]!;
    const tokenised = await buyer.call('tokeniseSandboxSquareCard', {
      number: SUCCESS_CARD,
      expiry: '12/34',
      cvc: '123',
    });
    if (tokenised.statusCode !== 200) return;
    const token = String((tokenised.json() as { token: string }).token);
    m.cards.add(token);
    await beginning(m, r, this.b, this.toString(), async () => {
      await buyer.call('payWithSquare', { billing_address_data: ADDRESS, source_id: token });
    });
  }
  toString() {
    return named('paySquare', this.b, this.fresh);
  }
}

/** pay_with_instalment: a new sandbox card, two monthly payments, the first taken now. */
class SetUpPlan extends Step {
  constructor(
    readonly b: number,
    readonly fresh: boolean,
  ) {
    super();
  }
  async act(m: LedgerModel, r: Ledger) {
    if (this.fresh) await reserve(r.buyers[this.b]!);
    const buyer = r.buyers[this.b]!;
    const saved = await buyer.call('saveSandboxCard', { number: SUCCESS_CARD, expiry: '12/34', cvc: '123' });
    if (saved.statusCode !== 200) return;
    const card = saved.json() as { id: string };
    m.cards.add(card.id);
    await beginning(m, r, this.b, this.toString(), async () => {
      await buyer.call('payWithInstalment', {
        instalment_option: '2',
        contact_number: '07700 900123',
        new_payment_method: card,
      } as never);
    });
  }
  toString() {
    return named('setUpPlan', this.b, this.fresh);
  }
}

class ClaimFree extends Step {
  constructor(
    readonly b: number,
    readonly prepare: 'none' | 'reserve' | 'free code',
  ) {
    super();
  }
  async act(m: LedgerModel, r: Ledger) {
    const buyer = r.buyers[this.b]!;
    if (this.prepare === 'free code') await buyer.call('setCode', { code: r.event.codes.free.code });
    if (this.prepare !== 'none') await reserve(buyer);
    await beginning(m, r, this.b, this.toString(), async () => {
      await buyer.call('claimFreeTickets', {} as never);
    });
  }
  toString() {
    return `${this.prepare === 'free code' ? 'code FREE+reserve+' : this.prepare === 'reserve' ? 'reserve+' : ''}claimFree(${B(this.b)})`;
  }
}

/**
 * The organiser changes how it is paid: Square (card by Square, bank transfer, plans) or its own card
 * processor (card, bank transfer, plans). Payments begun the other way stay as they are.
 */
class SwitchProvider extends Step {
  constructor(readonly provider: 'square' | 'card') {
    super();
  }
  async act(_m: LedgerModel, r: Ledger) {
    await r.world.database.db
      .update(t.organisers)
      .set({ paymentProvider: this.provider === 'square' ? 'square' : null })
      .where(eq(t.organisers.id, r.event.organiserId));
  }
  toString() {
    return `organiserTakes(${this.provider})`;
  }
}

/**
 * A single-use code changes hands while a payment is still out: the buyer applies it, reserves and
 * begins paying (by card, or at the bank with a slow approval); the hold and its grace pass; the other
 * buyer applies the freed code and reserves; then the first buyer's money arrives late and its booking
 * spends the code's one use. The other buyer then pays (a plan, a card, or Square's card once the
 * organiser has moved to Square), or leaves it to the
 * commands that follow: whatever they are charged cannot book, and must come back.
 */
class CodeChangesHands extends Step {
  constructor(
    readonly b: number,
    readonly how: 'card' | 'bank',
    readonly then: 'plan' | 'card' | 'square' | 'nothing',
  ) {
    super();
  }
  async act(m: LedgerModel, r: Ledger) {
    const o = (this.b + 1) % r.buyers.length;
    const code = r.event.codes.half.code;
    await r.buyers[this.b]!.call('setCode', { code });
    if (this.how === 'card') await new GetToken(this.b, true).act(m, r);
    else await new PayBank(this.b, true, true).act(m, r);
    r.handle.clock.advance(HOLD_SECONDS * 1000 + r.graceMs + 1000);
    await sweepExpiredHolds(r.world.database.db, r.handle.now());
    await r.buyers[o]!.call('setCode', { code });
    await reserve(r.buyers[o]!);
    if (this.how === 'card') await new PayCard(this.b, 0, false).act(m, r);
    else await new BankDecisionsDue().act(m, r);
    if (this.then === 'plan') await new SetUpPlan(o, false).act(m, r);
    if (this.then === 'card') await new PayCard(o, 0, true).act(m, r);
    if (this.then === 'square') {
      await new SwitchProvider('square').act(m, r);
      await new PaySquare(o, false).act(m, r);
    }
  }
  toString() {
    return `codeChangesHands(${B(this.b)} paid late by ${this.how}, then ${this.then === 'nothing' ? 'nothing' : `the other pays by ${this.then}`})`;
  }
}

class Deliver extends Step {
  constructor(readonly b: number) {
    super();
  }
  async act(_m: LedgerModel, r: Ledger) {
    await r.buyers[this.b]!.call('deliverToBitticket');
  }
  toString() {
    return `deliver(${B(this.b)})`;
  }
}

/**
 * A processor's word about one of this run's payments (0 the newest, 1 the one before, …), as a webhook or the
 * job's question would bring it: success replayed, duplicated, late, or after the payment closed;
 * or a failure arriving after the fact.
 */
class ProcessorWord extends Step {
  constructor(
    readonly pick: number,
    readonly status: 'succeeded' | 'failed',
  ) {
    super();
  }
  async act(m: LedgerModel, r: Ledger) {
    const { db } = r.world.database;
    const ids = [...m.sales];
    if (ids.length === 0) return;
    const mine = await db
      .select()
      .from(t.payments)
      .where(
        sql`${t.payments.saleId} IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      )
      .orderBy(t.payments.id);
    if (mine.length === 0) return;
    const payment: Payment = mine[mine.length - 1 - (this.pick % mine.length)]!;
    const links = processorLinks({
      payment: paymentWiring(parseConfig(process.env)),
      bank: bankWiring(parseConfig(process.env)),
      plans: planWiring(db, parseConfig(process.env)),
    });
    await settlePayment(
      db,
      links(payment).refunder,
      {
        provider: payment.provider,
        providerPaymentId: payment.providerPaymentId,
        status: this.status,
        amount: payment.amount,
        currency: payment.currency,
        failureMessage: this.status === 'failed' ? 'Your card was declined.' : null,
      },
      r.handle.now(),
    ).catch((err: unknown) => {
      if (!(err instanceof Refusal)) throw err;
    });
  }
  toString() {
    return `processorSays(${this.pick === 0 ? 'newest payment' : `payment ${this.pick} back`}, ${this.status})`;
  }
}

class Advance extends Step {
  constructor(
    readonly past: 'minute' | 'hold' | 'grace',
    readonly sweep: boolean,
  ) {
    super();
  }
  async act(_m: LedgerModel, r: Ledger) {
    const ms =
      this.past === 'minute'
        ? 60_000
        : this.past === 'hold'
          ? HOLD_SECONDS * 1000 + 1000
          : HOLD_SECONDS * 1000 + r.graceMs + 1000;
    r.handle.clock.advance(ms);
    if (this.sweep) await sweepExpiredHolds(r.world.database.db, r.handle.now());
  }
  toString() {
    return `advance(${this.past === 'minute' ? 'a minute' : `past the ${this.past}`})${this.sweep ? '+sweep' : ''}`;
  }
}

class Sweep extends Step {
  async act(_m: LedgerModel, r: Ledger) {
    await sweepExpiredHolds(r.world.database.db, r.handle.now());
  }
  toString() {
    return 'sweep()';
  }
}

class Reconcile extends Step {
  async act(_m: LedgerModel, r: Ledger) {
    const { db } = r.world.database;
    await reconcilePayments(
      db,
      processorLinks({
        payment: paymentWiring(parseConfig(process.env)),
        bank: bankWiring(parseConfig(process.env)),
        plans: planWiring(db, parseConfig(process.env)),
      }),
      r.handle.now(),
    );
  }
  toString() {
    return 'reconcile()';
  }
}

class BankDecisionsDue extends Step {
  async act(_m: LedgerModel, r: Ledger) {
    await settleDueBankDecisions(r.world.database.db, sandboxBank(), r.handle.now());
  }
  toString() {
    return 'bankDecisionsDue()';
  }
}

/** The instalment job as of `days` from now (the app's own clock does not move). */
class InstalmentJob extends Step {
  constructor(readonly days: number) {
    super();
  }
  async act(_m: LedgerModel, r: Ledger) {
    const { db } = r.world.database;
    await runInstalmentJob(
      {
        db,
        cards: sandboxSavedCards(),
        mail: {
          mailer: { transport: null, from: 'test@holdfast.test' },
          brandName: 'Holdfast',
          publicUrl: 'http://holdfast.test',
        },
        walletUrl: 'http://holdfast.test/account/wallet/',
      },
      new Date(r.handle.now().getTime() + this.days * DAY),
    );
  }
  toString() {
    return `instalmentJob(+${this.days} days)`;
  }
}

/** A new app on the same database; the buyers keep their cookies, time carries on. */
class Restart extends Step {
  async act(_m: LedgerModel, r: Ledger) {
    await r.handle.restart();
  }
  toString() {
    return 'restart()';
  }
}

/** What the runs did, counted: shows the commands reach the paths they are meant to. */
async function tally(seen: Record<string, number>, m: LedgerModel, r: Ledger) {
  const ids = [...m.sales];
  if (ids.length === 0) return;
  const found = await rows<{ what: string; n: number }>(
    r.world.database.db,
    sql`SELECT CASE WHEN p.idempotency_key LIKE 'plan:%' THEN 'plan first instalment' ELSE p.provider END || ' ' || p.status || ' ' || COALESCE(p.outcome, '-')
               || CASE WHEN r.id IS NULL THEN '' ELSE ' refund ' || r.status || ' (' || r.reason || ')' END AS what, count(*)::int AS n
          FROM payments p LEFT JOIN payment_refunds r ON r.payment_id = p.id
         WHERE p.sale_id IN (${sql.join(
           ids.map((id) => sql`${id}`),
           sql`, `,
         )}) GROUP BY 1
        UNION ALL SELECT 'plan ' || status, count(*)::int FROM instalment_plans WHERE sale_id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) GROUP BY 1
        UNION ALL SELECT 'free claim', ${m.claims.size}
        UNION ALL SELECT 'paid sale', count(*)::int FROM sales WHERE paid_at IS NOT NULL AND id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  for (const { what, n } of found) if (Number(n) > 0) seen[what] = (seen[what] ?? 0) + Number(n);
}

/** Buyer B0 acts most, so one buyer's steps often follow each other; B1 competes for the stock and the code. */
const buyer = fc.constantFrom(...Array.from({ length: BUYERS }, (_, i) => i), 0, 0);
/** Each step's weight is how often it appears: the steps that move money come up most. */
const weighted = (weight: number, arb: fc.Arbitrary<Cmd>) => Array.from({ length: weight }, () => arb);
const steps: fc.Arbitrary<Cmd>[] = [
  ...weighted(
    1,
    fc.tuple(buyer, fc.integer({ min: 1, max: 2 })).map(([b, q]) => new AddTickets(b, q)),
  ),
  ...weighted(
    3,
    fc.tuple(buyer, fc.integer({ min: 1, max: 3 })).map(([b, q]) => new SetQuantity(b, q)),
  ),
  ...weighted(
    2,
    fc.tuple(buyer, fc.constantFrom<'half' | 'free'>('half', 'free')).map(([b, c]) => new ApplyCode(b, c)),
  ),
  ...weighted(
    2,
    fc.tuple(buyer, fc.boolean()).map(([b, on]) => new Protection(b, on)),
  ),
  ...weighted(
    2,
    fc.tuple(buyer, fc.constantFrom(500, 1500)).map(([b, a]) => new Donate(b, a)),
  ),
  ...weighted(
    3,
    buyer.map((b) => new Reserve(b)),
  ),
  ...weighted(
    5,
    fc.tuple(buyer, fc.boolean()).map(([b, fresh]) => new GetToken(b, fresh)),
  ),
  ...weighted(
    6,
    fc.tuple(buyer, fc.nat({ max: 3 }), fc.boolean()).map(([b, back, start]) => new PayCard(b, back, start)),
  ),
  ...weighted(
    2,
    fc.tuple(buyer, fc.boolean(), fc.boolean()).map(([b, fresh, slow]) => new PayBank(b, fresh, slow)),
  ),
  ...weighted(
    2,
    fc.tuple(buyer, fc.boolean()).map(([b, fresh]) => new PaySquare(b, fresh)),
  ),
  ...weighted(
    3,
    fc.tuple(buyer, fc.boolean()).map(([b, fresh]) => new SetUpPlan(b, fresh)),
  ),
  ...weighted(
    2,
    fc
      .tuple(buyer, fc.constantFrom<'none' | 'reserve' | 'free code'>('none', 'reserve', 'free code'))
      .map(([b, prepare]) => new ClaimFree(b, prepare)),
  ),
  ...weighted(
    1,
    buyer.map((b) => new Deliver(b)),
  ),
  ...weighted(
    4,
    fc
      .tuple(
        fc.constantFrom(0, 0, 0, 1, 2, 3),
        fc.constantFrom<'succeeded' | 'failed'>('succeeded', 'succeeded', 'failed'),
      )
      .map(([p, s]) => new ProcessorWord(p, s)),
  ),
  ...weighted(
    2,
    fc
      .tuple(fc.constantFrom<'minute' | 'hold' | 'grace'>('minute', 'hold', 'grace'), fc.boolean())
      .map(([p, sweep]) => new Advance(p, sweep)),
  ),
  ...weighted(1, fc.constant(new Sweep())),
  ...weighted(1, fc.constant(new Reconcile())),
  ...weighted(1, fc.constant(new BankDecisionsDue())),
  ...weighted(
    1,
    fc.constantFrom(0, 31, 61).map((d) => new InstalmentJob(d)),
  ),
  ...weighted(1, fc.constant(new Restart())),
  ...weighted(
    1,
    fc.constantFrom<'square' | 'card'>('square', 'card').map((p) => new SwitchProvider(p)),
  ),
  ...weighted(
    2,
    fc
      .tuple(
        buyer,
        fc.constantFrom<'card' | 'bank'>('card', 'bank'),
        fc.constantFrom<'plan' | 'card' | 'square' | 'nothing'>('plan', 'card', 'square', 'nothing'),
      )
      .map(([b, how, then]) => new CodeChangesHands(b, how, then)),
  ),
];
const commands = fc.commands(steps, {
  maxCommands: MAX_COMMANDS,
  size: 'max',
  ...(process.env.LEDGER_PATH ? { replayPath: process.env.LEDGER_PATH } : {}),
});

describe.each(drivers)('the money ledger under random payments on %s', (driver) => {
  let world: TestWorld;
  let handle: AppHandle;
  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: HOLD_SECONDS });
    handle = new AppHandle(world, world.app, world.clock);
  });
  afterAll(async () => {
    await handle?.close();
    await world?.close();
  });

  it(
    'keeps money, tickets, stock and codes consistent after every command',
    async () => {
      const graceMs = paymentWiring(parseConfig(process.env)).settings.graceMs;
      const seen: Record<string, number> = {};
      const property = fc.asyncProperty(commands, async (cmds) => {
        const setup = async () => {
          const event = await ledgerEvent(world.database.db, world.demo, { capacity: CAPACITY, buyers: BUYERS });
          const buyers = event.userIds.map((id, i) => new Buyer(handle.view, B(i)));
          for (const [i, b] of buyers.entries()) {
            const res = await b.request({ method: 'POST', url: '/signin/', body: `user_id=${event.userIds[i]}` });
            if (res.statusCode !== 303) throw new Error(`signing ${b.label} in answered ${res.statusCode}`);
            await b.add({ [event.typeId]: 1 });
          }
          // A new day for each run: nothing of the last run's holds or payments is still live.
          handle.clock.advance(DAY);
          last = { model: emptyModel(BUYERS), real: { world, handle, event, buyers, graceMs } satisfies Ledger };
          return last;
        };
        let last = null as { model: LedgerModel; real: Ledger } | null;
        await fc.asyncModelRun(setup, cmds);
        if (last) await tally(seen, last.model, last.real);
      });
      await fc.assert(property, {
        numRuns: RUNS,
        seed: SEED,
        ...(process.env.LEDGER_REPLAY ? { path: process.env.LEDGER_REPLAY } : {}),
        interruptAfterTimeLimit: 8 * 60_000,
      });
      console.log(`ledger runs on ${driver}:`, JSON.stringify(seen));
    },
    15 * 60_000,
  );
});
