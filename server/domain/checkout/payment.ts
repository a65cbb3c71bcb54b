/** How the basket can be paid, as the checkout shows it: the provider, the organisers' settings and the payment plans. */
import type { Checkout } from '../../../contract/index.ts';
import type { eventPaymentPlans, organiserPaymentSettings } from '../../db/schema.ts';
import { planScheduleOptions } from '../instalments/schedule.ts';

/**
 * The basket organisers' payment provider: the first one any of them has, with that organiser's own
 * account there (merchant_id) and whether the platform set the provider for it (overridden).
 */
export function providerFields(
  account: { provider: string; merchantId: string | null; overridden: boolean } | null,
): Pick<Checkout, 'sagepay_or_stripe' | 'opoa'> {
  return {
    sagepay_or_stripe: account?.provider ?? null,
    opoa: account
      ? { provider: account.provider, merchant_id: account.merchantId, overridden: account.overridden }
      : null,
  };
}

/**
 * The organisers' payment settings as the checkout shows them: a contact number when any organiser
 * asks for one; express when no one is signed in and every organiser offers express checkout.
 */
export function paymentSettingsOf(
  settings: (typeof organiserPaymentSettings.$inferSelect)[],
  organiserCount: number,
  userId: number | null,
): Pick<Checkout, 'has_require_phone_number' | 'express'> {
  if (organiserCount === 0) return { has_require_phone_number: false, express: false };
  return {
    has_require_phone_number: settings.some((s) => s.requirePhoneNumber),
    express: userId === null && settings.filter((s) => s.expressCheckout).length === organiserCount,
  };
}

/**
 * The sale's payment plan: once paid, what its plan still owes (`remaining`, null without a plan);
 * before payment, the plans its events offer with their schedules for this total.
 */
export function planFieldsOf(
  plans: (typeof eventPaymentPlans.$inferSelect)[],
  remaining: number | null,
  p: { eventIds: number[]; total: number; currency: string; now: Date; paid: boolean },
): Pick<Checkout, 'payment_plan_remaining' | 'payment_plan_schedule_options'> {
  if (p.paid) return { payment_plan_remaining: remaining, payment_plan_schedule_options: {} };
  return { payment_plan_remaining: null, payment_plan_schedule_options: planScheduleOptions(plans, p) };
}
