/**
 * Instant bank transfer's calls (create_truelayer_payment, pay_with_truelayer,
 * get_truelayer_status), the bank's return to the awaiting_truelayer step and TrueLayer's signed
 * webhook: thin mappings onto server/domain/payment/bankTransfer.ts. The bank is TrueLayer when
 * keyed, else the sandbox bank this server serves (server/routes/sandbox/bank.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BANK_RETURN_PATH, offeredMethods, saasBlockingOrganiser, type Checkout } from '../../../contract/index.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import { buildCheckout } from '../../domain/checkout.ts';
import { Refusal } from '../../domain/refusal.ts';
import {
  bankTransferStatus,
  createBankPayment,
  returnFromBank,
  startBankPayment,
} from '../../domain/payment/bankTransfer.ts';
import { holdLost } from '../../domain/payment/payments.ts';
import { receiveBankWebhook } from '../../domain/payment/webhooks.ts';
import type { Handlers } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { saleIdOf, userIdOf } from '../../http/session.ts';

type BankCalls = 'createTruelayerPayment' | 'payWithTruelayer' | 'getTruelayerStatus';

export function bankTransferHandlers(deps: AppDeps): Pick<Handlers, BankCalls> {
  const { db, clock } = deps;
  const { bank, settings } = deps.bank;

  /** The sale, held and offered the bank transfer (GBP or EUR, provider not Stripe, not blocked). */
  async function payableSale(
    request: FastifyRequest,
    failure: string,
  ): Promise<{ saleId: string; checkout: Checkout; now: Date }> {
    const sale = await request.visitorSale();
    if (!sale) throw holdLost();
    const saleId = sale.id;
    const now = clock();
    const checkout = await buildCheckout(db, saleId, now, { captchaSitekey: null, userId: userIdOf(request) });
    if (saasBlockingOrganiser(checkout) || !offeredMethods(checkout, ['truelayer']).includes('truelayer'))
      throw new Refusal('not-offered', failure);
    return { saleId, checkout, now };
  }

  return {
    createTruelayerPayment: async ({ request }) => {
      const { saleId, checkout, now } = await payableSale(request, PAYMENT_MESSAGES.truelayerRedirect);
      await createBankPayment(db, bank, {
        saleId,
        total: checkout.basket_total,
        currency: checkout.currency.code,
        now,
      });
      return { success: true as const };
    },
    payWithTruelayer: async ({ input, request }) => {
      const { saleId, checkout, now } = await payableSale(request, PAYMENT_MESSAGES.truelayerRedirect);
      const { authUrl } = await startBankPayment(db, bank, {
        saleId,
        total: checkout.basket_total,
        currency: checkout.currency.code,
        now,
        graceMs: deps.payment.settings.graceMs,
        ...(input.contact_number ? { contactNumber: input.contact_number } : {}),
        // The site's own address: a request's Host header, which anyone can set, must not choose where the bank sends the buyer.
        returnUri: `${deps.config.publicUrl}${BANK_RETURN_PATH}`,
      });
      return { auth_url: authUrl };
    },
    getTruelayerStatus: async ({ request, reply }) => {
      reply.header('cache-control', 'no-store');
      return {
        truelayer_status: await bankTransferStatus(db, bank, {
          saleId: saleIdOf(request),
          now: clock(),
          pollIntervalMs: settings.pollIntervalMs,
          seating: deps.seating,
        }),
      };
    },
  };
}

/**
 * The bank's return and TrueLayer's webhook. TrueLayer's hosted page returns with `payment_id`,
 * and with `error` when the buyer did not finish (the returned-from flag is then 0); the sandbox
 * bank returns the same way.
 */
export function registerBankTransferRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { bank, webhook: readWebhook } = deps.bank;

  app.get(BANK_RETURN_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
    const query = (request.query ?? {}) as { payment_id?: unknown; error?: unknown };
    const id =
      typeof query.payment_id === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(query.payment_id) ? query.payment_id : null;
    if (id)
      await returnFromBank(deps.db, bank, {
        saleId: saleIdOf(request),
        providerPaymentId: id,
        cancelled: query.error !== undefined,
        now: deps.clock(),
        seating: deps.seating,
      });
    return reply.header('cache-control', 'no-store').redirect('/checkout/', 303);
  });

  if (!readWebhook) return;
  const webhookPath = '/ajax/checkout/truelayer/webhook/';
  void app.register(async (scope) => {
    // The signature covers the raw body, so this route reads it as a string.
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.post(webhookPath, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const signature = request.headers['tl-signature'];
      const delivery = {
        raw,
        signature: typeof signature === 'string' ? signature : undefined,
        path: webhookPath.replace(/\/$/, ''),
        headers: request.headers,
      };
      const receipt = await receiveBankWebhook(
        deps.db,
        bank,
        await readWebhook(delivery, deps.clock()),
        deps.clock,
        deps.seating,
      );
      if (receipt.kind === 'refused') return reply.status(400).send({ error: receipt.message });
      return { received: true };
    });
  });
}
