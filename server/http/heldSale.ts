/**
 * What the plan and Square calls share: the visitor's sale (or the refusal that its hold is gone),
 * its checkout as the buyer sees it, and the 409 that sends the buyer back to the basket when the
 * hold has gone.
 */
import type { FastifyRequest } from 'fastify';
import type { Checkout } from '../../contract/index.ts';
import { buildCheckout } from '../domain/checkout.ts';
import { holdLost } from '../domain/payment/payments.ts';
import type { AppDeps } from './deps.ts';
import { replyHoldLost } from './refusals.ts';
import { userIdOf } from './session.ts';

export function heldSaleCalls({ db }: Pick<AppDeps, 'db'>) {
  return {
    async heldSale(request: FastifyRequest) {
      const sale = await request.visitorSale();
      if (!sale) throw holdLost();
      return sale;
    },
    checkoutOf: (request: FastifyRequest, saleId: string, now: Date): Promise<Checkout> =>
      buildCheckout(db, saleId, now, { captchaSitekey: null, userId: userIdOf(request) }),
    replyHoldLost,
  };
}
