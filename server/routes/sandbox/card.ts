/**
 * The sandbox card processor's pages: its card form (number, expiry, CVC, checked with Luhn and
 * the expiry date) and its challenge page (approve or fail), each returning the buyer to
 * /do/checkout/stripe_auth/ as Stripe does. The result settles the payment on the way. Served in
 * demo mode only, when the card processor is the sandbox (no Stripe keys).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod/mini';
import { formatMoney } from '../../../contract/money.ts';
import { formText, SANDBOX_CARDS } from '../../../contract/index.ts';
import type { AppDeps } from '../../http/deps.ts';
import type { PaymentWiring } from '../../providers/index.ts';
import { findPaymentBySecret, settlePayment, type Payment } from '../../domain/payment/payments.ts';
import { checkCard, SANDBOX_MESSAGES } from '../../domain/payment/sandbox.ts';
import { html, page, type Html } from '../../views/html.ts';

const secretQuery = z.object({ secret: formText(200, 1) });
const cardForm = z.object({ secret: formText(200, 1), number: formText(40), expiry: formText(10), cvc: formText(6) });
const challengeForm = z.object({ secret: formText(200, 1), decision: z.enum(['approve', 'fail']) });

function returnUrl(payment: Payment, status: 'succeeded' | 'failed'): string {
  const query = new URLSearchParams({ payment_intent: payment.providerPaymentId, redirect_status: status });
  return `/do/checkout/stripe_auth/?${query.toString()}`;
}

export function registerSandboxCard(app: FastifyInstance, deps: AppDeps, wiring: PaymentWiring): void {
  const { db, config, clock } = deps;
  if (!config.demo || wiring.processor.name !== 'sandbox') return;
  const send = (reply: FastifyReply, title: string, body: Html, status = 200) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(page(config, title, body));

  const gone = (reply: FastifyReply) =>
    send(
      reply,
      'Payment not found',
      html`<h1>This payment cannot be taken</h1><p>It was finished or never started. <a class="inline-link" href="/checkout/">Back to the checkout</a></p>`,
      404,
    );

  function cardPage(
    reply: FastifyReply,
    payment: Payment,
    values: { number: string; expiry: string },
    problem: { field: string; message: string } | null,
    status = 200,
  ) {
    const invalid = (field: string) =>
      problem?.field === field ? html` aria-invalid="true" aria-describedby="card-problem"` : '';
    return send(
      reply,
      'Pay by card',
      html`<h1>Pay ${formatMoney(payment.amount, payment.currency)} by card</h1>
      <p class="notice ok" role="status">Payment in progress: your tickets stay held while you pay, for up to ${Math.round(wiring.settings.graceMs / 60_000)} minutes past your countdown.</p>
      <form method="post" action="/sandbox/card/" class="panel sandbox-card" novalidate>
        <input type="hidden" name="secret" value="${payment.clientSecret}">
        <label class="field">Card number <input class="input" name="number" inputmode="numeric" autocomplete="cc-number" required value="${values.number}"${invalid('number')}></label>
        <div class="form-row">
          <label class="field">Expiry (MM/YY) <input class="input" name="expiry" autocomplete="cc-exp" placeholder="MM/YY" required value="${values.expiry}"${invalid('expiry')}></label>
          <label class="field">CVC <input class="input" name="cvc" inputmode="numeric" autocomplete="cc-csc" required${invalid('cvc')}></label>
        </div>
        ${problem ? html`<p class="notice error" id="card-problem" role="alert">${problem.message}</p>` : ''}
        <button class="button button--large" type="submit">Pay ${formatMoney(payment.amount, payment.currency)}</button>
      </form>
      <section class="panel"><h2>Test cards</h2><p class="muted">This is the sandbox card processor: no real money moves. Use any future expiry and any three-digit CVC.</p>
        <ul class="sandbox-cards"><li><code>${SANDBOX_CARDS.success}</code> is approved</li><li><code>${SANDBOX_CARDS.decline}</code> is declined</li><li><code>${SANDBOX_CARDS.insufficientFunds}</code> has insufficient funds</li><li><code>${SANDBOX_CARDS.challenge}</code> asks for a security check</li></ul></section>
      <p><a class="inline-link" href="/checkout/">Cancel and go back to the checkout</a></p>`,
      status,
    );
  }

  async function settle(payment: Payment, status: 'succeeded' | 'failed', failureMessage: string | null) {
    await settlePayment(
      db,
      wiring.processor,
      {
        provider: 'sandbox',
        providerPaymentId: payment.providerPaymentId,
        status,
        amount: payment.amount,
        currency: payment.currency,
        failureMessage,
      },
      clock(),
      deps.seating,
    );
  }

  app.get('/sandbox/card/', async (request, reply) => {
    const parsed = secretQuery.safeParse(request.query ?? {});
    const payment = parsed.success ? await findPaymentBySecret(db, parsed.data.secret) : null;
    if (!payment || payment.status === 'succeeded' || payment.status === 'failed') return gone(reply);
    return cardPage(reply, payment, { number: '', expiry: '' }, null);
  });

  app.post('/sandbox/card/', async (request, reply) => {
    const parsed = cardForm.safeParse(request.body ?? {});
    if (!parsed.success) return reply.status(400).send({ error: SANDBOX_MESSAGES.number });
    const payment = await findPaymentBySecret(db, parsed.data.secret);
    if (!payment || payment.status === 'succeeded' || payment.status === 'failed') return gone(reply);
    const check = checkCard(parsed.data, clock());
    switch (check.kind) {
      case 'invalid':
        return cardPage(
          reply,
          payment,
          { number: parsed.data.number, expiry: parsed.data.expiry },
          { field: check.field, message: check.message },
          422,
        );
      case 'declined':
        await settle(payment, 'failed', check.message);
        return reply.redirect(returnUrl(payment, 'failed'), 303);
      case 'challenge':
        await settlePayment(
          db,
          wiring.processor,
          {
            provider: 'sandbox',
            providerPaymentId: payment.providerPaymentId,
            status: 'requires_action',
            amount: payment.amount,
            currency: payment.currency,
          },
          clock(),
          deps.seating,
        );
        return reply.redirect(`/sandbox/card/challenge/?secret=${encodeURIComponent(payment.clientSecret)}`, 303);
      case 'approved':
        await settle(payment, 'succeeded', null);
        return reply.redirect(returnUrl(payment, 'succeeded'), 303);
    }
  });

  app.get('/sandbox/card/challenge/', async (request, reply) => {
    const parsed = secretQuery.safeParse(request.query ?? {});
    const payment = parsed.success ? await findPaymentBySecret(db, parsed.data.secret) : null;
    if (!payment || payment.status !== 'requires_action') return gone(reply);
    return send(
      reply,
      'Security check',
      html`<h1>Security check</h1>
      <form method="post" action="/sandbox/card/challenge/" class="panel sandbox-card">
        <input type="hidden" name="secret" value="${payment.clientSecret}">
        <p>Your bank asks you to confirm this payment of ${formatMoney(payment.amount, payment.currency)}.</p>
        <div class="form-row"><button class="button button--large" type="submit" name="decision" value="approve">Approve payment</button>
        <button class="button button--secondary button--large" type="submit" name="decision" value="fail">Fail the check</button></div>
      </form>`,
    );
  });

  app.post('/sandbox/card/challenge/', async (request, reply) => {
    const parsed = challengeForm.safeParse(request.body ?? {});
    if (!parsed.success) return reply.status(400).send({ error: 'Choose to approve or fail the check' });
    const payment = await findPaymentBySecret(db, parsed.data.secret);
    if (!payment || payment.status !== 'requires_action') return gone(reply);
    const approved = parsed.data.decision === 'approve';
    await settle(payment, approved ? 'succeeded' : 'failed', approved ? null : SANDBOX_MESSAGES.challengeFailed);
    return reply.redirect(returnUrl(payment, approved ? 'succeeded' : 'failed'), 303);
  });
}
