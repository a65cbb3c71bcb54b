/** deliver_to_bitticket, deliver_to_wallet and get_simple_info: thin mappings onto the delivery domain. */
import type { FastifyRequest } from 'fastify';
import { DELIVERY_MESSAGES } from '../../../contract/messages/delivery.ts';
import { Refusal } from '../../domain/refusal.ts';
import { deliverToAccount, deliverToWallet } from '../../domain/delivery.ts';
import { simpleInfo } from '../../domain/wallet.ts';
import { rewardReferrer } from '../../domain/referrals.ts';
import type { Handlers } from '../../http/calls.ts';
import { walletUrlOf, type AppDeps } from '../../http/deps.ts';
import { saleIdOf } from '../../http/session.ts';

const NO_ORDER_MESSAGE = 'There is no order to deliver in this browser.';

export function deliveryHandlers(
  deps: AppDeps,
): Pick<Handlers, 'deliverToBitticket' | 'deliverToWallet' | 'getSimpleInfo'> {
  const { db, clock, config } = deps;
  async function saleFor(request: FastifyRequest): Promise<string> {
    const sale = await request.visitorSale();
    if (!sale) throw new Refusal('not-found', NO_ORDER_MESSAGE);
    return sale.id;
  }
  return {
    deliverToBitticket: async ({ request }) => ({
      delivery_completed: await deliverToAccount(db, await saleFor(request), clock()),
    }),
    deliverToWallet: async ({ request, reply }) => {
      const saleId = await saleFor(request);
      try {
        // On the site's own address (PUBLIC_URL), never the one a request's Host header names.
        const delivered = await deliverToWallet(
          db,
          { mailer: deps.mailer, brandName: config.brandName },
          saleId,
          walletUrlOf(config),
          clock(),
        );
        // A booking made through a share link has completed: its referrer gets the event's reward, once.
        if (delivered) {
          await rewardReferrer(
            db,
            { mailer: deps.mailer, brandName: config.brandName, publicUrl: config.publicUrl },
            saleId,
            clock(),
          ).catch((err: unknown) => request.log.error({ err }, 'referral reward not given'));
        }
        return { delivery_completed: delivered };
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
