/**
 * Instalment plans as calls: pay_with_instalment, the buyer's saved cards, the sandbox
 * processor's card saving and its bank's confirmation page (redirect_to_url); and the development
 * endpoint that runs the instalment job as of a given date. Thin mappings onto
 * server/domain/instalments.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { WALLET_PATH } from '../../contract/index.ts';
import { isRefusal, Refusal } from '../domain/refusal.ts';
import { runInstalmentJob, type JobDeps } from '../domain/instalments/job.ts';
import { confirmPlanAuthentication, firstInstalmentAwaitingConfirmation, savedMethodsOf, sendScheduleMail, setUpPlan } from '../domain/instalments/plans.ts';
import { formatMoney } from '../../contract/money.ts';
import { INSTALMENT_MESSAGES } from '../../machines/instalment/instalment.messages.ts';
import { PAYMENT_MESSAGES } from '../../machines/payment/payment.messages.ts';
import { html, page } from '../pages/html.ts';
import { tokeniseSandboxCard } from '../domain/instalments/sandboxCards.ts';
import { findSale } from '../domain/sales.ts';
import { findUser } from '../domain/users.ts';
import type { Config } from '../config.ts';
import type { Handlers, InvalidHandler } from './calls.ts';
import type { AppDeps } from './deps.ts';
import { heldSaleCalls } from './heldSale.ts';
import { saleIdOf, userIdOf } from './session.ts';

type PlanCalls = 'payWithInstalment' | 'getSavedPaymentMethods' | 'saveSandboxCard';

/** The wallet's address in e-mails: on the site's own address (PUBLIC_URL), never the one a request's Host header names. */
export const walletUrlOf = (config: Pick<Config, 'publicUrl'>) => `${config.publicUrl}${WALLET_PATH}`;

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
        const user = await findUser(db, (await findSale(db, sale.id))?.userId ?? null);
        if (user && result.status === 'success' && result.created) {
          await sendScheduleMail(db, { mailer: deps.mailer, brandName: deps.config.brandName }, sale.id, user.email, checkout.sale_reference, now).catch((err: unknown) =>
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
    saveSandboxCard: async ({ input }) => {
      if (wiring.cards.name !== 'sandbox') throw new Refusal('not-found', 'Cards are saved by Stripe on this server');
      const card = await tokeniseSandboxCard(db, input, 'payment_method', clock());
      return { id: card.id, brand: card.brand, last4: card.last4, month: card.expMonth, year: card.expYear, funding: card.funding };
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

const asOfQuery = z.object({ as_of: z.optional(z.iso.datetime({ offset: true })) });

/**
 * POST /dev/instalments/run?as_of=<ISO date>: runs the instalment job once as of that date (now
 * when absent) and answers what it did. Registered only in demo mode, like the development
 * mailbox: it lets a person or an end-to-end test see a later instalment charged.
 */
export function registerInstalmentDevRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post('/dev/instalments/run', async (request, reply) => {
    const parsed = asOfQuery.safeParse(request.query ?? {});
    if (!parsed.success) return reply.status(400).send({ error: 'as_of must be a date and time, e.g. 2030-01-31T09:00:00Z' });
    const asOf = parsed.data.as_of ? new Date(parsed.data.as_of) : deps.clock();
    return runInstalmentJob(jobDeps(deps, walletUrlOf(deps.config)), asOf);
  });
}

export function jobDeps(deps: AppDeps, walletUrl: string): JobDeps {
  return { db: deps.db, cards: deps.plans.cards, mail: { mailer: deps.mailer, brandName: deps.config.brandName }, walletUrl };
}

/** The sandbox bank's page where a plan's first instalment is confirmed (redirect_to_url). */
export const PLAN_AUTHENTICATION_PATH = '/sandbox/plan/authenticate/';

const decisionForm = z.object({ decision: z.enum(['approve', 'fail']) });

/**
 * The sandbox's stand-in for the bank's confirmation of a plan's first instalment (the card
 * 4000 0000 0000 3220): the buyer approves or fails it, and comes back to the checkout, which
 * reads the sale afresh (paid and on to delivery, or the payment step with the plan's error).
 */
export function registerPlanAuthentication(app: FastifyInstance, deps: AppDeps): void {
  if (deps.plans.cards.name !== 'sandbox') return;
  const { db, clock, config } = deps;
  app.get(PLAN_AUTHENTICATION_PATH, async (request, reply) => {
    const saleId = saleIdOf(request);
    const pending = saleId ? await firstInstalmentAwaitingConfirmation(db, saleId) : null;
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!pending) {
      return reply
        .status(404)
        .send(page(config.brandName, 'Nothing to confirm', html`<h1>There is no payment to confirm</h1><p><a class="inline-link" href="/checkout/">Back to the checkout</a></p>`));
    }
    const amount = formatMoney(pending.amount, pending.currency.toUpperCase());
    return reply.send(
      page(
        config.brandName,
        'Confirm your payment plan',
        html`<h1>Security check</h1>
        <form method="post" action="${PLAN_AUTHENTICATION_PATH}" class="panel sandbox-card">
          <p>Your bank asks you to confirm the first instalment of your payment plan: ${amount} today, and later instalments on their dates.</p>
          <div class="form-row"><button class="button button--large" type="submit" name="decision" value="approve">Approve payment</button>
          <button class="button button--secondary button--large" type="submit" name="decision" value="fail">Fail the check</button></div>
        </form>`,
      ),
    );
  });
  app.post(PLAN_AUTHENTICATION_PATH, async (request, reply) => {
    const parsed = decisionForm.safeParse(request.body ?? {});
    if (!parsed.success) return reply.status(400).send({ error: 'Choose to approve or fail the check' });
    const saleId = saleIdOf(request);
    if (saleId) {
      const now = clock();
      const outcome = await confirmPlanAuthentication(db, deps.plans.cards, { saleId, approved: parsed.data.decision === 'approve', now });
      const buyer = outcome === 'paid' ? await findUser(db, (await findSale(db, saleId))?.userId ?? null) : null;
      if (buyer) {
        const reference = (await findSale(db, saleId))?.reference ?? null;
        await sendScheduleMail(db, { mailer: deps.mailer, brandName: config.brandName }, saleId, buyer.email, reference, now).catch((err: unknown) =>
          request.log.error({ err }, 'payment schedule e-mail not sent'),
        );
      }
    }
    return reply.redirect('/checkout/', 303);
  });
}
