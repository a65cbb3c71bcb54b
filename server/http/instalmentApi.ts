/**
 * Instalment plans and Square, as calls: pay_with_instalment, the buyer's saved cards, the
 * sandbox processor's card tokenisation, get_square_credentials and pay-with-square; and the
 * development endpoint that runs the instalment job as of a given date. Thin mappings onto
 * server/domain/instalments and server/domain/payment/square.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import { INSTALMENT_MESSAGES, PAYMENT_MESSAGES, SQUARE_MESSAGES, WALLET_PATH, type Checkout } from '../../contract/index.ts';
import { buildCheckout } from '../domain/checkout.ts';
import { DomainError } from '../domain/errors.ts';
import { runInstalmentJob, type JobDeps } from '../domain/instalments/job.ts';
import { sandboxSavedCards, stripeSavedCards, type SavedCardProcessor } from '../domain/instalments/offSession.ts';
import { savedMethodsOf, sendScheduleMail, setUpPlan } from '../domain/instalments/plans.ts';
import { tokeniseSandboxCard } from '../domain/instalments/sandboxCards.ts';
import { HoldGone } from '../domain/payment/payments.ts';
import { localSquare, payWithSquare, squareApi, squareKeys, type SquareGateway } from '../domain/payment/square.ts';
import { findSale } from '../domain/sales.ts';
import { findUser } from '../domain/users.ts';
import type { Database } from '../db/index.ts';
import type { Handlers, InvalidHandler } from './calls.ts';
import type { AppDeps } from './deps.ts';
import { saleIdOf, userIdOf } from './session.ts';

export interface PlanWiring {
  /** Saves and charges cards for plans: Stripe when keyed, else the sandbox processor. */
  cards: SavedCardProcessor;
  /** Square's API when keyed, else Square's sandbox on this server. */
  square: SquareGateway;
}

export function planWiring(db: Database, env: Record<string, string | undefined> = process.env, fetchImpl?: typeof fetch): PlanWiring {
  const stripeSecret = env.STRIPE_PUBLISHABLE_KEY && env.STRIPE_SECRET_KEY ? env.STRIPE_SECRET_KEY : null;
  const keys = squareKeys(env);
  return {
    cards: stripeSecret ? stripeSavedCards(stripeSecret, fetchImpl) : sandboxSavedCards(),
    square: keys ? squareApi(keys, fetchImpl) : localSquare(db),
  };
}

type PlanCalls = 'payWithInstalment' | 'getSavedPaymentMethods' | 'saveSandboxCard' | 'getSquareCredentials' | 'payWithSquare' | 'tokeniseSandboxSquareCard';

const walletUrlOf = (request: FastifyRequest) => `${request.protocol}://${request.host}${WALLET_PATH}`;

export function planHandlers(deps: AppDeps): Pick<Handlers, PlanCalls> {
  const { db, clock } = deps;
  const wiring = deps.plans;

  async function heldSale(request: FastifyRequest) {
    const saleId = saleIdOf(request);
    const sale = saleId ? await findSale(db, saleId) : null;
    if (!saleId || !sale) throw new HoldGone();
    return sale;
  }
  const checkoutOf = (request: FastifyRequest, saleId: string, now: Date): Promise<Checkout> =>
    buildCheckout(db, saleId, now, { captchaSitekey: null, userId: userIdOf(request) });
  const holdGone = (reply: FastifyReply, err: HoldGone) => reply.status(409).send({ error: err.message, type: 'reserving' });

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
        });
        if (result.status === 'unsuccessful') {
          request.log.info({ reason: result.message }, 'instalment plan not set up');
          return { status: 'unsuccessful' as const, url: null };
        }
        const user = await findUser(db, (await findSale(db, sale.id))?.userId ?? null);
        if (user && result.created) {
          await sendScheduleMail(db, { mailer: deps.mailer, brandName: deps.config.brandName }, sale.id, user.email, checkout.sale_reference, now).catch((err: unknown) =>
            request.log.error({ err }, 'payment schedule e-mail not sent'),
          );
        }
        return { status: 'success' as const, url: null };
      } catch (err) {
        if (err instanceof HoldGone) {
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
    saveSandboxCard: async ({ input }) => {
      if (wiring.cards.name !== 'sandbox') throw new DomainError(404, 'Cards are saved by Stripe on this server');
      const card = await tokeniseSandboxCard(db, input, 'payment_method', clock());
      return { id: card.id, brand: card.brand, last4: card.last4, month: card.expMonth, year: card.expYear, funding: card.funding };
    },
    getSquareCredentials: async ({ request }) => {
      const sale = await heldSale(request).catch(() => null);
      if (!sale) throw new DomainError(409, SQUARE_MESSAGES.credentials);
      const checkout = await checkoutOf(request, sale.id, clock());
      if (checkout.sagepay_or_stripe?.toLowerCase() !== 'square') throw new DomainError(409, SQUARE_MESSAGES.credentials);
      return wiring.square.credentials;
    },
    payWithSquare: async ({ input, request, reply }) => {
      try {
        const sale = await heldSale(request);
        const now = clock();
        const checkout = await checkoutOf(request, sale.id, now);
        if (checkout.sagepay_or_stripe?.toLowerCase() !== 'square') throw new DomainError(409, SQUARE_MESSAGES.unableToPay);
        const address = {
          first_name: input.billing_address_data.first_name ?? '',
          last_name: input.billing_address_data.last_name ?? '',
          address_1: input.billing_address_data.address_1 ?? '',
          address_2: input.billing_address_data.address_2 ?? '',
          town: input.billing_address_data.town ?? '',
          postcode: input.billing_address_data.postcode ?? '',
          state: input.billing_address_data.state ?? '',
          country_code: input.billing_address_data.country_code ?? 'GB',
        };
        const result = await payWithSquare(db, wiring.square, {
          saleId: sale.id,
          total: checkout.basket_total,
          currency: checkout.currency.code,
          reference: checkout.sale_reference,
          sourceId: input.source_id,
          address,
          now,
          graceMs: deps.payment.settings.graceMs,
        });
        if (result.kind === 'address') {
          reply.status(422).send({ error: result.message, response: { success: false, addressError: result.message } });
          return undefined;
        }
        if (result.kind === 'failed') return { response: { success: false, message: result.message } };
        return { response: { success: true, payment: { id: result.paymentId, status: 'COMPLETED' } } };
      } catch (err) {
        if (err instanceof HoldGone) {
          await holdGone(reply, err);
          return undefined;
        }
        throw err;
      }
    },
    tokeniseSandboxSquareCard: async ({ input }) => {
      if (wiring.square.credentials.checkout_js !== '') throw new DomainError(404, 'Cards are tokenised by Square on this server');
      const card = await tokeniseSandboxCard(db, input, 'nonce', clock());
      return { token: card.id };
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
  payWithSquare: async (_request, reply, message) =>
    /^Invalid billing_address_data/.test(message)
      ? reply.status(422).send({ error: PAYMENT_MESSAGES.completeAddress, response: { success: false, addressError: PAYMENT_MESSAGES.completeAddress } })
      : reply.status(400).send({ error: SQUARE_MESSAGES.unableToPay }),
};

const asOfQuery = z.object({ as_of: z.optional(z.iso.datetime({ offset: true })) });

/**
 * POST /dev/instalments/run?as_of=<ISO date>: runs the instalment job once as of that date (now
 * when absent) and answers what it did. Registered only when NODE_ENV is not 'production', like
 * the development mailbox: it lets a person or an end-to-end test see a later instalment charged.
 */
export function registerInstalmentDevRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post('/dev/instalments/run', async (request, reply) => {
    const parsed = asOfQuery.safeParse(request.query ?? {});
    if (!parsed.success) return reply.status(400).send({ error: 'as_of must be a date and time, e.g. 2030-01-31T09:00:00Z' });
    const asOf = parsed.data.as_of ? new Date(parsed.data.as_of) : deps.clock();
    return runInstalmentJob(jobDeps(deps, `${request.protocol}://${request.host}${WALLET_PATH}`), asOf);
  });
}

export function jobDeps(deps: AppDeps, walletUrl: string): JobDeps {
  return { db: deps.db, cards: deps.plans.cards, mail: { mailer: deps.mailer, brandName: deps.config.brandName }, walletUrl };
}

export { walletUrlOf };
