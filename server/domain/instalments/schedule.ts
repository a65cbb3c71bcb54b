/**
 * A plan's schedule (spec 001 §4, §9): the options a basket is offered with their instalments, and
 * what a plan's sale still owes. The checkout reads these; setting a plan up is plans.ts.
 */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/index.ts';
import { eventPaymentPlans, instalmentPlans, instalments } from '../../db/schema.ts';
import { PLAN_CURRENCY, type Checkout } from '../../../contract/index.ts';
import { formatUkDate } from '../format.ts';

const DAY_MS = 86_400_000;

export interface ScheduledPayment {
  dueAt: Date;
  amount: number;
}

/** Equal payments, the remainder (in pence) on the first; the first due now, then every `intervalDays`. */
export function computeSchedule(total: number, count: number, intervalDays: number, start: Date): ScheduledPayment[] {
  const n = Math.max(1, Math.min(count, total));
  const share = Math.floor(total / n);
  return Array.from({ length: n }, (_, i) => ({
    dueAt: new Date(start.getTime() + i * intervalDays * DAY_MS),
    amount: i === 0 ? total - share * (n - 1) : share,
  }));
}

type PlanRow = typeof eventPaymentPlans.$inferSelect;

/** The options every event of the basket offers (option '1', paying in full, among them). */
export async function commonPlans(db: Pick<Executor, 'select'>, eventIds: number[]): Promise<PlanRow[]> {
  if (eventIds.length === 0) return [];
  return commonPlansOf(
    await db
      .select()
      .from(eventPaymentPlans)
      .where(inArray(eventPaymentPlans.eventId, eventIds))
      .orderBy(asc(eventPaymentPlans.option)),
    eventIds,
  );
}

/** Of the plans of the basket's events (by option), those every event offers. */
function commonPlansOf(found: PlanRow[], eventIds: number[]): PlanRow[] {
  const first = found.filter((p) => p.eventId === eventIds[0]);
  return first.filter((p) => eventIds.every((id) => found.some((o) => o.eventId === id && o.option === p.option)));
}

/**
 * payment_plan_schedule_options for a basket: plans are set up in pounds only, so another currency
 * (or an event without a plan) offers none. `plans` are those of the basket's events, by option
 * (read with the checkout).
 */
export function planScheduleOptions(
  plans: PlanRow[],
  p: { eventIds: number[]; total: number; currency: string; now: Date },
): Checkout['payment_plan_schedule_options'] {
  if (p.currency.toLowerCase() !== PLAN_CURRENCY || p.total <= 0) return {};
  return Object.fromEntries(
    commonPlansOf(plans, p.eventIds).map((plan) => [
      plan.option,
      {
        label: plan.label,
        schedule: computeSchedule(p.total, plan.instalments, plan.intervalDays, p.now).map((s) => ({
          uk_due: formatUkDate(s.dueAt),
          value: s.amount,
        })),
      },
    ]),
  );
}

/** payment_plan_remaining: what a plan's sale still owes (0 once complete); null without a plan. */
export async function planRemaining(db: Pick<Executor, 'select'>, saleId: string): Promise<number | null> {
  const [plan] = await db
    .select({ status: instalmentPlans.status })
    .from(instalmentPlans)
    .where(eq(instalmentPlans.saleId, saleId));
  if (!plan) return null;
  const [row] = await db
    .select({
      remaining: sql<number>`COALESCE(sum(${instalments.amount}) FILTER (WHERE ${instalments.status} <> 'paid'), 0)::int`,
    })
    .from(instalments)
    .where(eq(instalments.saleId, saleId));
  return Number(row?.remaining ?? 0);
}
