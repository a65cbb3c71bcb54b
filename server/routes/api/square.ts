/**
 * Square as calls (spec 001 §7): get_square_credentials, the library's script and pay-with-square. Thin mappings onto
 * server/domain/payment/square.ts. The sandbox's card tokenisation, standing in for Square's SDK,
 * is the sandbox's (server/routes/sandbox/cards.ts).
 */
import type { FastifyInstance } from 'fastify';
import { isRefusal, Refusal } from '../../domain/refusal.ts';
import { payWithSquare } from '../../domain/payment/square.ts';
import type { Handlers, InvalidHandler } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { heldSaleCalls } from '../../http/heldSale.ts';
import { ADDRESS_MESSAGES } from '../../../contract/messages/address.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import { SQUARE_MESSAGES } from '../../../contract/messages/square.ts';
import { SQUARE_SCRIPT_PATH } from '../../../contract/square.ts';

type SquareCalls = 'getSquareCredentials' | 'payWithSquare';

export function squareHandlers(deps: AppDeps): Pick<Handlers, SquareCalls> {
  const { db, clock } = deps;
  const wiring = deps.plans;
  const { heldSale, checkoutOf, replyHoldLost } = heldSaleCalls(deps);

  return {
    getSquareCredentials: async ({ request }) => {
      const sale = await heldSale(request).catch(() => null);
      if (!sale) throw new Refusal('hold-lost', SQUARE_MESSAGES.credentials);
      const checkout = await checkoutOf(request, sale.id, clock());
      if (checkout.sagepay_or_stripe?.toLowerCase() !== 'square')
        throw new Refusal('not-offered', SQUARE_MESSAGES.credentials);
      return wiring.square.credentials;
    },
    payWithSquare: async ({ input, request, reply }) => {
      try {
        const sale = await heldSale(request);
        const now = clock();
        const checkout = await checkoutOf(request, sale.id, now);
        if (checkout.sagepay_or_stripe?.toLowerCase() !== 'square')
          throw new Refusal('not-offered', PAYMENT_MESSAGES.unableToPay);
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
          seating: deps.seating,
        });
        if (result.kind === 'address') {
          reply.status(422).send({ error: result.message, response: { success: false, addressError: result.message } });
          return undefined;
        }
        if (result.kind === 'failed') return { response: { success: false, message: result.message } };
        return { response: { success: true, payment: { id: result.paymentId, status: 'COMPLETED' } } };
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

/** A refused request in Square's words: a billing address it cannot use is the address error. */
export const squareInvalid: Partial<Record<SquareCalls, InvalidHandler>> = {
  payWithSquare: async (_request, reply, message) =>
    /^Invalid billing_address_data/.test(message)
      ? reply.status(422).send({
          error: ADDRESS_MESSAGES.completeAddress,
          response: { success: false, addressError: ADDRESS_MESSAGES.completeAddress },
        })
      : reply.status(400).send({ error: PAYMENT_MESSAGES.unableToPay }),
};

/**
 * The script get_square_credentials's `checkout_js` names, loaded from our own path as the spec
 * has it: a redirect to Square's library for the configured environment (the page's policy allows
 * Square's hosts when keyed). Without keys the sandbox's own card form takes the card, and there is
 * no library to load.
 */
export function registerSquareScript(app: FastifyInstance, deps: Pick<AppDeps, 'plans'>): void {
  app.get(SQUARE_SCRIPT_PATH, async (_request, reply) => {
    const script = deps.plans.square.credentials.checkout_js;
    if (script === '')
      return reply
        .status(404)
        .send({ error: 'Square’s library is not used on this site: its own card form takes the card' });
    return reply.header('cache-control', 'public, max-age=3600').redirect(script, 302);
  });
}
