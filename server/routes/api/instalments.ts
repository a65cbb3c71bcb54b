/**
 * Instalment plans as calls: pay_with_instalment and the buyer's saved cards. Thin mappings onto
 * server/domain/instalments. The sandbox processor's card saving and its bank's confirmation page
 * are the sandbox's (server/routes/sandbox/).
 */
import { isRefusal } from '../../domain/refusal.ts';
import { savedMethodsOf, sendScheduleToBuyer, setUpPlan } from '../../domain/instalments/plans.ts';
import { PLAN_AUTHENTICATION_PATH } from '../../domain/instalments/sandboxCards.ts';
import { INSTALMENT_MESSAGES } from '../../../contract/messages/instalment.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import type { Handlers, InvalidHandler } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { heldSaleCalls } from '../../http/heldSale.ts';
import { userIdOf } from '../../http/session.ts';

type PlanCalls = 'payWithInstalment' | 'getSavedPaymentMethods';

export function planHandlers(deps: AppDeps): Pick<Handlers, PlanCalls> {
  const { db, clock } = deps;
  const wiring = deps.plans;

  const { heldSale, checkoutOf, holdGone } = heldSaleCalls(deps);

  return {
    payWithInstalment: async ({ input, request, reply }) => {
      try {
        const sale = await heldSale(request);
        const now = clock();
        const checkout = await checkoutOf(request, sale.id, now);
        const result = await setUpPlan(db, wiring.cards, {
          saleId: sale.id,
          checkout,
          option: input.instalment_option,
          contactNumber: input.contact_number,
          selectedPaymentMethodId: input.selected_payment_method_id || undefined,
          newPaymentMethod: input.new_payment_method,
          now,
          // The sandbox's bank confirms a first instalment that asks for it on its own page.
          authenticationUrl: wiring.cards.name === 'sandbox' ? PLAN_AUTHENTICATION_PATH : null,
        });
        if (result.status === 'redirect_to_url') return { status: 'redirect_to_url' as const, url: result.url };
        if (result.status === 'unsuccessful') {
          request.log.info({ reason: result.message }, 'instalment plan not set up');
          return { status: 'unsuccessful' as const, url: null };
        }
        if (result.created) {
          await sendScheduleToBuyer(db, { mailer: deps.mailer, brandName: deps.config.brandName }, sale.id, now, checkout.sale_reference).catch((err: unknown) =>
            request.log.error({ err }, 'payment schedule e-mail not sent'),
          );
        }
        return { status: 'success' as const, url: null };
      } catch (err) {
        if (isRefusal(err, 'hold-expired')) {
          await holdGone(reply, err);
          return undefined;
        }
        throw err;
      }
    },
    getSavedPaymentMethods: async ({ request, reply }) => {
      reply.header('cache-control', 'no-store');
      return { payment_methods: await savedMethodsOf(db, userIdOf(request)) };
    },
  };
}

/** A refused request in the plan's own words. */
export const planInvalid: Partial<Record<PlanCalls, InvalidHandler>> = {
  payWithInstalment: async (_request, reply, message) =>
    reply.status(400).send({
      error: /^Invalid contact_number/.test(message)
        ? PAYMENT_MESSAGES.phone
        : /^Invalid instalment_option/.test(message)
          ? INSTALMENT_MESSAGES.chooseOption
          : /^Invalid (new_payment_method|selected_payment_method_id)/.test(message)
            ? INSTALMENT_MESSAGES.chooseCard
            : INSTALMENT_MESSAGES.error,
    }),
};
