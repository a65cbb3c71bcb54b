/** deliver_to_bitticket, deliver_to_wallet and get_simple_info: thin mappings onto the delivery domain. */
import type { FastifyRequest } from 'fastify';
import { WALLET_PATH } from '../../../contract/index.ts';
import { DELIVERY_MESSAGES } from '../../../machines/delivery/delivery.messages.ts';
import { Refusal } from '../../domain/refusal.ts';
import { issueTickets } from '../../domain/tickets.ts';
import { deliverPaidTickets } from '../../domain/instalments/plans.ts';
import { deliverWallet, simpleInfo } from '../../domain/wallet.ts';
import type { Handlers } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { saleIdOf } from '../../http/session.ts';

const NO_ORDER_MESSAGE = 'There is no order to deliver in this browser.';

export function deliveryHandlers(deps: AppDeps): Pick<Handlers, 'deliverToBitticket' | 'deliverToWallet' | 'getSimpleInfo'> {
  const { db, clock, config } = deps;
  async function saleFor(request: FastifyRequest): Promise<string> {
    const sale = await request.visitorSale();
    if (!sale) throw new Refusal('not-found', NO_ORDER_MESSAGE);
    return sale.id;
  }
  return {
    deliverToBitticket: async ({ request }) => {
      const saleId = await saleFor(request);
      // A payment plan's sale gets its fully paid tickets now, the rest after the final payment.
      const plan = await deliverPaidTickets(db, saleId, clock());
      if (plan) return { delivery_completed: true };
      const issue = await issueTickets(db, saleId, clock());
      return { delivery_completed: issue.issued };
    },
    deliverToWallet: async ({ request, reply }) => {
      const saleId = await saleFor(request);
      // On the site's own address (PUBLIC_URL), never the one a request's Host header names.
      const walletUrl = `${config.publicUrl}${WALLET_PATH}`;
      // A plan with nothing fully paid yet has no wallet to send: its schedule e-mail went instead.
      if (((await deliverPaidTickets(db, saleId, clock()))?.count ?? 1) === 0) return { delivery_completed: true };
      try {
        const delivery = await deliverWallet(db, { mailer: deps.mailer, brandName: config.brandName }, saleId, walletUrl, clock());
        return { delivery_completed: delivery.delivered };
      } catch (err) {
        if (err instanceof Refusal) throw err;
        // The mail server refused or could not be reached: the buyer may try again.
        request.log.error({ err }, 'wallet e-mail not delivered');
        reply.status(502).send({ error: DELIVERY_MESSAGES.unableToDeliverToWallet });
        return undefined;
      }
    },
    getSimpleInfo: async ({ request, reply }) => {
      reply.header('cache-control', 'no-store');
      return simpleInfo(db, saleIdOf(request));
    },
  };
}
