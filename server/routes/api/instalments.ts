/**
 * Instalment plans as calls: pay_with_instalment, the buyer's saved cards and, with Stripe keyed,
 * the SetupIntent that saves a new card (checked with Stripe before the plan uses it). Thin mappings onto
 * server/domain/instalments. The sandbox processor's card saving and its bank's confirmation page
 * are the sandbox's (server/routes/sandbox/).
 */
import { isRefusal, Refusal } from '../../domain/refusal.ts';
import { cardSavedBySetup, startCardSetup } from '../../domain/instalments/cardSetup.ts';
import { SANDBOX_PUBLIC_KEY } from '../../domain/payment/processor.ts';
import { savedMethodsOf, sendScheduleToBuyer, setUpPlan } from '../../domain/instalments/plans.ts';
import { PLAN_AUTHENTICATION_PATH } from '../../domain/instalments/sandboxCards.ts';
import { INSTALMENT_MESSAGES } from '../../../contract/messages/instalment.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import type { Handlers, InvalidHandler } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { heldSaleCalls } from '../../http/heldSale.ts';
import { userIdOf } from '../../http/session.ts';

type PlanCalls = 'payWithInstalment' | 'getSavedPaymentMethods' | 'createPlanSetupIntent';

export function planHandlers(deps: AppDeps): Pick<Handlers, PlanCalls> {
  const { db, clock } = deps;
  const wiring = deps.plans;

  const { heldSale, checkoutOf, replyHoldLost } = heldSaleCalls(deps);

  /**
   * The new card: keyed, only one a SetupIntent saved for this buyer, as Stripe says (a card id
   * from the browser alone is not trusted); otherwise the sandbox's card form's.
   */
  async function newCardOf(input: Parameters<Handlers['payWithInstalment']>[0]['input'], userId: number | null) {
    const setup = wiring.setup;
    if (input.setup_intent) {
      if (!setup) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.noStripeSetup);
      const id = await cardSavedBySetup(db, setup, { userId, setupIntentId: input.setup_intent.id });
      return { id, make_default_payment_method: input.setup_intent.make_default_payment_method };
    }
    if (input.new_payment_method && setup) throw new Refusal('invalid-input', INSTALMENT_MESSAGES.cardThroughStripe);
    return input.new_payment_method;
  }

  return {
    payWithInstalment: async ({ input, request, reply }) => {
      try {
        const sale = await heldSale(request);
        const now = clock();
        const checkout = await checkoutOf(request, sale.id, now);
        const newPaymentMethod = await newCardOf(input, sale.userId);
        const result = await setUpPlan(db, wiring.cards, {
          saleId: sale.id,
          checkout,
          option: input.instalment_option,
          contactNumber: input.contact_number,
          selectedPaymentMethodId: input.selected_payment_method_id || undefined,
          newPaymentMethod,
          now,
          seating: deps.seating,
          // The sandbox's bank confirms a first instalment that asks for it on its own page.
          authenticationUrl: wiring.cards.name === 'sandbox' ? PLAN_AUTHENTICATION_PATH : null,
        });
        if (result.status === 'redirect_to_url') return { status: 'redirect_to_url' as const, url: result.url };
        if (result.status === 'unsuccessful') {
          request.log.info({ reason: result.message }, 'instalment plan not set up');
          return { status: 'unsuccessful' as const, url: null };
        }
        if (result.created) {
          await sendScheduleToBuyer(
            db,
            { mailer: deps.mailer, brandName: deps.config.brandName, publicUrl: deps.config.publicUrl },
            sale.id,
            now,
            checkout.sale_reference,
          ).catch((err: unknown) => request.log.error({ err }, 'payment schedule e-mail not sent'));
        }
        return { status: 'success' as const, url: null };
      } catch (err) {
        if (isRefusal(err, 'hold-lost')) {
          await replyHoldLost(reply, err);
          return undefined;
        }
        throw err;
      }
    },
    getSavedPaymentMethods: async ({ request, reply }) => {
      reply.header('cache-control', 'no-store');
      return {
        payment_methods: await savedMethodsOf(db, userIdOf(request)),
        public_key: wiring.setup?.publicKey ?? SANDBOX_PUBLIC_KEY,
      };
    },
    createPlanSetupIntent: async ({ request, reply }) => {
      reply.header('cache-control', 'no-store');
      const setup = wiring.setup;
      // Without Stripe keys the sandbox's card form saves the card: there is no secret to confirm.
      if (!setup) return { public_key: SANDBOX_PUBLIC_KEY, client_secret: null };
      try {
        const sale = await heldSale(request);
        const started = await startCardSetup(db, setup, { saleId: sale.id, now: clock() });
        return { public_key: started.publicKey, client_secret: started.clientSecret };
      } catch (err) {
        if (isRefusal(err, 'hold-lost')) {
          await replyHoldLost(reply, err);
          return undefined;
        }
        throw err;
      }
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
          : /^Invalid (new_payment_method|selected_payment_method_id|setup_intent)/.test(message)
            ? INSTALMENT_MESSAGES.chooseCard
            : INSTALMENT_MESSAGES.error,
    }),
};
