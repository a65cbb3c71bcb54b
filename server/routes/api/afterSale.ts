/** The order-completed calls: thin mappings onto the after-sale domain (server/domain/afterSale.ts). */
import type { Handlers } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { rewardReferrerLink, sendCustomerFeedback, subscribeToEvents } from '../../domain/afterSale.ts';
import { saleIdOf, userIdOf } from '../../http/session.ts';

export function afterSaleHandlers(
  deps: AppDeps,
): Pick<Handlers, 'getRewardReferrerLink' | 'sendCustomerFeedback' | 'subscribeToEvents' | 'getAccommodationMap'> {
  const { db, clock, config } = deps;
  return {
    getRewardReferrerLink: async ({ request, reply }) => {
      const link = await rewardReferrerLink(db, {
        saleId: saleIdOf(request),
        userId: userIdOf(request),
        // On the site's own address (PUBLIC_URL), never the one a request's Host header names.
        publicUrl: config.publicUrl,
        secret: config.sessionSecret,
        now: clock(),
      });
      // The spec's answer is the link itself: a JSON string, which Fastify would otherwise send as plain text.
      reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(link));
      return undefined;
    },
    sendCustomerFeedback: async ({ input, request }) => {
      await sendCustomerFeedback(
        db,
        { mailer: deps.mailer, brandName: config.brandName, fallbackTo: config.feedbackEmail },
        { saleId: saleIdOf(request), userId: userIdOf(request), message: input.message },
        clock(),
      );
      return { success: true };
    },
    subscribeToEvents: async ({ request }) => {
      await subscribeToEvents(db, { saleId: saleIdOf(request), userId: userIdOf(request) }, clock());
      return { success: true };
    },
    getAccommodationMap: async () => ({
      url: config.accommodationMap?.url ?? null,
      affiliate_id: config.accommodationMap?.affiliateId ?? null,
    }),
  };
}
