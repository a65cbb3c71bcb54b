/**
 * The sandbox's stand-in for the bank's confirmation of a plan's first instalment (the card
 * 4000 0000 0000 3220): the buyer approves or fails it, and comes back to the checkout, which
 * reads the sale afresh (paid and on to delivery, or the payment step with the plan's error).
 * Served when the saved-card processor is the sandbox (no Stripe keys).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod/mini';
import { formatMoney } from '../../../contract/money.ts';
import {
  confirmPlanAuthentication,
  firstInstalmentAwaitingConfirmation,
  sendScheduleToBuyer,
} from '../../domain/instalments/plans.ts';
import { PLAN_AUTHENTICATION_PATH } from '../../domain/instalments/sandboxCards.ts';
import type { AppDeps } from '../../http/deps.ts';
import { saleIdOf } from '../../http/session.ts';
import { html, page } from '../../views/html.ts';

const decisionForm = z.object({ decision: z.enum(['approve', 'fail']) });

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
        .send(
          page(
            config.brandName,
            'Nothing to confirm',
            html`<h1>There is no payment to confirm</h1><p><a class="inline-link" href="/checkout/">Back to the checkout</a></p>`,
          ),
        );
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
      const outcome = await confirmPlanAuthentication(db, deps.plans.cards, {
        saleId,
        approved: parsed.data.decision === 'approve',
        now,
        seating: deps.seating,
      });
      if (outcome === 'paid') {
        await sendScheduleToBuyer(
          db,
          { mailer: deps.mailer, brandName: config.brandName, publicUrl: config.publicUrl },
          saleId,
          now,
        ).catch((err: unknown) => request.log.error({ err }, 'payment schedule e-mail not sent'));
      }
    }
    return reply.redirect('/checkout/', 303);
  });
}
