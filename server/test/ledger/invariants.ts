/**
 * The money ledger's invariants, read by SQL from the database (never through the app):
 *
 * 1. money kept (payments succeeded and not refunded, instalments paid) is exactly what the paid
 *    sales cost as paid, and no unpaid sale keeps money;
 * 2. a paid sale's basket is the basket it was paid for, its issued tickets are within its lines,
 *    and the pool's sold stock is the paid sales' lines;
 * 3. no sale is paid twice (one kept payment, or one plan, or a free claim);
 * 4. sold plus live holds never exceed a pool's capacity;
 * 5. every captured payment is booked, or refunded (done, or pending with a retry time);
 * 6. a code's paid uses stay within its limit;
 * 7. every charge the sandbox card processor took for these buyers' cards is in the ledger, and every
 *    one it gave back is a payment the ledger refunded.
 *
 * "As paid" is what the test saw when the payment began: the total the checkout showed and the
 * basket in the database at that moment (`Snapshot`), taken before each command that starts one.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { rows, type Database } from '../../db/index.ts';
import * as t from '../../db/schema.ts';
import type { LedgerEvent } from './world.ts';

export interface Snapshot {
  /** The checkout's total when the payment began. */
  total: number;
  /** The basket as `basketOf` read it then. */
  basket: string;
  /** The command that began it, for the report. */
  by: string;
}

export interface LedgerModel {
  /** Every sale a buyer's cookie has named. */
  sales: Set<string>;
  /** Each buyer's card client secrets, oldest first. */
  secrets: string[][];
  /** Sandbox cards and Square tokens the buyers made. */
  cards: Set<string>;
  /** What each payment (by id) was begun for. */
  payments: Map<number, Snapshot>;
  /** What each plan (by sale) was set up for. */
  plans: Map<string, Snapshot>;
  /** What each free claim (by sale) claimed. */
  claims: Map<string, Snapshot>;
}

export function emptyModel(buyers: number): LedgerModel {
  return {
    sales: new Set(),
    secrets: Array.from({ length: buyers }, () => []),
    cards: new Set(),
    payments: new Map(),
    plans: new Map(),
    claims: new Map(),
  };
}

/**
 * The basket a payment pays for, as the database holds it: ticket lines, code, refund protection,
 * and the donation of the sale's current reservation (a donation counts only under the reference
 * it was given in).
 */
export async function basketOf(db: Database, event: LedgerEvent, saleId: string): Promise<string> {
  const [sale] = await db.select().from(t.sales).where(eq(t.sales.id, saleId));
  if (!sale) return 'no sale';
  const lines = await db
    .select({ type: t.saleLines.ticketTypeId, qty: t.saleLines.qty })
    .from(t.saleLines)
    .where(eq(t.saleLines.saleId, saleId));
  const [donation] = sale.reference
    ? await db
        .select()
        .from(t.saleDonations)
        .where(and(eq(t.saleDonations.saleId, saleId), eq(t.saleDonations.saleReference, sale.reference)))
    : [];
  const code =
    sale.discountCodeId === null
      ? null
      : sale.discountCodeId === event.codes.half.id
        ? 'HALF'
        : sale.discountCodeId === event.codes.free.id
          ? 'FREE'
          : `code#${sale.discountCodeId}`;
  return [
    lines
      .sort((a, b) => a.type - b.type)
      .map((l) => `${l.qty}×${l.type === event.typeId ? 'ticket' : `type#${l.type}`}`)
      .join('+') || 'no tickets',
    code ? `code ${code}` : 'no code',
    sale.refundProtection ? 'protected' : 'unprotected',
    donation ? `donation ${donation.amount}+${donation.fee}` : 'no donation',
  ].join(', ');
}

interface PaymentRow {
  id: number;
  sale_id: string;
  provider: string;
  idempotency_key: string;
  status: string;
  outcome: string | null;
  amount: number;
  refund_amount: number | null;
  refund_status: string | null;
  refund_retry_at: string | null;
}

/** Every broken invariant, in words; empty when the ledger is sound. */
export async function ledgerViolations(
  db: Database,
  event: LedgerEvent,
  model: LedgerModel,
  now: Date,
): Promise<string[]> {
  const problems: string[] = [];
  const saleIds = [...model.sales];
  const sales = saleIds.length ? await db.select().from(t.sales).where(inArray(t.sales.id, saleIds)) : [];
  const saleById = new Map(sales.map((s) => [s.id, s]));
  const paymentRows = saleIds.length
    ? await rows<PaymentRow>(
        db,
        sql`SELECT p.id, p.sale_id, p.provider, p.idempotency_key, p.status, p.outcome, p.amount,
                   r.amount AS refund_amount, r.status AS refund_status, r.retry_at AS refund_retry_at
              FROM payments p LEFT JOIN payment_refunds r ON r.payment_id = p.id
             WHERE p.sale_id IN (${sql.join(
               saleIds.map((id) => sql`${id}`),
               sql`, `,
             )})
             ORDER BY p.id`,
      )
    : [];
  const plans = saleIds.length
    ? await db.select().from(t.instalmentPlans).where(inArray(t.instalmentPlans.saleId, saleIds))
    : [];
  const instalments = saleIds.length
    ? await db.select().from(t.instalments).where(inArray(t.instalments.saleId, saleIds))
    : [];
  const lines = saleIds.length ? await db.select().from(t.saleLines).where(inArray(t.saleLines.saleId, saleIds)) : [];
  const issued = saleIds.length
    ? await db
        .select({ saleId: t.tickets.saleId, type: t.tickets.ticketTypeId, n: sql<number>`count(*)::int` })
        .from(t.tickets)
        .where(inArray(t.tickets.saleId, saleIds))
        .groupBy(t.tickets.saleId, t.tickets.ticketTypeId)
    : [];

  const name = (saleId: string) => saleById.get(saleId)?.reference ?? `sale ${saleId.slice(0, 8)}`;
  const money = (n: number) => `${n}p`;

  // 5. Every captured payment is booked, or refunded (done, or pending with a time to try again).
  for (const p of paymentRows) {
    if (!model.payments.has(p.id))
      problems.push(
        `payment #${p.id} (${p.provider}) of ${name(p.sale_id)} was made by no payment step the buyers took`,
      );
    // Money that arrived for a payment closed here is refunded and the payment stays closed (failed).
    const captured = p.status === 'succeeded' || p.refund_status !== null;
    if (!captured) continue;
    if (p.status !== 'succeeded' && p.outcome === 'booked')
      problems.push(`payment #${p.id} (${p.provider}, ${p.status}) is booked without having succeeded`);
    const refunded = p.refund_status === 'done' || (p.refund_status === 'pending' && p.refund_retry_at !== null);
    if (p.refund_status === 'pending' && p.refund_retry_at === null)
      problems.push(`payment #${p.id} (${p.provider}) has a refund pending with no time to try again`);
    if (p.refund_amount !== null && Number(p.refund_amount) !== Number(p.amount))
      problems.push(`payment #${p.id} took ${money(p.amount)} but its refund is ${money(Number(p.refund_amount))}`);
    if (p.outcome === 'booked' && p.refund_status === null) {
      if (!saleById.get(p.sale_id)?.paidAt)
        problems.push(`payment #${p.id} (${p.provider}) is booked but ${name(p.sale_id)} is not paid`);
      continue;
    }
    if (!refunded)
      problems.push(
        `payment #${p.id} (${p.provider}) of ${name(p.sale_id)} took ${money(p.amount)} and is neither booked nor refunded (outcome ${p.outcome ?? 'none'})`,
      );
  }

  let paidQty = 0;
  for (const saleId of saleIds) {
    const sale = saleById.get(saleId);
    const own = paymentRows.filter((p) => p.sale_id === saleId);
    const kept = own.filter((p) => p.status === 'succeeded' && p.refund_status === null);
    const keptSum = kept.reduce((s, p) => s + Number(p.amount), 0);
    const plan = plans.find((p) => p.saleId === saleId && p.status !== 'authenticating');
    const schedule = instalments.filter((i) => i.saleId === saleId);
    const instalmentsPaid = schedule.filter((i) => i.status === 'paid').reduce((s, i) => s + i.amount, 0);
    const saleLines = lines.filter((l) => l.saleId === saleId);
    const who = name(saleId);

    if (!sale?.paidAt) {
      // 1. An unpaid sale keeps no money.
      if (keptSum > 0)
        problems.push(
          `${who} is not paid but keeps ${money(keptSum)} (payments ${kept.map((p) => `#${p.id}`).join(', ')})`,
        );
      if (instalmentsPaid > 0) problems.push(`${who} is not paid but its plan took ${money(instalmentsPaid)}`);
      // 2. Nor has it tickets.
      const tickets = issued.filter((i) => i.saleId === saleId).reduce((s, i) => s + Number(i.n), 0);
      if (tickets > 0) problems.push(`${who} is not paid but has ${tickets} tickets issued`);
      continue;
    }
    paidQty += saleLines.filter((l) => l.ticketTypeId === event.typeId).reduce((s, l) => s + l.qty, 0);

    // 3. Paid once: one kept payment, or one plan, or a free claim.
    const payers = kept.length + (plan ? 1 : 0);
    if (payers > 1) {
      problems.push(
        `${who} is paid ${payers} times: ${[...kept.map((p) => `payment #${p.id} (${p.provider}) ${money(p.amount)}`), ...(plan ? [`a plan of ${money(plan.total)} (${money(instalmentsPaid)} taken)`] : [])].join(' and ')}`,
      );
    }
    const basketNow = await basketOf(db, event, saleId);
    const asPaid = (snapshot: Snapshot | undefined, what: string, amount: number) => {
      if (!snapshot) {
        problems.push(`${who} is paid by ${what}, which no payment step began`);
        return;
      }
      // 1. The money is the total shown for the basket paid for.
      if (amount !== snapshot.total)
        problems.push(
          `${who} is paid by ${what} of ${money(amount)}, but the total shown when it began (${snapshot.by}) was ${money(snapshot.total)}`,
        );
      // 2. The basket booked is the basket paid for.
      if (basketNow !== snapshot.basket)
        problems.push(
          `${who} is booked with [${basketNow}] but ${what} paid for [${snapshot.basket}] (began by ${snapshot.by})`,
        );
    };
    if (kept.length >= 1) {
      for (const p of kept) asPaid(model.payments.get(p.id), `payment #${p.id} (${p.provider})`, Number(p.amount));
    } else if (plan) {
      asPaid(model.plans.get(saleId), 'a plan', plan.total);
      const scheduled = schedule.reduce((s, i) => s + i.amount, 0);
      if (scheduled !== plan.total)
        problems.push(`${who}'s plan of ${money(plan.total)} schedules ${money(scheduled)}`);
    } else {
      const claim = model.claims.get(saleId);
      if (!claim) problems.push(`${who} is paid with no money kept, no plan and no free claim`);
      else asPaid(claim, 'a free claim', 0);
    }
    if (plan && keptSum > 0) problems.push(`${who} has a plan and keeps ${money(keptSum)} of card money besides`);

    // 2. No more tickets issued than the paid lines.
    for (const i of issued.filter((x) => x.saleId === saleId)) {
      const qty = saleLines.find((l) => l.ticketTypeId === i.type)?.qty ?? 0;
      if (Number(i.n) > qty) problems.push(`${who} has ${i.n} tickets issued of type ${i.type} but paid for ${qty}`);
    }
  }

  // 2 and 4. The pool: sold is the paid sales' lines; sold plus live holds within capacity.
  const [pool] = await rows<{ capacity: number; sold: number; held: number; hold_rows: number; live: number }>(
    db,
    sql`SELECT p.capacity, p.sold, p.held,
               COALESCE((SELECT sum(qty) FROM holds h WHERE h.pool_id = p.id), 0)::int AS hold_rows,
               COALESCE((SELECT sum(qty) FROM holds h WHERE h.pool_id = p.id AND h.deadline > ${now.toISOString()}::timestamptz), 0)::int AS live
          FROM capacity_pools p WHERE p.id = ${event.poolId}`,
  );
  const sold = Number(pool!.sold);
  if (sold !== paidQty) problems.push(`the pool has ${sold} sold but the paid sales hold ${paidQty} tickets`);
  if (sold + Number(pool!.live) > Number(pool!.capacity))
    problems.push(`the pool has ${sold} sold and ${pool!.live} held live, over its capacity of ${pool!.capacity}`);
  if (Number(pool!.held) !== Number(pool!.hold_rows))
    problems.push(`the pool counts ${pool!.held} held but its hold rows sum to ${pool!.hold_rows}`);

  // 6. A code's paid uses stay within its limit.
  for (const code of [event.codes.half, event.codes.free]) {
    const [use] = await rows<{ paid: number; limit: number; used: number }>(
      db,
      sql`SELECT (SELECT count(*) FROM sales WHERE discount_code_id = ${code.id} AND paid_at IS NOT NULL)::int AS paid, usage_limit AS limit, used
            FROM discount_codes WHERE id = ${code.id}`,
    );
    if (Number(use!.paid) > Number(use!.limit))
      problems.push(`code ${code.code} (limit ${use!.limit}) is on ${use!.paid} paid sales`);
  }

  // 7. The sandbox processor's own record: every charge it took is a payment or an instalment in the ledger.
  const cards = [...model.cards];
  if (cards.length) {
    const charges = await db
      .select({ charge: t.sandboxCharges, kind: t.sandboxCards.kind })
      .from(t.sandboxCharges)
      .innerJoin(t.sandboxCards, eq(t.sandboxCards.id, t.sandboxCharges.cardId))
      .where(
        and(
          inArray(t.sandboxCharges.cardId, cards),
          inArray(t.sandboxCharges.status, ['succeeded', 'approved', 'refunded', 'cancelled']),
        ),
      );
    for (const { charge, kind } of charges) {
      if (kind === 'nonce' && (charge.status === 'cancelled' || charge.status === 'refunded')) {
        // Square's payment voided (or refunded): the ledger's Square payment for its key gave it back.
        const p = paymentRows.find((x) => x.provider === 'square' && x.idempotency_key === charge.idempotencyKey);
        if (!p || p.refund_status !== 'done' || Number(p.refund_amount) !== charge.amount) {
          problems.push(
            `Square's payment of ${money(charge.amount)} under key ${charge.idempotencyKey} was ${charge.status} but the ledger has ${p ? `payment #${p.id} with refund ${p.refund_status ?? 'none'}` : 'no Square payment for it'}`,
          );
        }
        continue;
      }
      if (charge.status === 'cancelled') continue;
      if (charge.status === 'refunded') {
        // Given back: it is a payment of the ledger, taken and refunded in full.
        const p = paymentRows.find((x) => x.provider === 'sandbox' && x.idempotency_key === charge.idempotencyKey);
        if (!p || p.outcome !== 'refunded' || p.refund_status !== 'done' || Number(p.refund_amount) !== charge.amount) {
          problems.push(
            `a card's charge of ${money(charge.amount)} (${charge.idempotencyKey}) was refunded but the ledger has ${p ? `payment #${p.id} ${p.outcome ?? 'not settled'}, refund ${p.refund_status ?? 'none'}` : 'no payment for it'}`,
          );
        }
        continue;
      }
      if (kind === 'nonce') {
        const p = paymentRows.find((x) => x.provider === 'square' && x.idempotency_key === charge.idempotencyKey);
        if (!p || p.status !== 'succeeded' || Number(p.amount) !== charge.amount) {
          problems.push(
            `Square took ${money(charge.amount)} under key ${charge.idempotencyKey} but the ledger has ${p ? `payment #${p.id} ${p.status} of ${money(p.amount)}` : 'no Square payment for it'}`,
          );
        }
      } else {
        const i = instalments.find((x) => x.providerPaymentId === charge.id);
        if (!i || i.status !== 'paid' || i.amount !== charge.amount) {
          problems.push(
            `a saved card was charged ${money(charge.amount)} (${charge.idempotencyKey}) but the ledger has ${i ? `instalment ${i.seq} ${i.status} of ${money(i.amount)}` : 'no instalment for it'}`,
          );
        }
      }
    }
  }
  return problems;
}
