/**
 * The sandbox bank's page, where the buyer sent by pay_with_truelayer approves the payment, approves
 * it slowly (the bank's answer arrives after the delay chosen here), or cancels, and is sent back to
 * the checkout's awaiting_truelayer step as TrueLayer's hosted page would send them. Served in demo
 * mode only, when the bank is the sandbox (no TrueLayer keys).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod/mini';
import { formatMoney } from '../../../contract/money.ts';
import { BANK_RETURN_PATH, formText } from '../../../contract/index.ts';
import { BANK_TRANSFER_MESSAGES } from '../../../contract/messages/bankTransfer.ts';
import type { AppDeps } from '../../http/deps.ts';
import { SANDBOX_BANK_PATH } from '../../domain/payment/bank.ts';
import { decideLater, findBankPaymentByToken, settleBankPayment } from '../../domain/payment/bankTransfer.ts';
import type { Payment } from '../../domain/payment/payments.ts';
import { html, page } from '../../views/html.ts';

/** How long a slow approval takes unless the buyer sets it (seconds), and its bounds. */
export const SLOW_APPROVAL_DEFAULT_S = 20;
const SLOW_APPROVAL_MAX_S = 3600;

const tokenQuery = z.object({ token: formText(200, 1) });
const decisionForm = z.object({
  token: formText(200, 1),
  decision: z.enum(['approve', 'slow', 'cancel']),
  delay: z.optional(formText(5)),
});

function returnUrl(payment: Payment, cancelled: boolean): string {
  const query = new URLSearchParams({
    payment_id: payment.providerPaymentId,
    ...(cancelled ? { error: 'tl_hpp_abandoned' } : {}),
  });
  return `${BANK_RETURN_PATH}?${query.toString()}`;
}

export function registerSandboxBank(app: FastifyInstance, deps: AppDeps): void {
  const { db, config, clock } = deps;
  const { bank } = deps.bank;
  if (!config.demo || bank.name !== 'sandbox_bank') return;
  const open = (payment: Payment | null): payment is Payment =>
    payment !== null && payment.status === 'requires_payment_method';

  const gone = (reply: FastifyReply) =>
    reply
      .status(404)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        page(
          config,
          'Payment not found',
          html`<h1>This payment cannot be taken</h1><p>It was finished or never started. <a class="inline-link" href="/checkout/">Back to the checkout</a></p>`,
        ),
      );

  app.get(SANDBOX_BANK_PATH, async (request, reply) => {
    const parsed = tokenQuery.safeParse(request.query ?? {});
    const payment = parsed.success ? await findBankPaymentByToken(db, parsed.data.token) : null;
    if (!open(payment)) return gone(reply);
    const amount = formatMoney(payment.amount, payment.currency);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        page(
          config,
          'Sandbox bank',
          html`<h1>Approve a payment of ${amount}</h1>
          <p class="notice ok" role="status">Payment in progress: your tickets stay held while you are at your bank, for up to ${Math.round(deps.payment.settings.graceMs / 60_000)} minutes past your countdown.</p>
          <form method="post" action="${SANDBOX_BANK_PATH}" class="panel sandbox-card">
            <input type="hidden" name="token" value="${payment.clientSecret}">
            <p>This is the sandbox bank: no real money moves. ${config.brandName} asks you to pay ${amount} by instant bank transfer.</p>
            <button class="button button--large" type="submit" name="decision" value="approve">Approve payment</button>
            <label class="field">Bank answers after (seconds) <input class="input" name="delay" inputmode="numeric" value="${String(SLOW_APPROVAL_DEFAULT_S)}"></label>
            <button class="button button--secondary button--large" type="submit" name="decision" value="slow">Approve slowly</button>
            <button class="button button--secondary button--large" type="submit" name="decision" value="cancel">Cancel payment</button>
          </form>`,
        ),
      );
  });

  app.post(SANDBOX_BANK_PATH, async (request, reply) => {
    const parsed = decisionForm.safeParse(request.body ?? {});
    if (!parsed.success)
      return reply.status(400).send({ error: 'Choose to approve, approve slowly or cancel the payment' });
    const delay =
      parsed.data.delay === undefined || parsed.data.delay.trim() === ''
        ? SLOW_APPROVAL_DEFAULT_S
        : Number(parsed.data.delay);
    if (!/^\d{0,5}$/.test(parsed.data.delay?.trim() ?? '') || delay > SLOW_APPROVAL_MAX_S) {
      return reply
        .status(400)
        .send({ error: `The bank's delay must be a whole number of seconds from 0 to ${SLOW_APPROVAL_MAX_S}` });
    }
    const payment = await findBankPaymentByToken(db, parsed.data.token);
    if (!open(payment)) return gone(reply);
    const now = clock();
    switch (parsed.data.decision) {
      case 'approve':
        await settleBankPayment(db, bank, payment, { status: 'succeeded', failureMessage: null }, now, deps.seating);
        return reply.redirect(returnUrl(payment, false), 303);
      case 'slow':
        await decideLater(db, payment, 'approved', new Date(now.getTime() + delay * 1000));
        return reply.redirect(returnUrl(payment, false), 303);
      case 'cancel':
        await settleBankPayment(
          db,
          bank,
          payment,
          { status: 'failed', failureMessage: BANK_TRANSFER_MESSAGES.cancelled },
          now,
          deps.seating,
        );
        return reply.redirect(returnUrl(payment, true), 303);
    }
  });
}
